/**
 * A solver study: the same MILP models through several backends, each solve repeated, every answer checked
 * against HiGHS's objective. Models come from any records (compiled as a repair would) and from the
 * synthetic family (`solver-family.ts`). Backends are used bare (lp-solver without its size cap, the
 * portfolio with its defaults), one instance each, warmed up first, and take turns on each model. A backend
 * that fails or runs out of time on two models is not given larger models: they would only add minutes of
 * time-outs.
 */
import { compileFor } from '../../src/repair/repair.ts';
import {
  HighsBackend,
  LpSolverBackend,
  objectivesAgree,
  PortfolioBackend,
  solveGuarded,
  type MilpModel,
  type Solution,
  type SolverBackend,
} from '../../src/solvers/index.ts';
import type { SolverName } from '../../src/model/constants.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import type { LabelledRecord } from '../tuning/dataset.ts';

export interface StudyModel {
  readonly id: string;
  /** Where it came from: a records file name, or `synthetic`. */
  readonly source: string;
  readonly model: MilpModel;
}

export interface SolverTimes {
  /** Wall-clock ms of each repeat (the solve call alone). */
  readonly times: readonly number[];
  readonly status: Solution['status'];
  readonly objective?: number;
  readonly reason?: string;
}

export interface StudyCase {
  readonly id: string;
  readonly source: string;
  readonly vars: number;
  readonly rows: number;
  /** Per backend; absent when the backend was not given the model (skipped after time-outs). */
  readonly results: Readonly<Partial<Record<SolverName, SolverTimes>>>;
}

export interface StudyOptions {
  readonly solvers: readonly SolverName[];
  /** Solves per model and backend (the median is reported). */
  readonly repeat: number;
  /** Seconds per solve. */
  readonly timeLimit: number;
  readonly log?: (line: string) => void;
}

/** Backends as the study runs them: lp-solver without the product's size cap. */
export function studyBackend(name: SolverName): SolverBackend {
  switch (name) {
    case 'highs':
      return new HighsBackend();
    case 'lp-solver':
      return new LpSolverBackend({ maxVars: Number.POSITIVE_INFINITY });
    case 'portfolio':
      return new PortfolioBackend();
  }
}

/** The models of records (with their catalogs), compiled under `options`; empty models are left out. */
export function recordModels(
  records: readonly LabelledRecord[],
  source: (r: LabelledRecord) => string,
  options: RepairOptions = {},
): StudyModel[] {
  return records.flatMap((r) => {
    const { model } = compileFor(r.sequence, r.catalog, options);
    return model.numVars === 0 ? [] : [{ id: r.id, source: source(r), model }];
  });
}

/** Time-outs (or failures) after which a backend is given no larger model. */
const GIVE_UP_AFTER = 2;
const WARM_UP = 20;

export async function runStudy(models: readonly StudyModel[], options: StudyOptions): Promise<StudyCase[]> {
  const log = options.log ?? (() => {});
  // Smallest first: a backend that gives up on a size skips everything larger.
  const order = models.map((m, i) => i).sort((a, b) => models[a].model.numVars - models[b].model.numVars);
  const results = models.map(() => ({}) as Partial<Record<SolverName, SolverTimes>>);
  const backends = options.solvers.map((name) => ({
    name,
    backend: studyBackend(name),
    failures: 0,
    limit: Infinity,
  }));
  const small = order.slice(0, Math.min(order.length, 50));
  for (const { backend } of backends)
    for (let i = 0; i < WARM_UP && small.length > 0; i++)
      await solveGuarded(backend, models[small[i % small.length]].model);
  // Backends take turns on each model, so a change in the machine's load hits them alike.
  for (const [done, i] of order.entries()) {
    const { model } = models[i];
    for (const b of backends) {
      if (model.numVars > b.limit) continue;
      const times: number[] = [];
      let solution: Solution | undefined;
      for (let k = 0; k < options.repeat; k++) {
        const start = performance.now();
        // Through the guard, as repair solves: the answer is checked against the model.
        solution = await solveGuarded(b.backend, model, { timeLimit: options.timeLimit });
        times.push(performance.now() - start);
        if (solution.status !== 'optimal') break;
      }
      results[i][b.name] = {
        times,
        status: solution!.status,
        ...(solution!.objective !== undefined ? { objective: solution!.objective } : {}),
        ...(solution!.reason ? { reason: solution!.reason } : {}),
      };
      if (solution!.status !== 'optimal' && ++b.failures >= GIVE_UP_AFTER && b.limit === Infinity) {
        b.limit = model.numVars;
        log(`solvers ${b.name}: no models above ${model.numVars} variables after ${b.failures} failures`);
      }
    }
    if ((done + 1) % 100 === 0 || done + 1 === order.length)
      log(`solvers: ${done + 1}/${order.length} models (up to ${model.numVars} variables)`);
  }
  for (const { backend } of backends) backend.dispose?.();
  return models.map((m, i) => ({
    id: m.id,
    source: m.source,
    vars: m.model.numVars,
    rows: m.model.rows.length,
    results: results[i],
  }));
}

export interface Disagreement {
  readonly id: string;
  readonly vars: number;
  readonly solver: SolverName;
  readonly objective: number | undefined;
  readonly reference: number | undefined;
}

/** Optimal answers whose objective differs from HiGHS's optimal one beyond 1e-4 relative. */
export function disagreements(cases: readonly StudyCase[]): Disagreement[] {
  const out: Disagreement[] = [];
  const asSolution = (r: SolverTimes) => ({ objective: r.objective }) as Solution;
  for (const c of cases) {
    const ref = c.results.highs;
    if (!ref || ref.status !== 'optimal') continue;
    for (const [solver, r] of Object.entries(c.results) as [SolverName, SolverTimes][]) {
      if (solver === 'highs' || r.status !== 'optimal') continue;
      if (!objectivesAgree(asSolution(ref), asSolution(r)))
        out.push({ id: c.id, vars: c.vars, solver, objective: r.objective, reference: ref.objective });
    }
  }
  return out;
}
