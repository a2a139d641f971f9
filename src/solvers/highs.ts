/**
 * HiGHS (WebAssembly) backend through the persistent array API: the neutral model is copied into CSR
 * arrays, passed to a native model, solved and read back. The runtime is loaded lazily once and reused, and
 * so are its native models (one per option set: creating one and setting its options costs about as much as
 * solving a small repair model); each solve replaces the model they hold. After any thrown error the runtime
 * is discarded, with its models, and a fresh one is loaded for the next solve.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Highs, Model as HighsModel, InitOptions, ModelData, OptionValue } from 'highs';
import { errorMessage } from '../model/errors.ts';
import type { MilpModel, Solution, SolveOptions, SolverBackend } from '../model/milp.ts';
import { elapsedMs, errorSolution, precheck, solveEmptyModel, toCsr } from './common.ts';
import { continuousSet } from './verify.ts';

/**
 * Options that cut the fixed cost of small 0/1 models (MIP heuristics dominate it). Names are checked
 * against the loaded runtime; any this build does not know are skipped.
 */
export const FAST_PROFILE: Readonly<Record<string, OptionValue>> = {
  mip_heuristic_effort: 0,
  mip_heuristic_run_rins: false,
  mip_heuristic_run_rens: false,
  mip_heuristic_run_feasibility_jump: false,
  mip_heuristic_run_root_reduced_cost: false,
  mip_allow_restart: false,
};

export interface HighsBackendOptions {
  /** Use the fast profile first on models up to `fastMaxVars` variables (default true). */
  readonly fastProfile?: boolean;
  /** Largest model (in variables) that starts with the fast profile (default 2000). */
  readonly fastMaxVars?: number;
  /**
   * Share of the time limit the fast attempt may use (default 0.25, at most `fastMaxSeconds`). When it
   * runs out, a second attempt with default options gets the remaining time, starting from the fast
   * attempt's incumbent: on hard models the heuristics the fast profile switches off pay for themselves.
   */
  readonly fastTimeShare?: number;
  /** Upper bound in seconds on the fast attempt, whatever the share (default 1). */
  readonly fastMaxSeconds?: number;
  /** Extra native options applied to every run (e.g. `mip_rel_gap`). */
  readonly options?: Readonly<Record<string, OptionValue>>;
}

/**
 * Proven optimal means optimal here: HiGHS's default relative gap (1e-4) would accept a point up to 2e-4 worse
 * on a typical repair, which is more than the tie-break terms that order equal repairs by closeness, and
 * would let `--fixes` return alternatives out of cost order. Repair models are small, so the exact gap is cheap.
 */
export const EXACT_GAPS: Readonly<Record<string, OptionValue>> = { mip_rel_gap: 0, mip_abs_gap: 1e-7 };

/** HiGHS model status codes (stable C API values). */
const STATUS = {
  optimal: 7,
  infeasible: 8,
  unboundedOrInfeasible: 9,
  timeLimit: 13,
} as const;

const STATUS_NAMES: Record<number, string> = {
  0: 'not set',
  1: 'load error',
  2: 'model error',
  3: 'presolve error',
  4: 'solve error',
  5: 'postsolve error',
  6: 'empty',
  7: 'optimal',
  8: 'infeasible',
  9: 'unbounded or infeasible',
  10: 'unbounded',
  11: 'objective bound reached',
  12: 'objective target reached',
  13: 'time limit reached',
  14: 'iteration limit reached',
  15: 'unknown',
  16: 'solution limit reached',
  17: 'interrupted',
};

/** Below this many seconds left, a retry is not worth starting. */
const MIN_RETRY_SECONDS = 0.05;
/** Solution status code meaning "feasible point available". */
const PRIMAL_FEASIBLE = 2;

interface Attempt {
  readonly modelStatus: number;
  /** Incumbent, when HiGHS reports a feasible primal point. */
  readonly values?: Float64Array;
  readonly objective: number;
  /** Best proven lower bound (minimisation). */
  readonly dualBound: number;
}

interface Runtime {
  readonly highs: Highs;
  /** The fast profile restricted to option names this build knows. */
  readonly fastProfile: Readonly<Record<string, OptionValue>>;
  /** Native models kept for reuse, by option set (`fast`, `full`), with the time limit last set on each. */
  readonly models: Map<string, { model: HighsModel; timeLimit: number }>;
}

type Loader = (options?: InitOptions) => Promise<Highs>;

/**
 * The loader, imported on first use: a run that never solves (valid records only) never loads it. The
 * package's declarations are CommonJS-flavoured while Node loads its ES module build, so the default export
 * is the loader at runtime but typed as a namespace; accept either shape.
 */
async function highsLoader(options?: InitOptions): Promise<Highs> {
  const imported = (await import('highs')).default as unknown as Loader | { default: Loader };
  return (typeof imported === 'function' ? imported : imported.default)(options);
}

let compiledModule: Promise<WebAssembly.Module> | undefined;

