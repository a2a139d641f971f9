/**
 * Portfolio backend. Models with at most `smallVars` variables go to lp-solver first (several times quicker
 * than HiGHS on tiny 0/1 models), those with a cut (a long row) only up to `cutSmallVars`; anything short of a verified optimum from it sends the same model to
 * HiGHS with the remaining time. Larger models go straight to HiGHS.
 *
 * The models compiled here are always feasible, so an 'infeasible' verdict from the small-model backend is
 * treated as a fault like any other. Each backend is run through the guard (`solveGuarded`), so a point is
 * verified before it is compared, and a backend that throws, never answers or returns a wrong point counts
 * as a fault too. The answer's `solver` names the backend
 * behind it (`portfolio:lp-solver`, `portfolio:highs`) and, after a fallback, its `reason` says why the
 * small-model backend was passed over.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { elapsedMs, precheck } from './common.ts';
import { HighsBackend } from './highs.ts';
import { LpSolverBackend } from './lp-solver.ts';
import { GUARDED, solveGuarded } from './guard.ts';

export const PORTFOLIO_NAME = 'portfolio';

/**
 * Default largest model (in variables) tried on the small-model backend first. Repair models up to a few
 * hundred variables are sparse enough that lp-solver, with no start-up of its own, wins end to end (compile,
 * solve, decode) over HiGHS on the NESTFUL corrupted records, cold and warm; the solve alone crosses over
 * lower (benchmarks/results/solvers.md), and the 400-variable cap of lp-solver stays above this.
 */
export const DEFAULT_SMALL_VARS = 300;

/**
 * Default largest model with a long row (a cut: at least `DEFAULT_LONG_ROW` variables) tried on the small-model
 * backend first. A repair model's rows are short (at most 22 variables on the 10,000-API world); the row that
 * forbids a repair's data flow (confidence) covers every decision. lp-solver's branch and bound is weak on it:
 * on the 10,000-API world its cut solves of 100 to 300 variables take 8.4 s in all against HiGHS's 3.1 s, p99
 * 91 against 12 ms, while below 100 variables it stays several times quicker (benchmarks/results/latency.md).
 */
export const DEFAULT_CUT_SMALL_VARS = 100;
/** Fewest variables in a row that make it long (a cut) for `cutSmallVars`. */
export const DEFAULT_LONG_ROW = 32;

export interface PortfolioBackendOptions {
  /** Largest model (in variables) tried on the small-model backend first (default `DEFAULT_SMALL_VARS`). */
  readonly smallVars?: number;
  /**
   * Largest model with a row of at least `longRow` variables tried on the small-model backend first
   * (default `DEFAULT_CUT_SMALL_VARS`; at most `smallVars` applies as well).
   */
  readonly cutSmallVars?: number;
  /** Fewest variables in a row that make it long (default `DEFAULT_LONG_ROW`). */
  readonly longRow?: number;
  /** Share of the time limit the small-model attempt may use (default 0.5, at most `smallMaxSeconds`). */
  readonly smallTimeShare?: number;
  /** Upper bound in seconds on the small-model attempt, whatever the share (default 1). */
  readonly smallMaxSeconds?: number;
  /**
   * Seconds a backend may run past its own limit before it is given up as hung (default 1). Only a
   * backend that yields to the event loop can be abandoned; a synchronous one is bounded by its own limit.
   */
  readonly graceSeconds?: number;
  /** Backend for small models (default: a new lp-solver backend). */
  readonly small?: SolverBackend;
  /** Backend for large models and for fallbacks (default: a new HiGHS backend). */
  readonly large?: SolverBackend;
}

/** The fallback always gets at least this many seconds, even when the small attempt used up its share. */
const MIN_FALLBACK_SECONDS = 0.05;

function seconds(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(3))) : String(x);
}

/** Why a checked small-model answer (anything but 'optimal') was not taken. */
function passedOverBecause(solution: Solution, backendName: string, limit: number): string {
  const detail = solution.reason !== undefined ? ` (${solution.reason})` : '';
  switch (solution.status) {
    case 'infeasible':
      return `${backendName} reported the model infeasible${detail}, taken as a fault`;
    case 'timeout':
      return `${backendName} reached its ${seconds(limit)} s limit${solution.values ? ' with an unproven incumbent' : detail}`;
    default:
      return `${backendName} failed${detail}`;
  }
}

function joinReasons(...reasons: (string | undefined)[]): string | undefined {
  const kept = reasons.filter((r): r is string => r !== undefined && r !== '');
  return kept.length > 0 ? kept.join('; ') : undefined;
}

function withReason(solution: Solution, reason: string | undefined, timeMs: number): Solution {
  const { reason: _dropped, ...rest } = solution;
  return { ...rest, ...(reason !== undefined ? { reason } : {}), timeMs };
}

export class PortfolioBackend implements SolverBackend {
  readonly name = PORTFOLIO_NAME;
  /** Its points come from guarded solves of its backends, so the guard around it does not check them again. */
  readonly [GUARDED] = true;
  readonly smallVars: number;
  readonly cutSmallVars: number;
  readonly longRow: number;
  readonly small: SolverBackend;
  readonly large: SolverBackend;
  readonly #smallTimeShare: number;
  readonly #smallMaxSeconds: number;
  readonly #graceSeconds: number;
  /** Backends created here (and so disposed here); injected ones belong to the caller. */
  readonly #owned: SolverBackend[] = [];

