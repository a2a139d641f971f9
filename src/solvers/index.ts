/**
 * Solver backends behind the neutral model, and a process-wide cache of shared instances.
 *
 * glpk.js was evaluated as a backend and not shipped: it is GPL-3.0, and on 5,000 random 0/1 models its
 * MIP presolve twice called an integer-infeasible model optimal.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { HighsBackend } from './highs.ts';
import { solveGuarded } from './guard.ts';

export { solveGuarded, type GuardOptions } from './guard.ts';
import { LpSolverBackend } from './lp-solver.ts';
import { PortfolioBackend } from './portfolio.ts';

export type * from '../model/milp.ts';
export { HighsBackend, FAST_PROFILE, type HighsBackendOptions } from './highs.ts';
export { LpSolverBackend, DEFAULT_LP_SOLVER_CAP, type LpSolverBackendOptions } from './lp-solver.ts';
export {
  PortfolioBackend,
  DEFAULT_CUT_SMALL_VARS,
  DEFAULT_LONG_ROW,
  DEFAULT_SMALL_VARS,
  PORTFOLIO_NAME,
  type PortfolioBackendOptions,
} from './portfolio.ts';
export { FaultyBackend, type FaultMode, type FaultyBackendOptions } from './faulty.ts';
export {
  verifySolution,
  roundBinaries,
  validateModel,
  acceptPoint,
  FEASIBILITY_TOLERANCE,
  INTEGRALITY_TOLERANCE,
  type Verification,
} from './verify.ts';
export { DEFAULT_TIME_LIMIT } from './common.ts';

import { DEFAULT_SOLVER, SOLVER_NAMES, type SolverName } from '../model/constants.ts';
import { InputError } from '../model/errors.ts';

/** A new, unshared backend. */
export function createSolver(name: SolverName): SolverBackend {
  switch (name) {
    case 'highs':
      return new HighsBackend();
    case 'lp-solver':
      return new LpSolverBackend();
    case 'portfolio':
      return new PortfolioBackend();
    default: {
      const unknown: never = name;
      throw new InputError(
        'solver',
        `expected one of ${SOLVER_NAMES.join(', ')}, received ${JSON.stringify(unknown) ?? 'undefined'}`,
      );
    }
  }
}

const shared = new Map<SolverName, SolverBackend>();

/** The process-wide shared backend for `name` (created on first use, then reused). */
export function getSolver(name: SolverName = DEFAULT_SOLVER): SolverBackend {
  let solver = shared.get(name);
  if (!solver) {
    solver = createSolver(name);
    shared.set(name, solver);
  }
  return solver;
}

/** Disposes and forgets every shared backend (the next `getSolver` creates fresh ones). */
export function disposeSolvers(): void {
  for (const solver of shared.values()) solver.dispose?.();
  shared.clear();
}

/**
 * Solves with the shared backend `name` through the guard (a throw, an abort or a hang becomes an error or
 * time-out solution, and every point is verified again), so callers can rely on it never throwing.
 */
export function solveVerified(
  model: MilpModel,
  options?: SolveOptions & { readonly solver?: SolverName },
): Promise<Solution> {
  return solveGuarded(getSolver(options?.solver ?? DEFAULT_SOLVER), model, options);
}

/**
 * Whether two solutions agree on the objective within a relative tolerance (default 1e-4, HiGHS's default
 * relative MIP gap), measured against max(1, |objective|).
 */
export function objectivesAgree(a: Solution, b: Solution, relTol = 1e-4): boolean {
  if (a.objective === undefined || b.objective === undefined) return false;
  const scale = Math.max(1, Math.abs(a.objective), Math.abs(b.objective));
  return Math.abs(a.objective - b.objective) <= relTol * scale;
}
