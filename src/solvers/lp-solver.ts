/**
 * javascript-lp-solver backend: a pure-JavaScript dense-tableau branch and bound. Fast on tiny models,
 * hopeless on large ones, hence a size cap. Its own presolve is disabled; its answers are checked on the way out
 * of the solver layer (`solveGuarded`).
 */
import type { SolverAPI, SolveResult } from 'javascript-lp-solver';
import { errorMessage } from '../model/errors.ts';
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { elapsedMs, errorSolution, obviousInfeasibility, precheck, solveEmptyModel } from './common.ts';
import { continuousSet, varName } from './verify.ts';

/** Default largest model (in variables) handed to this solver. */
export const DEFAULT_LP_SOLVER_CAP = 400;

export interface LpSolverBackendOptions {
  /** Largest model (in variables) to attempt; larger ones return status 'error' at once. */
  readonly maxVars?: number;
}

type LpSolver = SolverAPI;
type LpModel = InstanceType<LpSolver['Model']>;
type LpConstraint = ReturnType<LpModel['smallerThan']>;

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

/** One term of a variable: its coefficient in a row, which is one or two of the solver's constraints. */
interface RowTerm {
  readonly row: number;
  readonly lower: LpConstraint | undefined;
  readonly upper: LpConstraint | undefined;
  coef: number;
}

/**
 * The solver's own model, built through its programmatic API (`solver.Model`) in exactly the order its
 * JSON reader (`loadJson`) builds one from the JSON form `{ optimize: 'obj', opType: 'min', constraints,
 * variables, ints, options: { presolve: false, timeout } }` with variables `x<j>`, the upper bound of
 * each variable as a row `u<j>` and the rows `r<i>`: every constraint first (bounds, then rows; equal
 * bounds as a lower then an upper constraint), then each variable with its terms in row order, a row that
 * names a variable twice giving one summed term. Same element indexes, same terms in the same order, so
 * the same tableau, pivots and answer, without making the JSON objects and reading them back (which took
 * about a third of the time of a typical solve here). `test/lp-solver-model.test.ts` holds the two to that,
 * final tableau included, so a new version of the package that builds its models otherwise fails there.
 */
export function buildLpSolverModel(lp: LpSolver, model: MilpModel, timeoutMs: number | undefined): LpModel {
  // A fresh branch-and-cut service per model, as `Solve` makes for a JSON model (the picker is private
  // in the package's declarations only).
  const service = (
    lp as unknown as { selectBranchAndCutService(m: object): unknown }
  ).selectBranchAndCutService({ options: { presolve: false } });
  const built = new lp.Model(undefined, undefined, service as ConstructorParameters<LpSolver['Model']>[2]);
  // What loadJson sets from those options: no presolve, the time-out (whole ms, never 0), the defaults.
  built.tolerance = 0;
  if (timeoutMs) built.timeout = timeoutMs;
  built.checkForCycles = true;
  built.keep_solutions = false;
  built.usePresolve = false;

  const n = model.numVars;
  const bounds: LpConstraint[] = [];
  for (let j = 0; j < n; j++) bounds.push(built.smallerThan(1));
  const terms: RowTerm[][] = [];
  for (let j = 0; j < n; j++) terms.push([]);
  for (let i = 0; i < model.rows.length; i++) {
    const row = model.rows[i];
    const hasLower = row.lower > -Infinity;
    const hasUpper = row.upper < Infinity;
    if ((!hasLower && !hasUpper) || row.vars.length === 0) continue;
    let lower: LpConstraint | undefined;
    let upper: LpConstraint | undefined;
    if (hasLower && hasUpper && row.lower === row.upper) {
      lower = built.greaterThan(row.lower);
      upper = built.smallerThan(row.lower);
    } else {
      if (hasLower) lower = built.greaterThan(row.lower);
      if (hasUpper) upper = built.smallerThan(row.upper);
    }
    for (let k = 0; k < row.vars.length; k++) {
      const list = terms[row.vars[k]];
      const last = list[list.length - 1];
      // The JSON form sums into a coefficient that starts at 0 (so -0 reads as 0, as it did there).
      if (last !== undefined && last.row === i) last.coef += row.coefs[k];
      else list.push({ row: i, lower, upper, coef: 0 + row.coefs[k] });
    }
  }

  // Each (constraint, variable) pair gets one term, so the term is appended as `addTerm` appends a new one,
  // without its index of terms by variable (kept for later edits of a coefficient, which never come here).
  const Term = lp.Term;
  const continuous = continuousSet(model);
  for (let j = 0; j < n; j++) {
    const variable = built.addVariable(model.cost[j] || 0, varKey(j), !continuous.has(j), false);
    bounds[j].terms.push(new Term(variable, 1));
    for (const term of terms[j]) {
      term.lower?.terms.push(new Term(variable, term.coef));
      term.upper?.terms.push(new Term(variable, term.coef));
    }
  }
  return built;
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
      result = solverModule.Solve(buildLpSolverModel(solverModule, model, timeoutMs));
    } catch (error) {
      return errorSolution(solver, start, `lp-solver failed: ${errorMessage(error, true)}`);
    }
    const timeMs = elapsedMs(start);
    // It has no time-out status: a run that used up its budget may have stopped early. Its clock is
    // `Date.now()`, whole milliseconds, started after ours: it may stop up to a millisecond before our
    // measure reaches the budget (with the model built directly, nothing else stands between the two).
    const timedOut = timeoutMs !== undefined && timeMs >= timeoutMs - 1;

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