/** Compiles highs.wasm once per process so reloading a runtime only instantiates it. */
function compileOnce(): Promise<WebAssembly.Module> {
  if (!compiledModule) {
    const compiling = (async () => {
      const path = createRequire(import.meta.url).resolve('highs/runtime');
      return WebAssembly.compile(await readFile(path));
    })();
    compiling.catch(() => {
      if (compiledModule === compiling) compiledModule = undefined;
    });
    compiledModule = compiling;
  }
  return compiledModule;
}

async function loadRuntime(): Promise<Runtime> {
  let highs: Highs;
  try {
    highs = await highsLoader({ wasmModule: await compileOnce() });
  } catch {
    highs = await highsLoader();
  }
  const probe = highs.createModel();
  try {
    const known = new Set(probe.options.names());
    const fastProfile: Record<string, OptionValue> = {};
    for (const [name, value] of Object.entries(FAST_PROFILE)) if (known.has(name)) fastProfile[name] = value;
    return { highs, fastProfile, models: new Map() };
  } finally {
    probe.dispose();
  }
}

function relativeGap(objective: number, bound: number): number {
  const diff = objective - bound;
  if (!(diff > 0)) return 0;
  const scale = Math.abs(objective);
  return scale > 0 ? diff / scale : Infinity;
}

export class HighsBackend implements SolverBackend {
  readonly name = 'highs';
  readonly #fastProfile: boolean;
  readonly #fastMaxVars: number;
  readonly #fastTimeShare: number;
  readonly #fastMaxSeconds: number;
  readonly #extraOptions: Readonly<Record<string, OptionValue>>;
  #runtime: Promise<Runtime> | undefined;
  #loads = 0;

  constructor(options: HighsBackendOptions = {}) {
    this.#fastProfile = options.fastProfile ?? true;
    this.#fastMaxVars = options.fastMaxVars ?? 2000;
    this.#fastTimeShare = Math.min(1, Math.max(0, options.fastTimeShare ?? 0.25));
    this.#fastMaxSeconds = Math.max(0, options.fastMaxSeconds ?? 1);
    this.#extraOptions = { ...EXACT_GAPS, ...options.options };
  }

  /** How many runtimes this backend has loaded (1 + the number of reloads after failures). */
  get loads(): number {
    return this.#loads;
  }

  /** Loads the runtime now (otherwise the first solve does, and its time includes the load). */
  async init(): Promise<void> {
    await this.#getRuntime();
  }

  /** Drops the runtime and frees its native models; the next solve loads a fresh one. */
  dispose(): void {
    const runtime = this.#runtime;
    this.#runtime = undefined;
    runtime?.then(
      ({ models }) => {
        for (const { model } of models.values()) model.dispose();
        models.clear();
      },
      () => {},
    );
  }

  #getRuntime(): Promise<Runtime> {
    if (!this.#runtime) {
      this.#loads++;
      const loading = loadRuntime();
      this.#runtime = loading;
      loading.catch(() => {
        if (this.#runtime === loading) this.#runtime = undefined;
      });
    }
    return this.#runtime;
  }

