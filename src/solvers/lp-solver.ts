/**
 * javascript-lp-solver backend: a pure-JavaScript dense-tableau branch and bound. Fast on tiny models,
 * hopeless on large ones, hence a size cap. Its own presolve is disabled; its answers are checked on the way out
 * of the solver layer (`solveGuarded`).
 */
import type { ModelDefinition, SolveResult } from 'javascript-lp-solver';
import { errorMessage } from '../model/errors.ts';
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { elapsedMs, errorSolution, obviousInfeasibility, precheck, solveEmptyModel } from './common.ts';
import { continuousSet, rowName, varName } from './verify.ts';

/** Default largest model (in variables) handed to this solver. */
export const DEFAULT_LP_SOLVER_CAP = 400;

export interface LpSolverBackendOptions {
  /** Largest model (in variables) to attempt; larger ones return status 'error' at once. */
  readonly maxVars?: number;
}

interface LpSolver {
  Solve(model: ModelDefinition): SolveResult | unknown;
}

let loaded: Promise<LpSolver> | undefined;

/**
 * The solver, imported on first use: a run that never solves never loads it. Declarations are
 * CommonJS-flavoured while Node loads the ES module build: accept either shape.
 */
function lpSolver(): Promise<LpSolver> {
  loaded ??= import('javascript-lp-solver').then((module) => {
    const imported = module.default as unknown as LpSolver | { default: LpSolver };
    return 'Solve' in imported ? imported : imported.default;
  });
  return loaded;
}

const OBJECTIVE = 'obj';

function upperBoundName(j: number): string {
  return `u${j}`;
}

/** Names already made, by index: every model reuses the same strings (bounded: lp-solver models are small). */
const NAME_CACHE_LIMIT = 100_000;
function cachedNames(make: (index: number) => string): (index: number) => string {
  const names: string[] = [];
  return (index) => {
    if (index >= NAME_CACHE_LIMIT) return make(index);
    while (names.length <= index) names.push(make(names.length));
    return names[index];
  };
}
const varKey = cachedNames(varName);
const rowKey = cachedNames(rowName);
const boundKey = cachedNames(upperBoundName);

/** JSON model: variables `x<j>`, rows `r<i>`, variable upper bounds as rows `u<j>`, objective `obj`. */
export function toLpSolverModel(model: MilpModel, timeoutMs: number | undefined): ModelDefinition {
  const variables: Record<string, Record<string, number>> = {};
  const constraints: Record<string, { min?: number; max?: number; equal?: number }> = {};
  const ints: Record<string, 1> = {};
  const continuous = continuousSet(model);

  const coefsOf: Record<string, number>[] = [];
  for (let j = 0; j < model.numVars; j++) {
    const name = varKey(j);
    const bound = boundKey(j);
    // The objective key is always written so it is read as a coefficient, never as a variable name.
    const coefs: Record<string, number> = { [OBJECTIVE]: model.cost[j], [bound]: 1 };
    variables[name] = coefs;
    coefsOf.push(coefs);
    constraints[bound] = { max: 1 };
    if (!continuous.has(j)) ints[name] = 1;
  }

  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    const hasLower = row.lower > -Infinity;
    const hasUpper = row.upper < Infinity;
    if ((!hasLower && !hasUpper) || row.vars.length === 0) continue;
    const name = rowKey(i);
    if (hasLower && hasUpper && row.lower === row.upper) constraints[name] = { equal: row.lower };
    else {
      const bounds: { min?: number; max?: number } = {};
      if (hasLower) bounds.min = row.lower;
      if (hasUpper) bounds.max = row.upper;
      constraints[name] = bounds;
    }
    for (let k = 0; k < row.vars.length; k++) {
      const coefs = coefsOf[row.vars[k]];
      coefs[name] = (coefs[name] ?? 0) + row.coefs[k];
    }
  }

  return {
    optimize: OBJECTIVE,
    opType: 'min',
    constraints,
    variables,
    ints,
    options: { presolve: false, ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) },
  };
}

function isSolveResult(value: unknown): value is SolveResult {
  return typeof value === 'object' && value !== null && typeof (value as SolveResult).feasible === 'boolean';
}

export class LpSolverBackend implements SolverBackend {
  readonly name = 'lp-solver';
  readonly maxVars: number;

  constructor(options: LpSolverBackendOptions = {}) {
    this.maxVars = options.maxVars ?? DEFAULT_LP_SOLVER_CAP;
  }

  async solve(model: MilpModel, options?: SolveOptions): Promise<Solution> {
    const start = performance.now();
    const solver = this.name;
    const limit = precheck(model, options, solver, start);
    if (typeof limit !== 'number') return limit;
    if (model.numVars > this.maxVars) {
      return errorSolution(
        solver,
        start,
        `model too large for lp-solver (${model.numVars} variables > ${this.maxVars})`,
      );
    }
    if (model.numVars === 0) return solveEmptyModel(model, solver, start);
    // Rows without variables never reach the solver, and crossed bounds are answered here.
    const obvious = obviousInfeasibility(model);
    if (obvious)
      return { status: 'infeasible', optimal: false, reason: obvious, solver, timeMs: elapsedMs(start) };

    // Its time-out is in whole milliseconds and 0 means "none".
    const timeoutMs = Number.isFinite(limit) ? Math.max(1, Math.round(limit * 1000)) : undefined;
    const solverModule = await lpSolver();
    let result: unknown;
    try {
      result = solverModule.Solve(toLpSolverModel(model, timeoutMs));
    } catch (error) {
      return errorSolution(solver, start, `lp-solver failed: ${errorMessage(error, true)}`);
    }
    const timeMs = elapsedMs(start);
    // It has no time-out status: a run that used up its budget may have stopped early.
    const timedOut = timeoutMs !== undefined && timeMs >= timeoutMs;

    if (!isSolveResult(result)) return errorSolution(solver, start, 'lp-solver returned no result');
    if (result.bounded === false) {
      // Every variable is bounded, so this can only be a numerical failure.
      return errorSolution(solver, start, 'lp-solver reported an unbounded model');
    }
    if (!result.feasible) {
      if (timedOut) {
        return {
          status: 'timeout',
          optimal: false,
          reason: 'time limit reached without a solution',
          solver,
          timeMs,
        };
      }
      return {
        status: 'infeasible',
        optimal: false,
        reason: 'reported infeasible by lp-solver',
        solver,
        timeMs,
      };
    }
    const hasIntegers = model.numVars > continuousSet(model).size;
    if (hasIntegers && result.isIntegral !== true) {
      // After a time-out it can return a fractional relaxation point marked feasible.
      if (timedOut) {
        return {
          status: 'timeout',
          optimal: false,
          reason: 'time limit reached without an integral solution',
          solver,
          timeMs,
        };
      }
      return errorSolution(solver, start, 'lp-solver returned a point not marked integral');
    }

    const values = new Array<number>(model.numVars);
    for (let j = 0; j < model.numVars; j++) {
      const v = result[varKey(j)];
      values[j] = typeof v === 'number' ? v : 0;
    }
    return {
      status: timedOut ? 'timeout' : 'optimal',
      optimal: !timedOut,
      values,
      ...(typeof result.result === 'number' ? { objective: result.result } : {}),
      solver,
      timeMs,
    };
  }
}
