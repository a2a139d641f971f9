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
import { searchRelaxation, SEARCH_OPTIONS, SEARCH_PRUNE_GAP } from './lp-search.ts';
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
  /**
   * Nodes the search over the linear relaxation may visit before the MIP solver takes the model (default
   * `DEFAULT_SEARCH_NODES`; 0: straight to the MIP solver). See lp-search.ts.
   */
  readonly searchNodes?: number;
}

/**
 * Default node budget of the relaxation search. On the NESTFUL corrupted records the search needs 1 node for
 * a repair model (median; 5 at the 99th percentile) and 1 for one under a confidence cut (median; 8–14 at the
 * 99th percentile per set, 19 at most).
 */
export const DEFAULT_SEARCH_NODES = 100;

/**
 * Proven optimal means optimal here: HiGHS's default relative gap (1e-4) would accept a point up to 2e-4 worse
 * on a typical repair, which is more than the tie-break terms that order equal repairs by closeness, and
 * would let `--fixes` return alternatives out of cost order. Repair models are small, so the exact gap is cheap.
 * The absolute gap is the relaxation search's (`SEARCH_PRUNE_GAP`): below the tie-breaks that set two repairs
 * apart (src/compile/ties.ts; 5e-8 is the closest pair measured), so both find the one optimum.
 */
export const EXACT_GAPS: Readonly<Record<string, OptionValue>> = {
  mip_rel_gap: 0,
  mip_abs_gap: SEARCH_PRUNE_GAP,
};

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
  /** The native model of the relaxation search and the model whose relaxation it holds. */
  search?: { readonly native: Native; held?: MilpModel };
}

type Loader = (options?: InitOptions) => Promise<Highs>;

/**
 * The loader, imported on first use: a run that never solves (valid records only) never loads it. The
 * package's declarations are CommonJS-flavoured while Node loads its ES module build, so the default export
 * is the loader at runtime but typed as a namespace; accept either shape.
 */
