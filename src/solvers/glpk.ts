/**
 * GLPK (WebAssembly, package `glpk.js`, entry `glpk.js/node`) backend. The package is optional and is
 * loaded by a dynamic import on first use: when it is not installed, every solve returns status 'error'.
 * After any thrown error (GLPK aborts on internal assertion failures) the instance is discarded and a
 * fresh one is created for the next solve.
 */
import type { MilpModel, Solution, SolveOptions, SolverBackend } from './model.ts';
import {
  elapsedMs,
  errorMessage,
  errorSolution,
  obviousInfeasibility,
  resolveTimeLimit,
  solveEmptyModel,
  toCsr,
} from './common.ts';
import { acceptPoint, continuousSet, rowName, validateModel, varName } from './verify.ts';

/** The part of the glpk.js interface used here (declared locally: the package is optional). */
interface GlpkTerm {
  name: string;
  coef: number;
}
interface GlpkProblem {
  name: string;
  objective: { direction: number; name: string; vars: GlpkTerm[] };
  subjectTo: { name: string; vars: GlpkTerm[]; bnds: { type: number; lb: number; ub: number } }[];
  bounds?: { name: string; type: number; lb: number; ub: number }[];
  binaries?: string[];
}
interface GlpkOptions {
  msglev?: number;
  tmlim?: number;
  presol?: boolean;
  mipgap?: number;
}
interface GlpkResult {
  time: number;
  result: { status: number; z: number; vars: Record<string, number> };
}
interface Glpk {
  readonly GLP_MIN: number;
  readonly GLP_FR: number;
  readonly GLP_LO: number;
  readonly GLP_UP: number;
  readonly GLP_DB: number;
  readonly GLP_FX: number;
  readonly GLP_MSG_OFF: number;
  readonly GLP_UNDEF: number;
  readonly GLP_FEAS: number;
  readonly GLP_INFEAS: number;
  readonly GLP_NOFEAS: number;
  readonly GLP_OPT: number;
  readonly GLP_UNBND: number;
  solve(problem: GlpkProblem, options?: GlpkOptions): GlpkResult;
}

const PACKAGE_ENTRY = 'glpk.js/node';

async function loadGlpk(): Promise<Glpk> {
  // A non-literal specifier keeps the optional package out of static resolution.
  const specifier: string = PACKAGE_ENTRY;
  const imported = (await import(specifier)) as { default: () => Promise<Glpk> };
  return imported.default();
}

export class GlpkBackend implements SolverBackend {
  readonly name = 'glpk';
  #instance: Promise<Glpk> | undefined;
  #loads = 0;

  /** How many GLPK instances this backend has created (1 + reloads after failures). */
  get loads(): number {
    return this.#loads;
  }

  /** Whether the optional package can be loaded. */
  async available(): Promise<boolean> {
    try {
      await this.#get();
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.#instance = undefined;
  }

  #get(): Promise<Glpk> {
    if (!this.#instance) {
      this.#loads++;
      const loading = loadGlpk();
      this.#instance = loading;
      loading.catch(() => {
        if (this.#instance === loading) this.#instance = undefined;
      });
    }
    return this.#instance;
  }

  async solve(model: MilpModel, options?: SolveOptions): Promise<Solution> {
    const start = performance.now();
    const solver = this.name;
    const invalid = validateModel(model);
    if (invalid) return errorSolution(solver, start, `invalid model: ${invalid}`);
    const limit = resolveTimeLimit(options);
    if (typeof limit === 'string') return errorSolution(solver, start, limit);
    if (model.numVars === 0) return solveEmptyModel(model, solver, start);
    const obvious = obviousInfeasibility(model);
    if (obvious)
      return { status: 'infeasible', optimal: false, reason: obvious, solver, timeMs: elapsedMs(start) };

    const loading = this.#get();
    let glpk: Glpk;
    try {
      glpk = await loading;
    } catch (error) {
      return errorSolution(solver, start, `could not load ${PACKAGE_ENTRY}: ${errorMessage(error)}`);
    }

    let result: GlpkResult;
    try {
      result = glpk.solve(toGlpkProblem(glpk, model), {
        msglev: glpk.GLP_MSG_OFF,
        presol: true,
        mipgap: 0,
        // GLPK keeps the limit as int milliseconds: larger limits are left out (no limit).
        ...(limit < 2e6 ? { tmlim: limit } : {}),
      });
    } catch (error) {
      if (this.#instance === loading) this.#instance = undefined;
      return errorSolution(solver, start, `GLPK failed: ${errorMessage(error)}`);
    }

    const timeMs = elapsedMs(start);
    const timedOut = timeMs >= limit * 1000;
    const status = result.result.status;
    const values = (): number[] => {
      const vars = result.result.vars;
      return Array.from({ length: model.numVars }, (_, j) => vars[varName(j)] ?? 0);
    };
    switch (status) {
      case glpk.GLP_OPT:
        return acceptPoint(model, values(), { solver, status: 'optimal', optimal: true, timeMs });
      case glpk.GLP_FEAS:
        // With a zero gap tolerance a feasible-but-not-optimal answer means a limit stopped the search.
        return acceptPoint(model, values(), { solver, status: 'timeout', optimal: false, timeMs });
      case glpk.GLP_NOFEAS:
        return { status: 'infeasible', optimal: false, solver, timeMs };
      case glpk.GLP_UNDEF:
        if (timedOut) {
          return {
            status: 'timeout',
            optimal: false,
            reason: 'time limit reached without a solution',
            solver,
            timeMs,
          };
        }
        return errorSolution(solver, start, 'GLPK returned an undefined solution');
      default:
        return errorSolution(solver, start, `GLPK ended with status ${status}`);
    }
  }
}

function toGlpkProblem(glpk: Glpk, model: MilpModel): GlpkProblem {
  const csr = toCsr(model);
  const continuous = continuousSet(model);
  const subjectTo: GlpkProblem['subjectTo'] = [];
  for (let i = 0; i < model.rows.length; i++) {
    const { lower, upper } = model.rows[i];
    const vars: GlpkTerm[] = [];
    for (let k = csr.starts[i]; k < csr.starts[i + 1]; k++)
      vars.push({ name: varName(csr.indices[k]), coef: csr.values[k] });
    if (vars.length === 0) continue;
    const hasLower = lower > -Infinity;
    const hasUpper = upper < Infinity;
    const type =
      hasLower && hasUpper
        ? lower === upper
          ? glpk.GLP_FX
          : glpk.GLP_DB
        : hasLower
          ? glpk.GLP_LO
          : hasUpper
            ? glpk.GLP_UP
            : glpk.GLP_FR;
    subjectTo.push({
      name: rowName(i),
      vars,
      bnds: { type, lb: hasLower ? lower : 0, ub: hasUpper ? upper : 0 },
    });
  }
  // Every variable appears in the objective (possibly with 0) so that GLPK creates its column.
  const objectiveVars = Array.from({ length: model.numVars }, (_, j) => ({
    name: varName(j),
    coef: model.cost[j],
  }));
  const bounds = Array.from({ length: model.numVars }, (_, j) => ({
    name: varName(j),
    type: glpk.GLP_DB,
    lb: 0,
    ub: 1,
  }));
  const binaries: string[] = [];
  for (let j = 0; j < model.numVars; j++) if (!continuous.has(j)) binaries.push(varName(j));
  return {
    name: 'refract',
    objective: { direction: glpk.GLP_MIN, name: 'obj', vars: objectiveVars },
    subjectTo,
    bounds,
    binaries,
  };
}
