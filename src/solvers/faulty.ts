/**
 * A deliberately broken backend for fault-injection tests. It breaks the `SolverBackend` contract on
 * purpose, in one of four ways:
 *
 * - 'throw': `solve` rejects with an Error.
 * - 'abort': `solve` rejects with `WebAssembly.RuntimeError('Aborted()')`, as a crashed WebAssembly
 *   solver does.
 * - 'hang': `solve` stays pending until `dispose()` (then it resolves with status 'error') or, when
 *   `hangMs` is set, until that many milliseconds pass (then it resolves with status 'timeout').
 * - 'wrong': `solve` resolves with status 'optimal' and a point that violates a row, without verifying
 *   it; only `acceptPoint` (or another verifier) stands between that point and a caller.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { toCsr } from './common.ts';

export type FaultMode = 'throw' | 'abort' | 'hang' | 'wrong';

export interface FaultyBackendOptions {
  readonly mode: FaultMode;
  /** Backend name (default `faulty`). */
  readonly name?: string;
  /** For 'hang': settle after this many milliseconds instead of waiting for `dispose()`. */
  readonly hangMs?: number;
}

export class FaultyBackend implements SolverBackend {
  readonly name: string;
  readonly mode: FaultMode;
  readonly #hangMs: number | undefined;
  #calls = 0;
  /** Releases every pending 'hang' solve. */
  readonly #pending = new Set<() => void>();

  constructor(options: FaultyBackendOptions) {
    this.mode = options.mode;
    this.name = options.name ?? 'faulty';
    this.#hangMs = options.hangMs;
  }

  /** How many times `solve` has been called. */
  get calls(): number {
    return this.#calls;
  }

  /** How many 'hang' solves are still pending. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Releases every pending 'hang' solve (each resolves with status 'error'). */
  dispose(): void {
    for (const release of [...this.#pending]) release();
  }

  async solve(model: MilpModel, _options?: SolveOptions): Promise<Solution> {
    this.#calls++;
    const start = performance.now();
    switch (this.mode) {
      case 'throw':
        throw new Error(`${this.name}: injected fault`);
      case 'abort':
        throw new WebAssembly.RuntimeError('Aborted()');
      case 'hang':
        return this.#hang(start);
      case 'wrong': {
        const values = violatingPoint(model);
        const objective = values.reduce((sum, x, j) => sum + (model.cost[j] ?? 0) * x, 0);
        return {
          status: 'optimal',
          optimal: true,
          values,
          objective,
          solver: this.name,
          timeMs: performance.now() - start,
        };
      }
    }
  }

  #hang(start: number): Promise<Solution> {
    return new Promise<Solution>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (status: 'error' | 'timeout', reason: string) => {
        clearTimeout(timer);
        this.#pending.delete(release);
        resolve({ status, optimal: false, reason, solver: this.name, timeMs: performance.now() - start });
      };
      const release = () => settle('error', `${this.name}: disposed while hanging`);
      this.#pending.add(release);
      if (this.#hangMs !== undefined) {
        const ms = this.#hangMs;
        timer = setTimeout(() => settle('timeout', `${this.name}: hung for ${ms} ms`), ms);
      }
    });
  }
}

/**
 * A 0/1 point that breaks some row: all variables 0 except those pushing the first breakable row past
 * one of its bounds. When no binary point can break a row, every value is NaN (still rejected by the
 * verifier, as non-integral).
 */
const MARGIN = 1e-3;

function violatingPoint(model: MilpModel): number[] {
  const n = model.numVars;
  const csr = toCsr(model);
  for (let i = 0; i < model.rows.length; i++) {
    const { lower, upper } = model.rows[i];
    let low = 0;
    let high = 0;
    for (let k = csr.starts[i]; k < csr.starts[i + 1]; k++) {
      const c = csr.values[k];
      if (c < 0) low += c;
      else high += c;
    }
    // Break by a clear margin, far above the verifier's tolerance.
    const pushDown = low < lower - MARGIN;
    const pushUp = high > upper + MARGIN;
    if (!pushDown && !pushUp) continue;
    const values = new Array<number>(n).fill(0);
    for (let k = csr.starts[i]; k < csr.starts[i + 1]; k++) {
      const c = csr.values[k];
      if (pushDown ? c < 0 : c > 0) values[csr.indices[k]] = 1;
    }
    return values;
  }
  return new Array<number>(Math.max(1, n)).fill(NaN);
}