export async function highsLoader(options?: InitOptions): Promise<Highs> {
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
  readonly #searchNodes: number;
  #runtime: Promise<Runtime> | undefined;
  #loads = 0;
  #searched = 0;

  constructor(options: HighsBackendOptions = {}) {
    this.#fastProfile = options.fastProfile ?? true;
    this.#fastMaxVars = options.fastMaxVars ?? 2000;
    this.#fastTimeShare = Math.min(1, Math.max(0, options.fastTimeShare ?? 0.25));
    this.#fastMaxSeconds = Math.max(0, options.fastMaxSeconds ?? 1);
    this.#extraOptions = { ...EXACT_GAPS, ...options.options };
    this.#searchNodes = Math.max(0, Math.floor(options.searchNodes ?? DEFAULT_SEARCH_NODES));
  }

  /** How many runtimes this backend has loaded (1 + the number of reloads after failures). */
  get loads(): number {
    return this.#loads;
  }

  /** How many models the relaxation search answered (the others went to the MIP solver). */
  get searched(): number {
    return this.#searched;
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
      (held) => {
        for (const { model } of held.models.values()) model.dispose();
        held.models.clear();
        held.search?.native.model.dispose();
        held.search = undefined;
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
    if (this.#searchNodes > 0) {
      const found = this.#search(runtime, model, limit, start);
      if (found) return found;
      limit -= elapsedMs(start) / 1000;
      if (limit <= 0) return this.#toSolution(TIMED_OUT, start);
    }
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

  /**
   * The relaxation search (lp-search.ts), on the native model that holds the relaxation: a model that is the
   * one it holds with rows added (the same cost and rows, by reference: a cut) gets the rows alone and starts
   * from the basis left there; any other replaces it. Undefined when the search gives up.
   */
  #search(runtime: Runtime, model: MilpModel, limit: number, start: number): Solution | undefined {
    runtime.search ??= { native: this.#createNative(runtime, SEARCH_OPTIONS) };
    const search = runtime.search;
    const { native } = search;
    if (search.held && extendsModel(model, search.held))
      addRows(native.model, model, search.held.rows.length);
    else native.model.passModel(toHighsData(model, false));
    search.held = model;
    // The fast attempt's share of the limit: a fixed value, as setting an option is not free.
    const seconds = Math.min(limit * this.#fastTimeShare, this.#fastMaxSeconds);
    setTimeLimit(native, seconds);
    const deadline = performance.now() + seconds * 1000;
    const integer = new Uint8Array(model.numVars).fill(1);
    for (const j of model.continuous ?? []) integer[j] = 0;
    const outcome = searchRelaxation(native.model, model.rows, integer, this.#searchNodes, deadline);
    if (outcome.status === 'gave up') return undefined;
    this.#searched++;
    const solver = this.name;
    const timeMs = elapsedMs(start);
    if (outcome.status === 'infeasible') return { status: 'infeasible', optimal: false, solver, timeMs };
    // `+ 0`: the dual simplex leaves -0 where a bound was hit from below; a point reads 0 there.
    const values = Array.from(outcome.values, (v) => v + 0);
    return { status: 'optimal', optimal: true, values, objective: outcome.objective, solver, timeMs };
  }

  /** A native model with output off and these options. */
  #createNative(runtime: Runtime, options: Readonly<Record<string, OptionValue>>): Native {
    const model = runtime.highs.createModel();
    model.options.set({ output_flag: false, log_to_console: false, ...options, ...this.#extraOptions });
    const set = this.#extraOptions.time_limit;
    return { model, timeLimit: typeof set === 'number' ? set : NO_TIME_LIMIT };
  }

  /** The runtime's native model for an option set, created with its options on first use. */
  #native(runtime: Runtime, profile: 'fast' | 'full'): Native {
    let native = runtime.models.get(profile);
    if (!native || native.model.disposed) {
      native = this.#createNative(runtime, profile === 'fast' ? runtime.fastProfile : {});
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

/** The model as HiGHS takes it; its linear relaxation (every column continuous) with `integer` false. */
export function toHighsData(model: MilpModel, integer = true): ModelData {
  const n = model.numVars;
  const m = model.rows.length;
  const csr = toCsr(model);
  const relaxation: ModelData = {
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
  };
  if (!integer) return relaxation;
  const continuous = continuousSet(model);
  const integrality = new Int32Array(n);
  for (let j = 0; j < n; j++) integrality[j] = continuous.has(j) ? 0 : 1;
  return { ...relaxation, integrality };
}

/**
 * One run: the data replaces the native model's previous model (and with it every solution, basis and
 * solver state), so a run depends on its data and options only. Throws on any wrapper or native error.
 */
function run(native: Native, data: ModelData, seconds: number, startPoint?: Float64Array): Attempt {
  const { model } = native;
  model.passModel(data);
  setTimeLimit(native, seconds);
  if (startPoint) model.setSolution({ colValue: startPoint });
  const { modelStatus } = model.run();
  const feasible = Number(model.info.get('primal_solution_status')) === PRIMAL_FEASIBLE;
  const values = feasible ? model.getSolution().colValue : undefined;
  const objective = feasible ? model.getObjectiveValue() : Infinity;
  const dualBound = Number(model.info.get('mip_dual_bound'));
  return { modelStatus, values, objective, dualBound: Number.isNaN(dualBound) ? -Infinity : dualBound };
}

/** An attempt that ran out of time with no point. */
const TIMED_OUT: Attempt = { modelStatus: STATUS.timeLimit, objective: Infinity, dualBound: -Infinity };

/** Sets a native model's time limit, unless it holds that one already. */
function setTimeLimit(native: Native, seconds: number): void {
  const timeLimit = Number.isFinite(seconds) ? seconds : NO_TIME_LIMIT;
  if (timeLimit !== native.timeLimit) {
    native.model.options.set('time_limit', timeLimit);
    native.timeLimit = timeLimit;
  }
}

/** Whether `model` is `held` with rows added: the same variables, costs and first rows, by reference. */
function extendsModel(model: MilpModel, held: MilpModel): boolean {
  if (model.cost !== held.cost || model.continuous !== held.continuous) return false;
  if (model.numVars !== held.numVars || model.rows.length <= held.rows.length) return false;
  for (let i = 0; i < held.rows.length; i++) if (model.rows[i] !== held.rows[i]) return false;
  return true;
}

/** Appends the model's rows from `from` on to the native model. */
function addRows(native: HighsModel, model: MilpModel, from: number): void {
  const rows = model.rows.slice(from);
  const csr = toCsr({ ...model, rows });
  native.addRows({
    lower: Float64Array.from(rows, (r) => r.lower),
    upper: Float64Array.from(rows, (r) => r.upper),
    matrix: {
      format: 'csr',
      numRows: rows.length,
      numCols: model.numVars,
      starts: Int32Array.from(csr.starts),
      indices: Int32Array.from(csr.indices),
      values: Float64Array.from(csr.values),
    },
  });
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
