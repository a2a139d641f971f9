/** Small pieces shared by the backends. */
import type { MilpModel, Solution, SolveOptions } from '../model/milp.ts';
import { rowName, validateModel } from './verify.ts';

/** Default wall-clock limit in seconds when `SolveOptions.timeLimit` is absent. */
export const DEFAULT_TIME_LIMIT = 10;

export function elapsedMs(start: number): number {
  return performance.now() - start;
}

export function errorSolution(solver: string, start: number, reason: string): Solution {
  return { status: 'error', optimal: false, reason, solver, timeMs: elapsedMs(start) };
}

/** The time limit in seconds, or a reason why the requested one is unusable. */
export function resolveTimeLimit(options: SolveOptions | undefined): number | string {
  const limit = options?.timeLimit ?? DEFAULT_TIME_LIMIT;
  if (Number.isNaN(limit) || limit <= 0) return `invalid time limit ${limit}`;
  return limit;
}

/**
 * What every backend checks before solving: a well-formed model and a usable time limit. Returns the limit in
 * seconds, or the error solution to return as is.
 */
export function precheck(
  model: MilpModel,
  options: SolveOptions | undefined,
  solver: string,
  start: number,
): number | Solution {
  const invalid = validateModel(model);
  if (invalid) return errorSolution(solver, start, `invalid model: ${invalid}`);
  const limit = resolveTimeLimit(options);
  return typeof limit === 'string' ? errorSolution(solver, start, limit) : limit;
}

/**
 * A model without variables needs no solver: it is optimal with objective 0 when every row admits
 * activity 0, and infeasible otherwise.
 */
export function solveEmptyModel(model: MilpModel, solver: string, start: number): Solution {
  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    if (row.lower > 0 || row.upper < 0) {
      return {
        status: 'infeasible',
        optimal: false,
        reason: `row ${rowName(i)} cannot hold with no variables`,
        solver,
        timeMs: elapsedMs(start),
      };
    }
  }
  return { status: 'optimal', optimal: true, values: [], objective: 0, solver, timeMs: elapsedMs(start) };
}

/**
 * Rows in compressed sparse row form with repeated variables merged and zero coefficients dropped
 * (solvers reject or mishandle duplicate entries in a row).
 */
export interface CsrRows {
  readonly starts: number[];
  readonly indices: number[];
  readonly values: number[];
}

export function toCsr(model: MilpModel): CsrRows {
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const slot = new Map<number, number>();
  for (const row of model.rows) {
    slot.clear();
    const begin = indices.length;
    for (let k = 0; k < row.vars.length; k++) {
      const v = row.vars[k];
      const at = slot.get(v);
      if (at === undefined) {
        slot.set(v, indices.length);
        indices.push(v);
        values.push(row.coefs[k]);
      } else {
        values[at] += row.coefs[k];
      }
    }
    // Drop entries that are (or cancelled to) zero, keeping the row compact.
    let write = begin;
    for (let read = begin; read < indices.length; read++) {
      if (values[read] !== 0) {
        indices[write] = indices[read];
        values[write] = values[read];
        write++;
      }
    }
    indices.length = write;
    values.length = write;
    starts.push(write);
  }
  return { starts, indices, values };
}

/**
 * Infeasibility visible without solving: a row with no variables that excludes 0, or a row whose lower
 * bound exceeds its upper bound. Some solvers abort or misreport on such rows, so they never see them.
 */
export function obviousInfeasibility(model: MilpModel): string | undefined {
  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    if (row.lower > row.upper)
      return `row ${rowName(i)} has lower bound ${row.lower} > upper bound ${row.upper}`;
    if (row.vars.length === 0 && (row.lower > 0 || row.upper < 0)) {
      return `row ${rowName(i)} has no variables and excludes 0`;
    }
  }
  return undefined;
}
