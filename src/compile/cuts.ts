/** No-good cuts: exclude one 0/1 point from a model, for enumerating distinct repairs in cost order. */
import type { MilpModel } from '../model/milp.ts';

/** `sum_{v on} x_v - sum_{v off} x_v <= |on| - 1`: every point but `values` stays feasible. */
export function excludePoint(model: MilpModel, values: readonly number[]): MilpModel {
  const vars: number[] = [];
  const coefs: number[] = [];
  let on = 0;
  for (let v = 0; v < model.numVars; v++) {
    vars.push(v);
    if (values[v] > 0.5) {
      coefs.push(1);
      on++;
    } else coefs.push(-1);
  }
  return { ...model, rows: [...model.rows, { vars, coefs, lower: -Infinity, upper: on - 1 }] };
}