  async solve(model: MilpModel, options?: SolveOptions): Promise<Solution> {
    const start = performance.now();
    const limit = precheck(model, options, this.name, start);
    if (typeof limit !== 'number') return limit;
    if (model.numVars === 0) return solveEmptyModel(model, this.name, start);

    let runtime: Runtime;
    const loading = this.#getRuntime();
    try {
      runtime = await loading;
    } catch (error) {
      return errorSolution(this.name, start, `could not load HiGHS: ${errorMessage(error, true)}`);
    }

    try {
      return this.#solveWith(runtime, model, limit, start);
    } catch (error) {
      // Any thrown error (validation, native status, WebAssembly RuntimeError) may leave the runtime in
      // a bad state: never reuse it.
      if (this.#runtime === loading) this.#runtime = undefined;
      return errorSolution(this.name, start, `HiGHS failed: ${errorMessage(error, true)}`);
    }
  }

  #solveWith(runtime: Runtime, model: MilpModel, limit: number, start: number): Solution {
    const data = toHighsData(model);
    const fast = this.#fastProfile && model.numVars <= this.#fastMaxVars;
    let attempt = fast
      ? run(this.#native(runtime, 'fast'), data, Math.min(limit * this.#fastTimeShare, this.#fastMaxSeconds))
      : run(this.#native(runtime, 'full'), data, limit);

    if (fast && attempt.modelStatus === STATUS.timeLimit) {
      const remaining = limit - elapsedMs(start) / 1000;
      if (remaining >= MIN_RETRY_SECONDS) {
        const retry = run(this.#native(runtime, 'full'), data, remaining, attempt.values);
        attempt = combine(attempt, retry);
      }
    }
    return this.#toSolution(attempt, start);
  }

  /** The runtime's native model for an option set, created with its options on first use. */
  #native(runtime: Runtime, profile: 'fast' | 'full'): Native {
    let native = runtime.models.get(profile);
    if (!native || native.model.disposed) {
      const model = runtime.highs.createModel();
      model.options.set({
        output_flag: false,
        log_to_console: false,
        ...(profile === 'fast' ? runtime.fastProfile : {}),
        ...this.#extraOptions,
      });
      const set = this.#extraOptions.time_limit;
      native = { model, timeLimit: typeof set === 'number' ? set : NO_TIME_LIMIT };
      runtime.models.set(profile, native);
    }
    return native;
  }

  #toSolution(attempt: Attempt, start: number): Solution {
    const solver = this.name;
    const timeMs = elapsedMs(start);
    // The raw point: `solveGuarded` checks it on the way out of the solver layer.
    const point = attempt.values && { values: Array.from(attempt.values), objective: attempt.objective };
    switch (attempt.modelStatus) {
      case STATUS.optimal:
        if (!point) return errorSolution(solver, start, 'HiGHS reported optimal without a solution');
        return { status: 'optimal', optimal: true, ...point, solver, timeMs };
      case STATUS.timeLimit: {
        const reason = 'time limit reached without a feasible solution';
        if (!point) return { status: 'timeout', optimal: false, reason, solver, timeMs };
        const gap = relativeGap(attempt.objective, attempt.dualBound);
        return { status: 'timeout', optimal: false, ...point, gap, solver, timeMs };
      }
      case STATUS.infeasible:
        return { status: 'infeasible', optimal: false, solver, timeMs };
      case STATUS.unboundedOrInfeasible:
        // Every variable lies in [0, 1], so the model cannot be unbounded.
        return {
          status: 'infeasible',
          optimal: false,
          reason: 'HiGHS reported unbounded or infeasible; all variables are bounded',
          solver,
          timeMs,
        };
      default: {
        const name = STATUS_NAMES[attempt.modelStatus] ?? `status ${attempt.modelStatus}`;
        return errorSolution(solver, start, `HiGHS ended with model status ${name}`);
      }
    }
  }
}

/** A reused native model and the time limit it holds. */
interface Native {
  readonly model: HighsModel;
  timeLimit: number;
}

/** HiGHS rejects non-finite option values: "no limit" is the largest finite one, never reached. */
const NO_TIME_LIMIT = Number.MAX_VALUE;

function toHighsData(model: MilpModel): ModelData {
  const n = model.numVars;
  const m = model.rows.length;
  const csr = toCsr(model);
  const continuous = continuousSet(model);
  const integrality = new Int32Array(n);
  for (let j = 0; j < n; j++) integrality[j] = continuous.has(j) ? 0 : 1;
  return {
    numCols: n,
    numRows: m,
    colCost: Float64Array.from(model.cost),
    colLower: new Float64Array(n),
    colUpper: new Float64Array(n).fill(1),
    rowLower: Float64Array.from(model.rows, (r) => r.lower),
    rowUpper: Float64Array.from(model.rows, (r) => r.upper),
    matrix: {
      format: 'csr',
      numRows: m,
      numCols: n,
      starts: Int32Array.from(csr.starts),
      indices: Int32Array.from(csr.indices),
      values: Float64Array.from(csr.values),
    },
    integrality,
  };
}

/**
 * One run: the data replaces the native model's previous model (and with it every solution, basis and
 * solver state), so a run depends on its data and options only. Throws on any wrapper or native error.
 */
function run(native: Native, data: ModelData, seconds: number, startPoint?: Float64Array): Attempt {
  const { model } = native;
  model.passModel(data);
  const timeLimit = Number.isFinite(seconds) ? seconds : NO_TIME_LIMIT;
  if (timeLimit !== native.timeLimit) {
    model.options.set('time_limit', timeLimit);
    native.timeLimit = timeLimit;
  }
  if (startPoint) model.setSolution({ colValue: startPoint });
  const { modelStatus } = model.run();
  const feasible = Number(model.info.get('primal_solution_status')) === PRIMAL_FEASIBLE;
  const values = feasible ? model.getSolution().colValue : undefined;
  const objective = feasible ? model.getObjectiveValue() : Infinity;
  const dualBound = Number(model.info.get('mip_dual_bound'));
  return { modelStatus, values, objective, dualBound: Number.isNaN(dualBound) ? -Infinity : dualBound };
}

/** Merges a fast attempt and its retry: best incumbent, strongest bound, status of the retry. */
function combine(first: Attempt, retry: Attempt): Attempt {
  if (retry.modelStatus !== STATUS.timeLimit) return retry;
  const keepFirst =
    first.values !== undefined && (retry.values === undefined || first.objective < retry.objective);
  return {
    modelStatus: STATUS.timeLimit,
    values: keepFirst ? first.values : retry.values,
    objective: keepFirst ? first.objective : retry.objective,
    dualBound: Math.max(first.dualBound, retry.dualBound),
  };
}
