/**
 * The best different repair: the model again, with a cut that forbids the chosen data flow. The flow is made
 * of choices (the API of each call or its deletion, the source of each parameter, the option of each
 * reference), each option known by what it means (`key`): a reference kept and one re-pointed at the same
 * output under a new label are one choice. Labels and tie-breaks are not choices, so the repair found under
 * the cut differs in what runs or in what feeds what, not in its labels alone.
 */
import type { Plan, Source, TokenOption } from '../compile/plan.ts';
import type { MilpModel } from '../model/milp.ts';
import type { ReferenceSite } from '../model/types.ts';

/**
 * A choice the model makes once, by what each option means for the data flow (`key`): which API runs, where
 * a value comes from. Two options of one key (a reference kept, or re-pointed at the same output under a new
 * label) are the same choice. None on: the call is deleted, or not inserted.
 */
export type ChoicePoint = readonly { readonly v: number; readonly key: string; readonly ask: boolean }[];

const at = (path: readonly unknown[]) => JSON.stringify(path);

function sourceKey(source: Source): string {
  switch (source.kind) {
    case 'arg':
      return `arg ${source.arg}`;
    case 'output':
      return `call ${source.call} ${at(source.path)}`;
    case 'memory':
      return `memory ${source.label} ${at(source.path)}`;
    case 'literal':
      return `literal ${JSON.stringify(source.value)}`;
    case 'ask':
      return 'ask';
  }
}

function optionKey(option: TokenOption, site: ReferenceSite): string {
  switch (option.kind) {
    case 'keep':
      return option.call === null
        ? `memory ${site.ref.label} ${at(site.ref.path)}`
        : `call ${option.call} ${at(site.ref.path)}`;
    case 'reassign':
      return option.call === null
        ? `memory ${option.memoryLabel} ${at(option.path)}`
        : `call ${option.call} ${at(option.path)}`;
    case 'ask':
      return `ask ${option.ask}`;
  }
}

/**
 * A choice point and what it depends on (`owner`): null for a call's API, which is always chosen or not; the
 * API option a parameter's sources belong to; the sources that pass on the argument a reference is in. A
 * point's options sum to its owner's.
 */
interface OwnedPoint {
  readonly point: ChoicePoint;
  readonly owner: readonly number[] | null;
}

/** Each call's API (or its deletion), each parameter's source, each reference's option, with its owner. */
function ownedPoints(plan: Plan): OwnedPoint[] {
  const points: OwnedPoint[] = [];
  for (const call of plan.calls) {
    const api = [
      ...call.apis.map((a) => ({ v: a.v, key: `api ${a.api?.name ?? '(answer)'}`, ask: false })),
      ...(call.deleteVar === undefined ? [] : [{ v: call.deleteVar, key: 'deleted', ask: false }]),
    ];
    points.push({ point: api, owner: null });
    for (const param of call.params)
      points.push({
        point: param.sources.map((s) => ({ v: s.v, key: sourceKey(s), ask: s.kind === 'ask' })),
        owner: [call.apis[param.choice].v],
      });
    for (const token of call.tokens)
      points.push({
        point: token.options.map((o) => ({ v: o.v, key: optionKey(o, token.site), ask: o.kind === 'ask' })),
        owner: token.uses,
      });
  }
  return points;
}

/** Each call's API (or its deletion), each parameter's source, each reference's option. */
export function choicePoints(plan: Plan): ChoicePoint[] {
  return ownedPoints(plan).map((p) => p.point);
}

/** The decision variables of a plan, ascending. */
export function decisionVars(plan: Plan): number[] {
  const vars = new Set<number>();
  for (const call of plan.calls) {
    for (const api of call.apis) vars.add(api.v);
    if (call.deleteVar !== undefined) vars.add(call.deleteVar);
    for (const param of call.params) for (const source of param.sources) vars.add(source.v);
    for (const token of call.tokens) for (const option of token.options) vars.add(option.v);
  }
  for (const ask of plan.asks) vars.add(ask.v);
  return [...vars].sort((a, b) => a - b);
}

/**
 * At least one choice means something else: `sum over choices of differs >= 1`. A choice made (an option
 * on) differs when its owner is on (a call's API: always) and no option of its key is: `owner - same`. One
 * not made (no option on) differs when an option comes on: `sum of its options`; but one whose owner is off
 * too is left out, as its options can only come on with the owner's choice, which differs then. So a move
 * counts once whatever it takes with it: a call deleted or inserted with its parameters and their references
 * is one difference, not one per point, and the cut's relaxation stops at half a move less often. The integer
 * points it cuts are the ones with the same flow, as a count over every point would.
 */
export function excludeFlow(model: MilpModel, plan: Plan, values: readonly number[]): MilpModel {
  const coefs = new Map<number, number>();
  const add = (v: number, c: number) => coefs.set(v, (coefs.get(v) ?? 0) + c);
  // The owners' constant 1 (a call's API) moves to the right-hand side.
  let lower = 1;
  for (const { point, owner } of ownedPoints(plan)) {
    const chosen = point.find((o) => values[o.v] > 0.5);
    if (!chosen && owner !== null && !owner.some((v) => values[v] > 0.5)) continue;
    if (chosen) {
      if (owner === null) lower--;
      else for (const v of owner) add(v, 1);
    }
    for (const o of point)
      if (!chosen) add(o.v, 1);
      else if (o.key === chosen.key) add(o.v, -1);
  }
  const vars = [...coefs.keys()].filter((v) => coefs.get(v) !== 0).sort((a, b) => a - b);
  return {
    ...model,
    rows: [...model.rows, { vars, coefs: vars.map((v) => coefs.get(v)!), lower, upper: Infinity }],
  };
}