  /** Throws a RangeError for option values outside their domain. */
  constructor(options: PortfolioBackendOptions = {}) {
    this.smallVars = options.smallVars ?? DEFAULT_SMALL_VARS;
    this.cutSmallVars = options.cutSmallVars ?? DEFAULT_CUT_SMALL_VARS;
    this.longRow = options.longRow ?? DEFAULT_LONG_ROW;
    this.#smallTimeShare = options.smallTimeShare ?? 0.5;
    this.#smallMaxSeconds = options.smallMaxSeconds ?? 1;
    this.#graceSeconds = options.graceSeconds ?? 1;
    if (!(Number.isInteger(this.smallVars) && this.smallVars >= 0))
      throw new RangeError(`smallVars must be a non-negative integer, got ${this.smallVars}`);
    if (!(Number.isInteger(this.cutSmallVars) && this.cutSmallVars >= 0))
      throw new RangeError(`cutSmallVars must be a non-negative integer, got ${this.cutSmallVars}`);
    if (!(Number.isInteger(this.longRow) && this.longRow >= 1))
      throw new RangeError(`longRow must be a positive integer, got ${this.longRow}`);
    if (!(this.#smallTimeShare > 0 && this.#smallTimeShare <= 1))
      throw new RangeError(`smallTimeShare must lie in (0, 1], got ${this.#smallTimeShare}`);
    if (!(this.#smallMaxSeconds > 0))
      throw new RangeError(`smallMaxSeconds must be positive, got ${this.#smallMaxSeconds}`);
    if (!(this.#graceSeconds >= 0))
      throw new RangeError(`graceSeconds must be non-negative, got ${this.#graceSeconds}`);

    if (options.small) {
      this.small = options.small;
    } else {
      this.small = new LpSolverBackend();
      this.#owned.push(this.small);
    }
    if (options.large) {
      this.large = options.large;
    } else {
      this.large = new HighsBackend();
      this.#owned.push(this.large);
    }
  }

  /** Disposes the backends this portfolio created (injected backends are left to their owner). */
  dispose(): void {
    for (const backend of this.#owned) backend.dispose?.();
  }

  async solve(model: MilpModel, options?: SolveOptions): Promise<Solution> {
    const start = performance.now();
    const limit = precheck(model, options, this.name, start);
    if (typeof limit !== 'number') return limit;
    if (!this.#small(model)) return this.#solveLarge(model, limit, start);

    const small = this.small.name;
    const smallLimit = Math.min(limit * this.#smallTimeShare, this.#smallMaxSeconds);
    const first = this.#named(await this.#guarded(this.small, model, smallLimit), small, start);
    if (first.status === 'optimal') return first;
    const passedOver = `${small} passed over: ${passedOverBecause(first, small, smallLimit)}`;
    const incumbent = first.status === 'timeout' && first.values ? first : undefined;

    const remaining = Math.max(limit - elapsedMs(start) / 1000, MIN_FALLBACK_SECONDS);
    const fallback = await this.#solveLarge(model, remaining, start);
    const timeMs = elapsedMs(start);
    if (!incumbent || fallback.status === 'optimal')
      return withReason(fallback, joinReasons(fallback.reason, passedOver), timeMs);

    // The small-model backend left a verified incumbent: keep whichever verified point is better.
    const large = this.large.name;
    if (fallback.values !== undefined && fallback.objective! <= incumbent.objective!)
      return withReason(fallback, joinReasons(fallback.reason, passedOver), timeMs);
    const fallbackNote =
      fallback.status === 'timeout'
        ? fallback.values
          ? `${large} found no better point`
          : `${large} found no point in time`
        : fallback.status === 'infeasible'
          ? `${large} reported the model infeasible although this point is verified feasible`
          : `${large} failed${fallback.reason !== undefined ? ` (${fallback.reason})` : ''}`;
    return withReason(incumbent, joinReasons(incumbent.reason, passedOver, fallbackNote), timeMs);
  }

  /** Whether the model is tried on the small-model backend first: few variables, fewer still with a cut. */
  #small(model: MilpModel): boolean {
    if (model.numVars > this.smallVars) return false;
    if (model.numVars <= this.cutSmallVars) return true;
    return !model.rows.some((row) => row.vars.length >= this.longRow);
  }

  async #solveLarge(model: MilpModel, limit: number, start: number): Promise<Solution> {
    return this.#named(await this.#guarded(this.large, model, limit), this.large.name, start);
  }

  /** One backend through the guard: throws, hangs and wrong points come back as error or time-out answers. */
  #guarded(backend: SolverBackend, model: MilpModel, limit: number): Promise<Solution> {
    return solveGuarded(backend, model, { timeLimit: limit, graceMs: this.#graceSeconds * 1000 });
  }

  /** The answer under the portfolio's name for the backend behind it (`portfolio:highs`). */
  #named(solution: Solution, backendName: string, start: number): Solution {
    return { ...solution, solver: `${this.name}:${backendName}`, timeMs: elapsedMs(start) };
  }
}
