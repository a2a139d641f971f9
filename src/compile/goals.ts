/**
 * Goals: an API must be called (`sum x[., o*] >= 1`), a field must exist at the end (some kept call outputs
 * it, or memory holds it), a call must be made with given parameter values. Candidates that can meet a goal
 * no call of the sequence meets are inserted before the answer step.
 */
import { heldResults } from '../validate/tries.ts';
import type { Json } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { canonicalJson } from '../model/canonical.ts';
import { memoryPaths } from '../validate/outputs.ts';
import { newInsertedCall, type Need } from './inserted.ts';
import type { CompileContext } from './context.ts';
import type { Call } from './plan.ts';

export class GoalError extends Error {}

/** Where calls added for goals go: just before the answer step, or at the end. */
function endPosition(ctx: CompileContext): number {
  const result = ctx.calls.find((c) => c.kind === 'result');
  return result ? result.pos - 0.5 : ctx.steps.length;
}

/** Field names that satisfy a field goal: the field itself or an output mapped onto it. */
const namesFor = (ctx: CompileContext, field: string) =>
  new Set([field, ...ctx.mappedFrom(field).map((m) => m.from)]);

const fieldOutputs = (ctx: CompileContext, call: Call, field: string) => {
  const names = namesFor(ctx, field);
  return call.apis
    .filter((a) => a.api?.outputs?.some((f) => f.path === field || names.has(leafOf(f.path))))
    .map((a) => a.v);
};

const inMemory = (ctx: CompileContext, field: string) => {
  const names = namesFor(ctx, field);
  return Object.values(ctx.memory).some((v) =>
    memoryPaths(v as Json).some((p) => p === field || names.has(leafOf(p))),
  );
};

/** Inserts candidates for goal APIs no call can run; returns the needs (goal fields) for insertion. */
export function goalCandidates(ctx: CompileContext): Need[] {
  const goals = ctx.options.goals;
  if (!goals) return [];
  const pos = endPosition(ctx);
  const same = (a: Json, b: Json) => a !== undefined && canonicalJson(a) === canonicalJson(b);
  // A step goal no input step already meets (same API, same literal values) gets a call of its own.
  const unmet = (goals.steps ?? []).filter(
    (g) =>
      !ctx.steps.some(
        (s) => s.name === g.name && Object.entries(g.arguments).every(([k, v]) => same(s.arguments[k], v)),
      ),
  );
  const ran = executedApis(ctx);
  const missing = (goals.apis ?? []).filter(
    (name) => !ran.has(name) && !ctx.calls.some((c) => c.apis.some((a) => a.api?.name === name)),
  );
  for (const name of [...new Set(missing), ...unmet.map((g) => g.name)]) {
    const api = ctx.index.byName.get(name);
    if (!api) throw new GoalError(`goal API ${JSON.stringify(name)} is not in the catalog`);
    newInsertedCall(ctx, api, pos, 0, `goal ${name}`);
  }
  return (goals.fields ?? [])
    .filter((f) => !inMemory(ctx, f) && !ctx.calls.some((c) => fieldOutputs(ctx, c, f).length > 0))
    .map((f) => ({ leaf: f, pos, depth: 0 }));
}

/** The APIs of the executed calls whose results memory holds. */
function executedApis(ctx: CompileContext): Set<string> {
  return new Set(heldResults(ctx.options.executed ?? [], ctx.memory).map((s) => s.name));
}

/** The goal rows; run after the parameter sources exist. */
export function goalRows(ctx: CompileContext): void {
  const goals = ctx.options.goals;
  if (!goals) return;
  const b = ctx.builder;
  const ran = executedApis(ctx);
  for (const name of goals.apis ?? []) {
    // An API goal is met by a call already executed whose result memory holds.
    if (ran.has(name)) continue;
    const vars = ctx.calls.flatMap((c) => c.apis.filter((a) => a.api?.name === name).map((a) => a.v));
    if (vars.length === 0) throw new GoalError(`no call can run ${name}`);
    b.row(
      vars.map((v) => [v, 1] as const),
      1,
      Infinity,
    );
  }
  for (const field of goals.fields ?? []) {
    if (inMemory(ctx, field)) continue;
    const vars = ctx.calls.flatMap((c) => fieldOutputs(ctx, c, field));
    if (vars.length === 0) throw new GoalError(`no call in the catalog outputs ${field}`);
    b.row(
      vars.map((v) => [v, 1] as const),
      1,
      Infinity,
    );
  }
  for (const goal of goals.steps ?? []) {
    const met: number[] = [];
    for (const call of ctx.calls) {
      call.apis.forEach((choice, k) => {
        if (choice.api?.name !== goal.name) return;
        const per = Object.entries(goal.arguments).map(([param, value]) => {
          const plan = call.params.find((p) => p.choice === k && p.param === param);
          return (plan?.sources ?? []).filter((s) => yields(ctx, call, s, value)).map((s) => s.v);
        });
        if (per.some((vars) => vars.length === 0)) return;
        const g = ctx.variable();
        b.atMost([g], [choice.v]);
        for (const vars of per) b.atMost([g], vars);
        met.push(g);
      });
    }
    if (met.length === 0) throw new GoalError(`no call can be ${goal.name} with the given values`);
    b.row(
      met.map((v) => [v, 1] as const),
      1,
      Infinity,
    );
  }
}

function yields(
  ctx: CompileContext,
  call: Call,
  source: Call['params'][number]['sources'][number],
  value: Json,
): boolean {
  const same = (a: Json) => canonicalJson(a) === canonicalJson(value);
  if (source.kind === 'literal') return same(source.value);
  if (source.kind === 'arg') return call.origin >= 0 && same(ctx.steps[call.origin].arguments[source.arg]);
  return false;
}

/** Literal values a goal asks for, by API and parameter (offered as zero-cost sources to inserted calls). */
export function goalValue(ctx: CompileContext, api: string, param: string): Json | undefined {
  for (const goal of ctx.options.goals?.steps ?? []) {
    if (goal.name === api && Object.prototype.hasOwnProperty.call(goal.arguments, param))
      return goal.arguments[param];
  }
  return undefined;
}
