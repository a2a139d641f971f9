/**
 * The last line of defence around any backend, including ones a library user injects: a throw or a
 * WebAssembly abort becomes an error solution, a solve that outlives its time limit by `graceMs` is
 * abandoned (and the backend disposed, so the next solve gets a fresh instance), and every returned point
 * is verified against the model again.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { acceptPoint } from './verify.ts';

export interface GuardOptions extends SolveOptions {
  /** How long past the time limit a solve may run before it is abandoned (default 2 s). */
  readonly graceMs?: number;
  /** Called when the backend faulted or hung and should not be used again as it is. */
  readonly onFault?: (reason: string) => void;
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
      const solution = fault(`${backend.name} did not return within its time limit (${options.timeLimit} s)`);
      return { ...solution, status: 'timeout' };
    }
    if (!outcome.values || (outcome.status !== 'optimal' && outcome.status !== 'timeout')) return outcome;
    // Re-verify whatever the backend says about its own point.
    return acceptPoint(model, outcome.values, {
      solver: outcome.solver,
      status: outcome.status === 'timeout' ? 'timeout' : 'optimal',
      optimal: outcome.optimal,
      gap: outcome.gap,
      timeMs: outcome.timeMs,
    });
  } catch (error) {
    const abort = error instanceof WebAssembly.RuntimeError;
    backend.dispose?.();
    return fault(
      `${backend.name} ${abort ? 'aborted' : 'threw'}: ${(error as Error)?.message ?? String(error)}`,
    );
  } finally {
    if (timer) clearTimeout(timer);
  }
}
