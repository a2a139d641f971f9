/**
 * The solver-neutral model: what `compile` produces and every backend consumes. Backends know nothing of
 * tool calls. Variables are numbered 0..numVars-1; names are generated debugging aids, never user text.
 */

/** A sparse linear row `lower <= sum(coef * x[var]) <= upper` (use ±Infinity for a free side). */
export interface Row {
  readonly vars: readonly number[];
  readonly coefs: readonly number[];
  readonly lower: number;
  readonly upper: number;
}

/** A minimisation MILP. All variables are binary unless `continuous` says otherwise. */
export interface MilpModel {
  readonly numVars: number;
  /** Objective coefficients, length numVars (minimised). */
  readonly cost: readonly number[];
  readonly rows: readonly Row[];
  /** Indexes of continuous variables in [0, 1]; every other variable is binary. */
  readonly continuous?: readonly number[];
  /** Optional generated names (`x12`) for dumps. */
  readonly names?: readonly string[];
}

export interface SolveOptions {
  /** Wall-clock limit in seconds. */
  readonly timeLimit?: number;
}

export type SolveStatus = 'optimal' | 'timeout' | 'infeasible' | 'error';

export interface Solution {
  readonly status: SolveStatus;
  /**
   * Variable values when a point is available: as the backend found them, and after the one check on the
   * way out of the solver layer (`solveGuarded`) rounded to exactly 0/1 for binaries and verified.
   */
  readonly values?: readonly number[];
  /** The objective: as the backend reports it, and after `solveGuarded` recomputed from `values`. */
  readonly objective?: number;
  /** True only when the solver proved optimality. */
  readonly optimal: boolean;
  /** Relative gap when a time-out left an incumbent. */
  readonly gap?: number;
  readonly reason?: string;
  readonly solver: string;
  readonly timeMs: number;
}

/** A backend. `solve` never throws: faults become `status: 'error'` with a reason. */
export interface SolverBackend {
  readonly name: string;
  solve(model: MilpModel, options?: SolveOptions): Promise<Solution>;
  dispose?(): void;
}
