/**
 * Where each parameter of each call gets its value: an original argument (kept or renamed), an earlier
 * output (same name or mapped), memory, a literal reused from the sequence, or `ask`.
 */
import type { Json, ParamSpec } from '../model/types.ts';
import { leafOf, outputsByLeaf } from '../catalog/catalog-index.ts';
import { role, similarity, tieDistance } from '../catalog/names.ts';
import { DEFAULT_RESULT_NAME, isLiteral } from '../validate/validate.ts';
import { literalMismatch } from '../validate/literals.ts';
import { memoryPaths } from '../validate/outputs.ts';
import { originalLabel, type CompileContext } from './context.ts';
import type { Call, Source } from './plan.ts';
import { tokenPlans } from './tokens.ts';
import { segments } from '../read/references.ts';
import { goalValue } from './goals.ts';
import { typesCompatible } from '../validate/literals.ts';

/** Builds every call's parameter and token plans, and the rows that tie them together. */
export function parameterSources(ctx: CompileContext): number {
  const w = ctx.weights;
  const uses = new Map<string, number[]>(); // origin + arg -> variables that keep that argument
  for (const call of [...ctx.calls]) {
    const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
    const callUses = new Map<string, number[]>();
    const dropCost = call.kind === 'result' ? w.dropResult : w.dropParam;
    const useArg = (arg: string, cost: number, kind?: 'renameParam'): Source => {
      const v = ctx.variable(cost - dropCost, kind);
      let list = callUses.get(arg);
      if (!list) callUses.set(arg, (list = []));
      list.push(v);
      return { kind: 'arg', v, cost, arg };
    };
    call.apis.forEach((choice, ci) => {
      if (choice.api === null) {
        for (const q of Object.keys(step!.arguments)) {
          const s = useArg(q, 0);
          call.params.push({ choice: ci, param: q, required: false, sources: [s] });
        }
        return;
      }
      const names = new Set(choice.api.params.map((p) => p.name));
      for (const p of choice.api.params) {
        const sources: Source[] = [];
        for (const [q, value] of Object.entries(step?.arguments ?? {})) {
          const sim = q === p.name ? 1 : names.has(q) ? 0 : similarity(q, p.name);
          if (sim < ctx.cost.minSimilarity) continue;
          if (ctx.options.strictTypes && isLiteral(value) && literalMismatch(value, p)) continue;
          sources.push(
            sim === 1 ? useArg(q, 0) : useArg(q, w.renameParam + w.dissimilarity * (1 - sim), 'renameParam'),
          );
        }
        const wanted = call.kind === 'inserted' ? goalValue(ctx, choice.api.name, p.name) : undefined;
        if (wanted !== undefined) {
          sources.push({ kind: 'literal', v: ctx.variable(0), cost: 0, value: wanted, fromStep: -1 });
        } else if (p.required) sources.push(...fillSources(ctx, call, p));
        if (sources.length === 0) continue;
        call.params.push({ choice: ci, param: p.name, required: p.required, sources });
        const vars = sources.map((s) => s.v);
        if (p.required) ctx.builder.equal(vars, [choice.v]);
        else ctx.builder.atMost(vars, [choice.v]);
      }
    });
    for (const [arg, vars] of callUses) {
      tokenPlans(ctx, call, arg, step!.arguments[arg], vars);
      const key = `${call.origin}\u0000${arg}`;
      uses.set(key, [...(uses.get(key) ?? []), ...vars]);
    }
  }
  // Each original argument feeds at most one parameter; one that feeds none is dropped (dropParam).
  let offset = 0;
  const resultName = ctx.options.resultName ?? DEFAULT_RESULT_NAME;
  ctx.steps.forEach((step, i) => {
    const isResult = step.name === resultName && i === ctx.steps.length - 1;
    for (const arg of Object.keys(step.arguments)) {
      offset += isResult ? w.dropResult : w.dropParam;
      const vars = uses.get(`${i}\u0000${arg}`);
      if (vars && vars.length > 1) ctx.builder.atMost(vars, 1);
    }
  });
  return offset;
}

/** Which labels the other arguments of a step reference, and under which parameter names. */
function siblingFeeds(ctx: CompileContext, origin: number): Map<string, string[]> {
  const feeds = new Map<string, string[]>();
  for (const site of origin >= 0 ? ctx.refs[origin] : []) {
    const list = feeds.get(site.ref.label) ?? [];
    list.push(site.param);
    feeds.set(site.ref.label, list);
  }
  return feeds;
}

