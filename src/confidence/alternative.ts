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

/** Each call's API (or its deletion), each parameter's source, each reference's option. */
export function choicePoints(plan: Plan): ChoicePoint[] {
  const points: ChoicePoint[] = [];
  for (const call of plan.calls) {
    points.push([
      ...call.apis.map((a) => ({ v: a.v, key: `api ${a.api?.name ?? '(answer)'}`, ask: false })),
      ...(call.deleteVar === undefined ? [] : [{ v: call.deleteVar, key: 'deleted', ask: false }]),
    ]);
    for (const param of call.params)
      points.push(param.sources.map((s) => ({ v: s.v, key: sourceKey(s), ask: s.kind === 'ask' })));
    for (const token of call.tokens)
      points.push(
        token.options.map((o) => ({ v: o.v, key: optionKey(o, token.site), ask: o.kind === 'ask' })),
      );
  }
  return points;
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
 * At least one choice means something else: `sum over choices of [same meaning as chosen] <= (choices) - 1`.
 * A choice made (an option on) is the same while an option of its key is on; one not made (its call deleted or
 * not inserted: no option on) while none is, `1 - sum of its options`. At most one option of a choice is on.
 */
export function excludeFlow(model: MilpModel, plan: Plan, values: readonly number[]): MilpModel {
  const coefs = new Map<number, number>();
  // The constant 1 of each choice not made moves to the right-hand side: (choices made) - 1.
  let upper = -1;
  for (const point of choicePoints(plan)) {
    const chosen = point.find((o) => values[o.v] > 0.5);
    if (chosen) upper++;
    for (const o of point)
      if (!chosen) coefs.set(o.v, (coefs.get(o.v) ?? 0) - 1);
      else if (o.key === chosen.key) coefs.set(o.v, (coefs.get(o.v) ?? 0) + 1);
  }
  const vars = [...coefs.keys()].sort((a, b) => a - b);
  return {
    ...model,
    rows: [...model.rows, { vars, coefs: vars.map((v) => coefs.get(v)!), lower: -Infinity, upper }],
  };
}
