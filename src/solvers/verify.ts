/**
 * Independent checking of solver answers. No backend's word is trusted: every point a solver returns is
 * re-evaluated here against the neutral model (objective, every row, variable domains) before it is
 * handed on.
 */
import type { MilpModel, Solution, SolveStatus } from '../model/milp.ts';

/** Largest accepted row or bound violation (absolute). */
export const FEASIBILITY_TOLERANCE = 1e-6;
/** Largest accepted distance of a binary value from 0 or 1. */
export const INTEGRALITY_TOLERANCE = 1e-6;

export interface Verification {
  /** Objective recomputed from the values (NaN when the values are unusable). */
  readonly objective: number;
  /** Largest violation over all rows and continuous-variable bounds (0 when feasible, Infinity when unusable). */
  readonly maxViolation: number;
  /** True when every binary is within the integrality tolerance of 0 or 1. */
  readonly integral: boolean;
  /** Row with the largest violation, when that violation comes from a row. */
  readonly worstRow?: number;
  /** Description of the largest violation, e.g. `row r7: activity 3 > upper 2`. */
  readonly violation?: string;
  /** Description of the first non-integral binary, e.g. `x4 = 0.5 is not binary`. */
  readonly nonIntegral?: string;
}

/** Generated variable name used in messages (`x12`), independent of any user text. */
export function varName(index: number): string {
  return `x${index}`;
}

/** Generated row name used in messages (`c7`), the name the exported LP and MPS files give the row. */
export function rowName(index: number): string {
  return `c${index}`;
}

/** Set of continuous variable indexes (every other variable is binary). */
export function continuousSet(model: MilpModel): ReadonlySet<number> {
  return new Set(model.continuous ?? []);
}

/**
 * Checks the model itself: sizes, finite coefficients, indexes in range, no NaN bounds.
 * Returns a reason when the model cannot be handed to a solver, otherwise undefined.
 */
export function validateModel(model: MilpModel): string | undefined {
  const n = model.numVars;
  if (!Number.isInteger(n) || n < 0) return `invalid variable count ${n}`;
  if (model.cost.length !== n) return `cost has ${model.cost.length} entries for ${n} variables`;
  for (let j = 0; j < n; j++) {
    if (!Number.isFinite(model.cost[j])) return `cost of ${varName(j)} is ${model.cost[j]}`;
  }
  for (const c of model.continuous ?? []) {
    if (!Number.isInteger(c) || c < 0 || c >= n) return `continuous index ${c} out of range`;
  }
  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    if (row.vars.length !== row.coefs.length) {
      return `row ${rowName(i)} has ${row.vars.length} variables but ${row.coefs.length} coefficients`;
    }
    if (Number.isNaN(row.lower) || Number.isNaN(row.upper)) return `row ${rowName(i)} has a NaN bound`;
    if (row.lower === Infinity || row.upper === -Infinity) {
      return `row ${rowName(i)} has an impossible infinite bound [${row.lower}, ${row.upper}]`;
    }
    for (let k = 0; k < row.vars.length; k++) {
      const v = row.vars[k];
      if (!Number.isInteger(v) || v < 0 || v >= n)
        return `row ${rowName(i)} refers to variable ${v} out of range`;
      if (!Number.isFinite(row.coefs[k])) return `row ${rowName(i)} has coefficient ${row.coefs[k]}`;
    }
  }
  return undefined;
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(10)));
}

/**
 * Recomputes the objective from `values`, evaluates every row and checks the variable domains.
 * Binaries must lie within `INTEGRALITY_TOLERANCE` of 0 or 1; continuous variables within [0, 1]
 * (their bound violations count towards `maxViolation`). The values are evaluated as given (not rounded).
 */
