/**
 * The restoration page: both corruption recipes, per mistake kind and per set, judged by `src/score`,
 * with the baseline build (the model before the intent work, commit in `restoration-baseline.json`)
 * measured in the same run when git can provide it, the runtime world (memory and executed calls), and
 * examples of repairs that missed the gold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatStringForm } from '../../src/read/sequence.ts';
import { repair } from '../../src/repair/repair.ts';
import { loadBuild } from './build-ref.ts';
import type { BenchContext } from './context.ts';
import { ROOT } from './data.ts';
import { pageHeader } from './markdown.ts';
import { loadCorpus, measureBuilds, RECIPES, type CorpusSet, type MeasuredBuild } from './restoration-run.ts';
import { KIND_ORDERS, summariseRestoration, type RestorationSummary } from './restoration-summary.ts';
import { comparisonTable, fullTable, matrixTable, restoredModAsks } from './restoration-tables.ts';
import type { ScoredOutcome } from './scored.ts';
import { restorationNotes } from './restoration-notes.ts';
import { measureLarge, type LargeSummary } from './large-run.ts';
import { largeSection } from './large-report.ts';
import { DEFAULT_EVERY } from './large.ts';
import { LARGE_SIZES } from './worlds/large.ts';
import { measureRuntime, runtimeSection, type RuntimeSummary } from './runtime-report.ts';

/** The committed summary of the baseline build (written by `npm run bench:restoration -- --model REF --write`). */
export const BASELINE_PATH = join(ROOT, 'benchmarks', 'results', 'restoration-baseline.json');

export interface RestorationResults {
  readonly corpus: readonly CorpusSet[];
  readonly now: RestorationSummary;
  readonly outcomes: readonly ScoredOutcome[];
  /** The baseline measured in this run, else the committed summary (times from another run). */
  readonly before: RestorationSummary | null;
  readonly beforeSameRun: boolean;
  /** The large-catalog worlds, every `DEFAULT_EVERY`-th record (every `QUICK_EVERY`-th in quick mode). */
  readonly large?: LargeSummary;
  /** The runtime world (every record; every `QUICK_EVERY`-th in quick mode). */
  readonly runtime?: RuntimeSummary;
}

/** Every how many records of a large world the quick page measures. */
export const QUICK_EVERY = 40;

export function readBaseline(path = BASELINE_PATH): RestorationSummary | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as RestorationSummary) : null;
}

export async function measureRestoration(ctx: BenchContext): Promise<RestorationResults> {
  const corpus = loadCorpus({ quick: ctx.quick });
  const saved = readBaseline();
  const builds: MeasuredBuild[] = [{ label: 'now', repair }];
  let dispose = () => {};
  if (saved?.commit) {
    try {
      const build = await loadBuild(saved.commit);
      builds.push({ label: 'before', repair: build.repair });
      dispose = build.dispose;
    } catch (error) {
      ctx.log(`restoration: baseline ${saved.commit} not measured (${(error as Error).message})`);
    }
  }
  const measured = await measureBuilds(corpus, builds, { backends: ctx.solvers, log: ctx.log });
  dispose();
  const meta = { quick: ctx.quick, backends: ctx.solvers, date: ctx.machine.date };
  const now = summariseRestoration(measured.get('now')!, { build: 'working tree', ...meta });
  const sameRun = measured.get('before');
  const before = sameRun
    ? summariseRestoration(sameRun, { build: saved!.build, commit: saved!.commit, ...meta })
    : saved;
  const large = await measureLarge({
    sizes: LARGE_SIZES,
    every: ctx.quick ? QUICK_EVERY : DEFAULT_EVERY,
    solver: ctx.solvers[0],
    log: ctx.log,
  });
  const runtime = await measureRuntime({
    every: ctx.quick ? QUICK_EVERY : 1,
    solver: ctx.solvers[0],
    log: ctx.log,
  });
  return {
    corpus,
    now,
    outcomes: measured.get('now')!,
    before,
    beforeSameRun: sameRun !== undefined,
    large,
    runtime,
  };
}

/** One missed restoration per kind, as gold / repair diff; those that lost user data first. */
function examples(results: RestorationResults): string[] {
  const records = new Map(
    results.corpus.flatMap((s) => s.records.map((r) => [`${s.recipe}/${r.id}`, r] as const)),
  );
  const lines: string[] = [];
  for (const recipe of RECIPES) {
    for (const kind of KIND_ORDERS[recipe].filter((k) => !k.endsWith('mistakes'))) {
      const misses = results.outcomes.filter((o) => o.recipe === recipe && o.kind === kind && o.diff);
      const miss =
        misses.find((o) => o.verdict.roleCollapses > 0) ??
        misses.find((o) => o.verdict.lostLiterals > 0) ??
        misses[0];
      if (!miss) continue;
      const record = records.get(`${recipe}/${miss.id}`)!;
      lines.push(
        `### ${recipe} recipe, ${kind} (${miss.id})`,
        '',
        '```',
        '# gold',
        formatStringForm(record.gold),
        '# repair (diff against the corrupted input)',
        miss.diff!.trimEnd(),
        '```',
        '',
      );
    }
  }
  return lines;
}

export function restorationPage(ctx: BenchContext, results: RestorationResults): string {
  const { now, before } = results;
  const lines = [
    pageHeader('Restoration', ctx.machine, ctx.command),
    ...restorationNotes(now, before, results.beforeSameRun),
  ];
  for (const recipe of RECIPES) {
    const mine = now.recipes[recipe];
    if (!mine) continue;
    const base = before?.recipes[recipe];
    lines.push(`## ${recipe === 'first' ? 'First' : 'Second'} recipe`, '');
    if (base) lines.push('Baseline → now, all sets:', '', comparisonTable(base.all, mine.all), '');
    lines.push('Restored modulo asks per set (now):', '', matrixTable(mine, restoredModAsks), '');
    lines.push('All sets, every measure (now):', '', fullTable(mine.all), '');
    for (const [set, rows] of Object.entries(mine.sets)) lines.push(`### ${set}`, '', fullTable(rows), '');
  }
  if (results.runtime) lines.push(runtimeSection(results.runtime));
  lines.push('## Examples of repairs that did not restore the gold', '', ...examples(results));
  if (results.large) lines.push(largeSection(results.large, ctx.command, false), '');
  return lines.join('\n');
}
