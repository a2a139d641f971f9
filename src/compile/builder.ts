/**
 * Accumulates binary variables (with their objective cost) and sparse rows into a MilpModel. An optional
 * meter enforces the compilation's budget (size caps, deadline) as variables and rows are added.
 */
import type { MilpModel, Row } from '../model/milp.ts';
import type { BudgetMeter } from './budget.ts';

/** Rows up to this many terms merge repeated variables by a scan; longer ones through a Map. */
const SHORT_ROW = 16;

export class ModelBuilder {
  private readonly costs: number[] = [];
  private readonly rows: Row[] = [];
  /** Constant part of the objective (edits paid unless a variable avoids them). */
  offset = 0;

  constructor(readonly meter?: BudgetMeter) {}

  /** A new binary variable with objective coefficient `cost`. */
  variable(cost = 0): number {
    this.costs.push(cost);
    this.meter?.variable(this.costs.length);
    return this.costs.length - 1;
  }

  addCost(v: number, cost: number): void {
    this.costs[v] += cost;
  }

  get size(): number {
    return this.costs.length;
  }

  /** `lower <= sum(coefs * vars) <= upper`; terms on the same variable are merged. */
  row(terms: readonly (readonly [number, number])[], lower: number, upper: number): void {
    let vars: number[] = [];
    let coefs: number[] = [];
    if (terms.length <= SHORT_ROW) {
      // Most rows are short: a scan merges them without a Map (same order: first occurrence).
      for (const [v, c] of terms) {
        const k = vars.indexOf(v);
        if (k === -1) {
          vars.push(v);
          coefs.push(c);
        } else coefs[k] += c;
      }
      if (coefs.includes(0)) {
        vars = vars.filter((_, k) => coefs[k] !== 0);
        coefs = coefs.filter((c) => c !== 0);
      }
    } else {
      const merged = new Map<number, number>();
      for (const [v, c] of terms) merged.set(v, (merged.get(v) ?? 0) + c);
      for (const [v, c] of merged) {
        if (c !== 0) {
          vars.push(v);
          coefs.push(c);
        }
      }
    }
    if (vars.length === 0) {
      if (lower > 0 || upper < 0) throw new Error('internal: an empty row that cannot hold');
      return;
    }
    this.meter?.row(vars.length);
    this.rows.push({ vars, coefs, lower, upper });
  }

  /** sum(vars) == rhs */
  equal(vars: readonly number[], rhs: number | readonly number[]): void {
    if (typeof rhs === 'number')
      this.row(
        vars.map((v) => [v, 1] as const),
        rhs,
        rhs,
      );
    else this.row([...vars.map((v) => [v, 1] as const), ...rhs.map((v) => [v, -1] as const)], 0, 0);
  }

  /** sum(vars) <= sum(bound) (a constant when `bound` is a number). */
  atMost(vars: readonly number[], bound: number | readonly number[]): void {
    if (typeof bound === 'number')
      this.row(
        vars.map((v) => [v, 1] as const),
        -Infinity,
        bound,
      );
    else this.row([...vars.map((v) => [v, 1] as const), ...bound.map((v) => [v, -1] as const)], -Infinity, 0);
  }

  build(): MilpModel {
    return {
      numVars: this.costs.length,
      cost: this.costs,
      rows: this.rows,
      names: this.costs.map((_, i) => `x${i}`),
    };
  }
}