/**
 * Tie-break preference for filling `param` from label `label`: a label that already feeds a sibling
 * parameter of the same role (`originEntityId` for `originSkyId`) first, then any sibling, then others.
 */
function affinity(param: string, label: string, feeds: Map<string, string[]>): number {
  const fed = feeds.get(label);
  if (!fed) return 1;
  const r = role(param);
  return r !== undefined && fed.some((q) => role(q) === r) ? 0 : 0.5;
}

/** Non-argument sources of a required parameter. */
function fillSources(ctx: CompileContext, call: Call, p: ParamSpec): Source[] {
  const w = ctx.weights;
  const tie = w.tieBreak;
  const feeds = siblingFeeds(ctx, call.origin);
  const candidates: {
    cost: number;
    make: (v: number) => Source;
    rows?: (v: number) => void;
    kind: 'reassign' | 'newMap' | 'fromMemory' | 'reuseLiteral';
  }[] = [];
  const mapped = new Map(ctx.mappedFrom(p.name).map((m) => [m.from, m.score]));
  const fieldCost = (leaf: string): { cost: number; mapped: boolean } | null => {
    if (leaf === p.name) return { cost: w.reassign, mapped: false };
    const score = mapped.get(leaf);
    return score === undefined ? null : { cost: w.newMap * (2 - score), mapped: true };
  };
  const names = [p.name, ...mapped.keys()];
  for (const j of ctx.before(call.pos)) {
    const seen = new Set<string>();
    for (const choice of j.apis) {
      if (!choice.api) continue;
      const byLeaf = outputsByLeaf(choice.api);
      for (const name of names) {
        for (const f of byLeaf.get(name) ?? []) {
          const fc = fieldCost(name);
          if (!fc || seen.has(f.path)) continue;
          seen.add(f.path);
          if (ctx.options.strictTypes && !typesCompatible(f.type, p.type)) continue;
          const path = segments(f.path);
          const label = originalLabel(ctx, j);
          const depth = path.length - 1;
          const cost =
            fc.cost + tie * (affinity(p.name, label, feeds) + 0.1 * depth + 0.1 * tieDistance(p.name, label));
          candidates.push({
            cost,
            kind: fc.mapped ? 'newMap' : 'reassign',
            make: (v) => ({ kind: 'output', v, cost, call: j.id, path, mapped: fc.mapped }),
            rows: (v) => {
              ctx.builder.atMost([v], ctx.provides(j, path));
              ctx.builder.atMost([v], ctx.labelled(j));
            },
          });
        }
      }
    }
  }
  for (const [label, value] of Object.entries(ctx.memory)) {
    for (const mp of memoryPaths(value as Json)) {
      const fc = fieldCost(leafOf(mp));
      if (!fc) continue;
      const path = segments(mp);
      const extra = fc.mapped ? fc.cost - w.newMap : 0;
      const cost = w.fromMemory + extra + tie * (affinity(p.name, label, feeds) + 0.1 * (path.length - 1));
      candidates.push({
        cost,
        kind: 'fromMemory',
        make: (v) => ({ kind: 'memory', v, cost, label, path, mapped: fc.mapped }),
        rows: (v) => ctx.unshadowed(v, label, call.pos),
      });
    }
  }
  const literals = new Set<string>();
  ctx.steps.forEach((other, k) => {
    if (k === call.origin || !Object.prototype.hasOwnProperty.call(other.arguments, p.name)) return;
    const value = other.arguments[p.name];
    if (!isLiteral(value) || literals.has(JSON.stringify(value))) return;
    if (ctx.options.strictTypes && literalMismatch(value, p)) return;
    literals.add(JSON.stringify(value));
    const distance = Math.abs(call.pos - k) / Math.max(ctx.steps.length, 1);
    const cost = w.reuseLiteral + tie * distance;
    candidates.push({
      cost,
      kind: 'reuseLiteral',
      make: (v) => ({ kind: 'literal', v, cost, value, fromStep: k }),
    });
  });
  candidates.sort((a, b) => a.cost - b.cost);
  const sources: Source[] = candidates.slice(0, 12).map((c) => {
    const v = ctx.variable(c.cost, c.kind);
    c.rows?.(v);
    return c.make(v);
  });
  const v = ctx.variable(w.slotFill, 'slotFill');
  sources.push({ kind: 'ask', v, cost: w.slotFill });
  return sources;
}
