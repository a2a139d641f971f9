/**
 * The way out of the solver layer, and the one place a solver's answer is checked. Around any backend,
 * including ones a library user injects: a throw or a WebAssembly abort becomes an error solution, a solve
 * that outlives its time limit by `graceMs` is abandoned (and the backend disposed, so the next solve gets
 * a fresh instance), an answer that breaks the `Solution` contract becomes an error, and every point is
 * verified against the model (`acceptPoint`: integrality, every row, the objective recomputed). Backends
 * themselves hand back their raw points; the portfolio composes guarded solves.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { errorMessage } from '../model/errors.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';
import { acceptPoint } from './verify.ts';

export interface GuardOptions extends SolveOptions {
  /** How long past the time limit a solve may run before it is abandoned (default 2 s). */
  readonly graceMs?: number;
  /** Called when the backend faulted or hung and should not be used again as it is. */
  readonly onFault?: (reason: string) => void;
}

const STATUSES = new Set(['optimal', 'timeout', 'infeasible', 'error']);

/**
 * Marks a backend whose every point already came through `solveGuarded` (the portfolio): its points are
 * not verified a second time. Only code that imports this module can set it.
 */
export const GUARDED: unique symbol = Symbol('points checked by solveGuarded');

function composedOfGuardedSolves(backend: SolverBackend): boolean {
  return (backend as { [GUARDED]?: boolean })[GUARDED] === true;
}

/** The backend's answer held to the contract, its point (if any) verified. */
function checked(model: MilpModel, answer: unknown, backend: SolverBackend, timeMs: number): Solution {
  const failed = (reason: string): Solution => ({
    status: 'error',
    optimal: false,
    solver: backend.name,
    timeMs,
    reason,
  });
  if (typeof answer !== 'object' || answer === null) return failed(`${backend.name} returned no solution`);
  const solution = answer as Solution;
  const solver = solution.solver ?? backend.name;
  if (!STATUSES.has(solution.status))
    return failed(`${backend.name} returned unknown status ${String(solution.status)}`);
  if (solution.status === 'error' && solution.reason === undefined)
    return { ...solution, solver, reason: `${backend.name} failed without a reason` };
  if (solution.status !== 'optimal' && solution.status !== 'timeout') return { ...solution, solver };
  if (solution.values === undefined) {
    if (solution.status === 'optimal') return failed(`${backend.name} reported optimal without a point`);
    return { ...solution, solver, optimal: false };
  }
  if (composedOfGuardedSolves(backend)) return { ...solution, solver };
  const point = acceptPoint(model, solution.values, {
    solver,
    status: solution.status,
    optimal: solution.status === 'optimal' && solution.optimal,
    gap: solution.gap,
    timeMs: solution.timeMs ?? timeMs,
  });
  return point.status === 'error' || solution.reason === undefined
    ? point
    : { ...point, reason: solution.reason };
}

export async function solveGuarded(
  backend: SolverBackend,
  model: MilpModel,
  options: GuardOptions = {},
): Promise<Solution> {
  const start = performance.now();
  const elapsed = () => performance.now() - start;
  const fault = (reason: string): Solution => {
    options.onFault?.(reason);
    return { status: 'error', optimal: false, solver: backend.name, timeMs: elapsed(), reason };
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog =
    options.timeLimit === undefined
      ? undefined
      : new Promise<'hung'>((resolve) => {
          timer = setTimeout(() => resolve('hung'), options.timeLimit! * 1000 + (options.graceMs ?? 2000));
        });
  try {
    const solving = backend.solve(model, options);
    const outcome = await (watchdog ? Promise.race([solving, watchdog]) : solving);
    if (outcome === 'hung') {
      backend.dispose?.();
      // The time the solve was given (what was left of the repair's limit), to the millisecond.
      const limit = round(options.timeLimit!, SHORT_DIGITS);
      const solution = fault(`${backend.name} did not return within the ${limit} s it was given`);
      return { ...solution, status: 'timeout' };
    }
    return checked(model, outcome, backend, elapsed());
  } catch (error) {
    const abort = error instanceof WebAssembly.RuntimeError;
    backend.dispose?.();
    return fault(`${backend.name} ${abort ? 'aborted' : 'threw'}: ${errorMessage(error)}`);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
