/**
 * The references inside a kept argument: each is kept (its label and path resolve before the call),
 * reassigned to another output (another field of the same label, the same field under another label), or
 * replaced by the answer of an ask that every reference to the same missing value shares.
 */
import type { Json, ParamSpec } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { normalisePath, referenceSites } from '../read/references.ts';
import { memoryProvides } from '../validate/outputs.ts';
import type { CompileContext } from './context.ts';
import type { Call, TokenOption } from './plan.ts';
import { sharedAsk } from './asks.ts';
import { similarity } from '../catalog/names.ts';
import { reassignments } from './reassign.ts';
import { rerunOptions } from './rerun.ts';

export function tokenPlans(
  ctx: CompileContext,
  call: Call,
  arg: string,
  value: Json,
  uses: readonly number[],
): void {
  const b = ctx.builder;
  const earlier = ctx.before(call.pos);
  const param = paramSpec(call, arg);
  for (const site of referenceSites(arg, value)) {
    ctx.checkBudget();
    const { label, path } = site.ref;
    const options: TokenOption[] = [];
    const shadowing: number[] = [];
    for (const j of earlier) {
      const as = j.labels.find((l) => l.label === label);
      // A step labelled like what the run holds (a memory item, an executed call) takes another label; its
      // readers follow it there, as they read it in the input.
      const follows =
        !as &&
        ctx.held.has(label) &&
        j.origin >= 0 &&
        ctx.steps[j.origin].label === label &&
        !ctx.restated.has(j.origin);
      if (!as && !follows) continue;
      const provides = ctx.provides(j, path);
      // A step the label names shadows the memory item; relabelled, only where it has the field read.
      if (as) shadowing.push(as.v);
      else if (provides.length > 0) shadowing.push(...ctx.active(j));
      if (provides.length === 0) continue;
      const v = ctx.variable();
      if (as) b.atMost([v], [as.v]);
      b.atMost([v], provides);
      options.push({ kind: 'keep', v, cost: 0, call: j.id, ...(follows ? { follows: true } : {}) });
    }
    if (ctx.inMemory(label) && memoryProvides(ctx.memory[label], path)) {
      const v = ctx.variable();
      // A step labelled like a memory item shadows it.
      for (const s of shadowing) b.atMost([v, s], 1);
      options.push({ kind: 'keep', v, cost: 0, call: null });
    }
    const norm = normalisePath(path);
    const whole = site.whole && site.at.length === 0;
    options.push(...reassignments(ctx, call, arg, label, path, earlier, whole ? param : undefined));
    options.push(...rerunOptions(ctx, label, path, earlier));
    // A reference that is broken as written may be asked for (the answer step lists outputs and never asks;
    // a whole output, `$var3$`, names no value to ask).
    if (call.kind !== 'result' && norm !== '' && ctx.broken(call.origin, site.ref)) {
      const field = leafOf(norm);
      const names = whole ? [field, arg] : [field];
      const k = sharedAsk(ctx, `${label}\u0000${norm}`, whole ? arg : field, names);
      const v = ctx.variable();
      ctx.asks[k].uses.push(v);
      options.push({ kind: 'ask', v, cost: 0, ask: k });
    } else if (call.kind !== 'result' && namesItsValue(ctx, call, arg, site.ref, whole)) {
      // `date="$date$"` with nothing labelled date: the label names the value, so it is asked under it.
      const k = sharedAsk(ctx, `${label}\u0000`, arg, [arg], label);
      const v = ctx.variable();
      ctx.asks[k].uses.push(v);
      options.push({ kind: 'ask', v, cost: 0, ask: k });
    }
    b.equal(
      options.map((o) => o.v),
      uses,
    );
    call.tokens.push({ arg, site, options, uses });
  }
}

/**
 * A whole argument that is a bare label nothing defines (no step of the plan, no memory item), spelt like the
 * parameter it feeds (`minSimilarity`): a placeholder for a value a person gives, not a lost step's output.
 */
function namesItsValue(
  ctx: CompileContext,
  call: Call,
  arg: string,
  ref: { readonly label: string; readonly path: readonly unknown[] },
  whole: boolean,
): boolean {
  if (!whole || ref.path.length > 0) return false;
  if (ctx.steps.some((s) => s.label === ref.label)) return false;
  if (ctx.inMemory(ref.label)) return false;
  if (!ctx.broken(call.origin, ref as Parameters<CompileContext['broken']>[1])) return false;
  return similarity(ref.label, arg) >= ctx.cost.minSimilarity;
}

/** The declared parameter an argument feeds under the call's first API choice that has it. */
function paramSpec(call: Call, arg: string): ParamSpec | undefined {
  for (const choice of call.apis) {
    const p = choice.api?.params.find((q) => q.name === arg);
    if (p) return p;
  }
  return undefined;
}