export function verifySolution(
  model: MilpModel,
  values: readonly number[] | Float64Array,
  integralityTolerance = INTEGRALITY_TOLERANCE,
): Verification {
  const n = model.numVars;
  if (values.length !== n) {
    return {
      objective: NaN,
      maxViolation: Infinity,
      integral: false,
      violation: `${values.length} values for ${n} variables`,
    };
  }
  const continuous = continuousSet(model);
  let objective = 0;
  let integral = true;
  let nonIntegral: string | undefined;
  let maxViolation = 0;
  let worstRow: number | undefined;
  let violation: string | undefined;

  for (let j = 0; j < n; j++) {
    const x = values[j];
    if (!Number.isFinite(x)) {
      return {
        objective: NaN,
        maxViolation: Infinity,
        integral: false,
        violation: `${varName(j)} = ${x}`,
        nonIntegral: `${varName(j)} = ${x}`,
      };
    }
    objective += model.cost[j] * x;
    if (continuous.has(j)) {
      const out = Math.max(0 - x, x - 1, 0);
      if (out > maxViolation) {
        maxViolation = out;
        worstRow = undefined;
        violation = `${varName(j)} = ${fmt(x)} outside [0, 1]`;
      }
    } else if (Math.min(Math.abs(x), Math.abs(x - 1)) > integralityTolerance) {
      if (integral) nonIntegral = `${varName(j)} = ${fmt(x)} is not binary`;
      integral = false;
    }
  }

  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    let activity = 0;
    for (let k = 0; k < row.vars.length; k++) activity += row.coefs[k] * values[row.vars[k]];
    let excess = 0;
    let side = '';
    if (activity < row.lower) {
      excess = row.lower - activity;
      side = `< lower ${fmt(row.lower)}`;
    } else if (activity > row.upper) {
      excess = activity - row.upper;
      side = `> upper ${fmt(row.upper)}`;
    }
    if (excess > maxViolation) {
      maxViolation = excess;
      worstRow = i;
      violation = `row ${rowName(i)}: activity ${fmt(activity)} ${side}`;
    }
  }

  return { objective, maxViolation, integral, worstRow, violation, nonIntegral };
}

/**
 * Rounds every binary to exactly 0 or 1 and clamps continuous variables into [0, 1]. The result must be
 * verified again: rounding a value that was far from integral can break rows.
 */
export function roundBinaries(model: MilpModel, values: readonly number[] | Float64Array): number[] {
  const continuous = continuousSet(model);
  const out = new Array<number>(values.length);
  for (let j = 0; j < values.length; j++) {
    const x = values[j];
    out[j] = continuous.has(j) ? Math.min(1, Math.max(0, x)) : x >= 0.5 ? 1 : 0;
  }
  return out;
}

/** What a backend knows about a point before it is checked. */
export interface PointReport {
  readonly solver: string;
  readonly status: Extract<SolveStatus, 'optimal' | 'timeout'>;
  readonly optimal: boolean;
  readonly gap?: number;
  readonly timeMs: number;
}

/**
 * The single gate every backend passes its raw point through: rejects non-integral points, rounds
 * binaries, re-verifies every row and recomputes the objective. A point that fails becomes
 * `status: 'error'` (without values) with a reason naming the offending row or variable.
 */
export function acceptPoint(
  model: MilpModel,
  raw: readonly number[] | Float64Array,
  report: PointReport,
  tolerance = FEASIBILITY_TOLERANCE,
): Solution {
  const { solver, timeMs } = report;
  const before = verifySolution(model, raw);
  if (!before.integral) {
    return {
      status: 'error',
      optimal: false,
      solver,
      timeMs,
      reason: `${solver} returned a non-integral point (${before.nonIntegral ?? before.violation})`,
    };
  }
  const values = roundBinaries(model, raw);
  const after = verifySolution(model, values);
  if (!(after.maxViolation <= tolerance)) {
    return {
      status: 'error',
      optimal: false,
      solver,
      timeMs,
      reason: `${solver} returned an infeasible point (${after.violation}, violation ${fmt(after.maxViolation)})`,
    };
  }
  return {
    status: report.status,
    values,
    objective: after.objective,
    optimal: report.optimal,
    ...(report.gap !== undefined ? { gap: report.gap } : {}),
    solver,
    timeMs,
  };
}
