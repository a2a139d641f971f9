/**
 * The best different repair: the model again, with a cut that forbids the chosen decisions together. A
 * decision is what makes the data flow (the API of each call, each call's deletion, the source of each
 * parameter and of each reference, each shared ask); labels and tie-breaks are not decisions, so the
 * repair found under the cut differs in what runs or in what feeds what.
 */
import type { Plan } from '../compile/plan.ts';
import type { MilpModel } from '../model/milp.ts';

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

/** `sum of the chosen decisions <= (their number) - 1`: at least one of them changes. */
export function excludeDecisions(model: MilpModel, plan: Plan, values: readonly number[]): MilpModel {
  const chosen = decisionVars(plan).filter((v) => values[v] > 0.5);
  return {
    ...model,
    rows: [
      ...model.rows,
      { vars: chosen, coefs: chosen.map(() => 1), lower: -Infinity, upper: chosen.length - 1 },
    ],
  };
}
