/**
 * Running the solver study the benchmark context asks for: the models of its records (`--data`) or of the
 * shipped corrupted records, plus the synthetic family; and the study's raw data as JSON.
 */
import { basename } from 'node:path';
import { compileFor } from '../../src/repair/repair.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { catalogOf, type BenchContext } from './context.ts';
import { syntheticFamily } from './solver-family.ts';
import { recordModels, runStudy, type StudyCase, type StudyModel } from './solver-study.ts';

export interface SolverStudy {
  readonly cases: readonly StudyCase[];
  readonly solvers: readonly SolverName[];
  readonly repeat: number;
  readonly timeLimit: number;
  /** What the models were made from, for the page (`benchmarks/data/corrupted-*.jsonl`, a file…). */
  readonly sources: readonly string[];
  readonly familyMaxVars: number;
}

/** Runs the study the context asks for: its records' models (or the shipped ones) and the family. */
export async function studySolvers(ctx: BenchContext): Promise<SolverStudy> {
  const { study } = ctx;
  let models: StudyModel[];
  let sources: string[];
  if (study.data) {
    models = recordModels(study.data.records, (r) => r.set);
    sources = study.data.files.map((f) => `\`${basename(f)}\``);
  } else {
    models = ctx.sets.flatMap((set) =>
      ctx.corrupted[set.name].map((r) => ({
        id: r.id,
        source: `corrupted ${set.name}`,
        model: compileFor(r.sequence, catalogOf(ctx, set.name)).model,
      })),
    );
    sources = ['the corrupted NESTFUL records (`benchmarks/data/corrupted-*.jsonl`)'];
  }
  if (study.familyMaxVars > 0) {
    const executable = ctx.sets.find((s) => s.name === 'executable')!;
    models.push(
      ...syntheticFamily(executable, { maxVars: study.familyMaxVars, instances: ctx.quick ? 2 : 3 }),
    );
  }
  ctx.log(`solvers: ${models.length} models`);
  const cases = await runStudy(models, {
    solvers: ctx.solvers,
    repeat: study.repeat,
    timeLimit: study.timeLimit,
    log: ctx.log,
  });
  return {
    cases,
    solvers: ctx.solvers,
    repeat: study.repeat,
    timeLimit: study.timeLimit,
    sources,
    familyMaxVars: study.familyMaxVars,
  };
}

/** Every model's times per backend, one model per line (the data behind the page, for re-plotting). */
export function solversJson(ctx: BenchContext, study: SolverStudy): string {
  const round = (x: number) => Number(x.toPrecision(3));
  const head = {
    command: ctx.command,
    machine: ctx.machine,
    solvers: study.solvers,
    repeat: study.repeat,
    timeLimit: study.timeLimit,
  };
  const cases = study.cases.map((c) =>
    JSON.stringify({
      ...c,
      results: Object.fromEntries(
        Object.entries(c.results).map(([s, r]) => [s, { ...r, times: r.times.map(round) }]),
      ),
    }),
  );
  return `${JSON.stringify(head).slice(0, -1)},"cases":[\n${cases.join(',\n')}\n]}\n`;
}
