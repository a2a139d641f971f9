/**
 * Where each parameter of each call gets its value: an original argument (kept or renamed), an earlier
 * output (same name or mapped), memory, a literal reused from the sequence, or `ask` (see `fills.ts`).
 */
import type { ApiSpec, Json, ParamSpec, Step } from '../model/types.ts';
import { valueReadsAs } from '../catalog/evidence.ts';
import { similarity } from '../catalog/names.ts';
import { referenceSites } from '../read/references.ts';
import { isLiteral } from '../validate/validate.ts';
import { fitsType, literalMismatch } from '../validate/literals.ts';
import type { CompileContext } from './context.ts';
import type { Source } from './plan.ts';
import { tokenPlans } from './tokens.ts';
import { goalValue } from './goals.ts';
import { CARRY_REFUND } from './carried.ts';
import { fillSources, referencedFields } from './fills.ts';
import { askCost } from './asks.ts';
import { argumentKey, type ArgumentDrops } from './plan.ts';
import { NO_FEATURES, accumulate, plus, type Features } from '../model/features.ts';

/** Builds every call's parameter and token plans, and the rows that tie them together. */
export function parameterSources(ctx: CompileContext, drops: ArgumentDrops): number {
  const uses = new Map<string, number[]>(); // origin + arg -> variables that keep that argument
  for (const call of [...ctx.calls]) {
    ctx.checkBudget();
    const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
    const callUses = new Map<string, number[]>();
    const useArg = (arg: string, features: Features): Source => {
      // Keeping an argument refunds its drop, which the model's constant charges.
      const v = ctx.variable(plus(features, drops.get(argumentKey(call.origin, arg))!, -1));
      const cost = ctx.price(features);
      let list = callUses.get(arg);
      if (!list) callUses.set(arg, (list = []));
      list.push(v);
      return { kind: 'arg', v, cost, arg };
    };
    call.apis.forEach((choice, ci) => {
      if (choice.api === null) {
        for (const q of Object.keys(step!.arguments)) {
          const s = useArg(q, NO_FEATURES);
          call.params.push({ choice: ci, param: q, required: false, sources: [s] });
        }
        return;
      }
      const names = new Set(choice.api.params.map((p) => p.name));
      const passed = passedLikeness(step, choice.api);
      for (const p of choice.api.params) {
        const sources: Source[] = [];
        for (const [q, value] of Object.entries(step?.arguments ?? {})) {
          const sim = q === p.name ? 1 : names.has(q) ? 0 : similarity(q, p.name);
          if (sim < ctx.cost.minSimilarity) {
            // A made-up parameter's value that reads as the value of a required one the step lacks moves there.
            if (movable(step, q, value, p, names, choice.api))
              sources.push(useArg(q, { renameParam: 1, dissimilarity: 1 - sim, renameByValue: 1 }));
            continue;
          }
          const misfit = isLiteral(value) && literalMismatch(value, p) !== null;
          if (ctx.options.strictTypes && misfit) continue;
          if (sim === 1) {
            sources.push(useArg(q, NO_FEATURES));
            continue;
          }
          // A value that does not fit the parameter's declared type is evidence against renaming it there,
          // and so is a name closer to a parameter the step already passes (a stray copy of that argument).
          const rename: Features = {
            renameParam: 1,
            dissimilarity: 1 - sim,
            ...(misfit ? { renameMisfit: 1 } : {}),
            ...(shadowed(passed(q), sim, p.name) ? { renameShadowed: 1 } : {}),
          };
          sources.push(useArg(q, rename));
        }
        const wanted = call.kind === 'inserted' ? goalValue(ctx, choice.api.name, p.name) : undefined;
        const carried = call.carried?.get(p.name);
        // A put-back call takes the optional values its consumers pass under the same names, unless it
        // leaves one out (`omitCarried`: charged on its API choice, refunded by the value taken).
        const fixed = carried !== undefined && !p.required;
        if (wanted !== undefined) {
          const refund = carried !== undefined ? CARRY_REFUND : NO_FEATURES;
          sources.push({ kind: 'literal', v: ctx.variable(refund), cost: 0, value: wanted, fromStep: -1 });
        } else if (fixed) {
          sources.push({
            kind: 'literal',
            v: ctx.variable(CARRY_REFUND),
            cost: 0,
            value: carried.value,
            fromStep: carried.step,
            ...(carried.defaulted ? { defaulted: true } : {}),
          });
        } else if (p.required && usable(ctx, call.origin, p)) {
          // The step passes `p` a usable value: keeping it costs nothing, so only `ask` backs it up (in
          // optimal mode a call may go, and its consumers refill from elsewhere).
          const ask = askCost(ctx, p.name, referencedFields(step!.arguments[p.name]));
          sources.push({ kind: 'ask', v: ctx.variable(ask), cost: ctx.price(ask) });
        } else if (p.required) sources.push(...fillSources(ctx, call, choice.api, p));
        if (sources.length === 0) continue;
        const required = p.required;
        call.params.push({ choice: ci, param: p.name, required, sources });
        // A parameter without an argument may also take an unread output: added last (`unreadSources`).
        if (p.required && !fixed && wanted === undefined && !hasArgument(step, p.name)) {
          ctx.pendingFills.push({ call, choice: choice.v, param: p, sources });
          continue;
        }
        const vars = sources.map((s) => s.v);
        if (required) ctx.builder.equal(vars, [choice.v]);
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
  ctx.steps.forEach((step, i) => {
    for (const arg of Object.keys(step.arguments)) {
      const drop = drops.get(argumentKey(i, arg))!;
      accumulate(ctx.offsetFeatures, drop);
      offset += ctx.price(drop);
      const vars = uses.get(`${i}\u0000${arg}`);
      if (vars && vars.length > 1) ctx.builder.atMost(vars, 1);
    }
  });
  return offset;
}

/**
 * What dropping each original argument costs (`argumentKey`), as features: `dropResult` in the answer,
 * else `dropParam`; but an optional argument of its API's own name that reads a deleted step which may come
 * back costs at least what asking for its value would: the plan wired it, so the producer goes back (or the
 * person is asked) rather than the value silently lost. A required one is refilled when dropped, so its
 * value is priced where it is refilled. Every drop also carries `dropTie`: a value is never dropped where a
 * rename that keeps it costs the same.
 */
export function argumentDrops(ctx: CompileContext): ArgumentDrops {
  const restored = new Set(ctx.calls.flatMap((c) => (c.restores === undefined ? [] : [c.restores])));
  const drops = new Map<string, Features>();
  ctx.steps.forEach((step, i) => {
    const isResult = ctx.isAnswer(i);
    const api = isResult ? undefined : ctx.index.byName.get(step.name);
    for (const [arg, value] of Object.entries(step.arguments)) {
      let drop: Features = isResult ? { dropResult: 1, dropTie: 1 } : { dropParam: 1, dropTie: 1 };
      const wired =
        !ctx.optimal &&
        api?.params.some((p) => p.name === arg && !p.required) &&
        referenceSites(arg, value).some((site) => restored.has(site.ref.label));
      if (wired) {
        const ask = plus(askCost(ctx, arg, referencedFields(value)), { dropTie: 1 });
        if (ctx.price(ask) > ctx.price(drop)) drop = ask;
      }
      drops.set(argumentKey(i, arg), drop);
    }
  });
  return drops;
}

/**
 * Whether argument `q` (a parameter `api` does not take) may move to the required parameter `p` the step
 * lacks: a literal of `p`'s type that reads as its value (see `valueReadsAs`).
 */
function movable(
  step: Step | undefined,
  q: string,
  value: Json,
  p: ParamSpec,
  names: ReadonlySet<string>,
  api: ApiSpec,
): boolean {
  if (!p.required || names.has(q) || hasArgument(step, p.name)) return false;
  if (typeof value !== 'string' || !isLiteral(value) || !fitsType(value, p.type)) return false;
  return valueReadsAs(q, value, p, api);
}

/**
 * For an argument `q`, how alike its name is to each parameter of `api` the step passes under its own name
 * (worked out once per argument and API).
 */
function passedLikeness(
  step: Step | undefined,
  api: ApiSpec,
): (q: string) => readonly (readonly [string, number])[] {
  const given = api.params.filter((r) => hasArgument(step, r.name)).map((r) => r.name);
  const memo = new Map<string, (readonly [string, number])[]>();
  return (q) => {
    let list = memo.get(q);
    if (!list) memo.set(q, (list = given.filter((r) => r !== q).map((r) => [r, similarity(q, r)] as const)));
    return list;
  };
}

/**
 * The argument is closer in name to another parameter the step already passes than to `target`:
 * `return_daate` beside `return_date`, `sesionId` beside `sessionId`. Renaming it to `target` keeps a stray
 * copy as a value nobody gave.
 */
function shadowed(passed: readonly (readonly [string, number])[], sim: number, target: string): boolean {
  return passed.some(([r, s]) => r !== target && s > sim);
}

function hasArgument(step: { readonly arguments: object } | undefined, name: string): boolean {
  return step !== undefined && Object.prototype.hasOwnProperty.call(step.arguments, name);
}

/** The step passes `p` a value that fits as given: every reference in it resolves (not in optimal mode). */
function usable(ctx: CompileContext, origin: number, p: ParamSpec): boolean {
  if (ctx.optimal || origin < 0) return false;
  const step = ctx.steps[origin];
  if (!Object.prototype.hasOwnProperty.call(step.arguments, p.name)) return false;
  const value = step.arguments[p.name];
  if (ctx.options.strictTypes && isLiteral(value) && literalMismatch(value, p)) return false;
  return referenceSites(p.name, value).every((site) => !ctx.broken(origin, site.ref));
}
