/**
 * The restoration benchmark from the terminal: both corruption recipes, every measure of `src/score`,
 * backend agreement and time, per mistake kind; optionally against another build in the same run.
 *
 *   npm run bench:restoration -- --quick                 a spread of 8 records per set and kind (< 1 min)
 *   npm run bench:restoration -- --quick --against main  the same, with main's model side by side
 *   npm run bench:restoration -- --recipe second --sets synthetic-camel --by-set
 *   npm run bench:restoration -- --json                  the summary as JSON on stdout
 *   npm run bench:restoration -- --model e692d8e --write benchmarks/results/restoration-baseline.json
 *
 * --backends highs,lp-solver,portfolio (the default) repairs each record with each; the first is judged,
 * the others are compared with it.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { InputError } from '../src/model/errors.ts';
import { repair } from '../src/repair/repair.ts';
import { disposeSolvers, isSolverName, SOLVER_NAMES, type SolverName } from '../src/solvers/index.ts';
import { loadBuild, type Build } from '../research/bench/build-ref.ts';
import {
  loadCorpus,
  measureBuilds,
  RECIPES,
  RECIPE_SETS,
  type MeasuredBuild,
} from '../research/bench/restoration-run.ts';
import {
  summariseRestoration,
  type RestorationSummary,
  type ScoredRow,
} from '../research/bench/restoration-summary.ts';
import { comparisonTable, compactTable } from '../research/bench/restoration-tables.ts';
import type { Recipe } from '../research/bench/scored.ts';

function list(flag: string, value: string | undefined, known: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((n) => !known.includes(n));
  if (bad !== undefined || names.length === 0) {
    throw new InputError(flag, `unknown ${JSON.stringify(bad ?? value)} (known: ${known.join(', ')})`);
  }
  return names;
}

function report(summary: RestorationSummary, base: RestorationSummary | null, bySet: boolean): string {
  const out: string[] = [];
  for (const recipe of RECIPES) {
    const now = summary.recipes[recipe];
    if (!now) continue;
    const n = now.all.at(-1)!.n;
    out.push(
      `${recipe} recipe: ${Object.keys(now.sets).length} sets, ${n} records${summary.quick ? ' (quick)' : ''}`,
      '',
    );
    const before = base?.recipes[recipe];
    out.push(before ? comparisonTable(before.all, now.all) : compactTable(now.all), '');
    if (bySet) {
      const overall = (rows: Readonly<Record<string, readonly ScoredRow[]>>) =>
        Object.entries(rows).map(([set, r]) => ({ ...r.at(-1)!, kind: set }));
      out.push(
        before
          ? comparisonTable(overall(before.sets), overall(now.sets), 'set')
          : compactTable(overall(now.sets), 'set'),
        '',
      );
    }
  }
  return out.join('\n');
}

try {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      json: { type: 'boolean' },
      'by-set': { type: 'boolean' },
      recipe: { type: 'string' },
      sets: { type: 'string' },
      backends: { type: 'string' },
      against: { type: 'string' },
      model: { type: 'string' },
      write: { type: 'string' },
    },
  });
  const recipes = list('--recipe', values.recipe, RECIPES) as Recipe[] | undefined;
  const sets = list('--sets', values.sets, [...new Set(Object.values(RECIPE_SETS).flat())]);
  const backends = (list('--backends', values.backends, SOLVER_NAMES) ?? [...SOLVER_NAMES]).filter(
    isSolverName,
  ) as SolverName[];
  const corpus = loadCorpus({ quick: values.quick, recipes, sets });
  const loaded: Build[] = [];
  const measured: MeasuredBuild = values.model
    ? await loadBuild(values.model).then((b) => (loaded.push(b), { label: 'now', repair: b.repair }))
    : { label: 'now', repair };
  const builds: MeasuredBuild[] = [measured];
  if (values.against) {
    const b = await loadBuild(values.against);
    loaded.push(b);
    builds.push({ label: 'before', repair: b.repair });
  }
  const start = performance.now();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const outcomes = await measureBuilds(corpus, builds, { backends, log });
  const meta = (build: string, commit?: string) => ({
    build,
    ...(commit ? { commit } : {}),
    quick: values.quick ?? false,
    backends,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  });
  const modelBuild = values.model ? loaded[0] : undefined;
  const summary = summariseRestoration(
    outcomes.get('now')!,
    meta(modelBuild?.ref ?? 'working tree', modelBuild?.commit),
  );
  const againstBuild = values.against ? loaded.at(-1) : undefined;
  const base = againstBuild
    ? summariseRestoration(outcomes.get('before')!, meta(againstBuild.ref, againstBuild.commit))
    : null;
  if (values.write) writeFileSync(values.write, `${JSON.stringify(summary, null, 2)}\n`);
  if (values.json)
    process.stdout.write(`${JSON.stringify(base ? { now: summary, before: base } : summary, null, 2)}\n`);
  else process.stdout.write(report(summary, base, values['by-set'] ?? false));
  log(`measured in ${((performance.now() - start) / 1000).toFixed(0)} s`);
  for (const b of loaded) b.dispose();
  disposeSolvers();
} catch (error) {
  if (error instanceof InputError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`bench:restoration: ${(error as Error).message}\n`);
    process.exitCode = 2;
  } else throw error;
}
