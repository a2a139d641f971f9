/**
 * `npm run bench:restoration` (benchmarks/restoration.ts): flags, the builds to measure, and the report
 * (compact tables, or JSON). In its own module so that it runs in-process under test.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { InputError } from '../../src/model/errors.ts';
import { repair } from '../../src/repair/repair.ts';
import { loadCostModel } from '../../src/read/cost-models.ts';
import { isSolverName, SOLVER_NAMES, type SolverName } from '../../src/model/constants.ts';
import { loadBuild, type Build } from './build-ref.ts';
import { loadCorpus, measureBuilds, RECIPES, RECIPE_SETS, type MeasuredBuild } from './restoration-run.ts';
import { summariseRestoration, type RestorationSummary, type ScoredRow } from './restoration-summary.ts';
import { comparisonTable, compactTable } from './restoration-tables.ts';
import type { Recipe } from './scored.ts';
import { largeCli } from './large.ts';

const OPTIONS = {
  quick: { type: 'boolean' },
  json: { type: 'boolean' },
  'by-set': { type: 'boolean' },
  recipe: { type: 'string' },
  sets: { type: 'string' },
  backends: { type: 'string' },
  against: { type: 'string' },
  model: { type: 'string' },
  write: { type: 'string' },
  // The large-catalog worlds instead of the shipped sets (`research/bench/large.ts`).
  large: { type: 'string' },
  every: { type: 'string' },
  'cost-model': { type: 'string' },
  page: { type: 'boolean' },
} as const;

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

/** The compact per-kind tables (and per-set rows), "before → now" when a baseline was measured. */
export function restorationReport(
  summary: RestorationSummary,
  base: RestorationSummary | null,
  bySet: boolean,
): string {
  const out: string[] = [];
  for (const recipe of RECIPES) {
    const now = summary.recipes[recipe];
    if (!now) continue;
    const n = now.all.at(-1)!.n;
    const sets = Object.keys(now.sets).length;
    out.push(`${recipe} recipe: ${sets} sets, ${n} records${summary.quick ? ' (quick)' : ''}`, '');
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

export interface CliIo {
  readonly out: (text: string) => void;
  readonly log: (line: string) => void;
}

/** Runs the benchmark for `args`; throws InputError for a bad flag (the script exits 2). */
export async function restorationCli(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args: [...args], options: OPTIONS });
  if (values.large !== undefined) {
    const command = `npm run bench:restoration -- ${args.join(' ')}`;
    await largeCli({ ...values, sizes: values.large, solver: values.backends?.split(',')[0] }, io, command);
    return;
  }
  const recipes = list('--recipe', values.recipe, RECIPES) as Recipe[] | undefined;
  const sets = list('--sets', values.sets, [...new Set(Object.values(RECIPE_SETS).flat())]);
  const backends = (list('--backends', values.backends, SOLVER_NAMES) ?? [...SOLVER_NAMES]).filter(
    isSolverName,
  ) as SolverName[];
  const corpus = loadCorpus({ quick: values.quick, recipes, sets });
  const model: Build | null = values.model ? await loadBuild(values.model) : null;
  const against: Build | null = values.against ? await loadBuild(values.against) : null;
  try {
    const base = model?.repair ?? repair;
    const costFile = values['cost-model'];
    const cost = costFile ? loadCostModel(costFile, 'cost-model') : undefined;
    const now: MeasuredBuild['repair'] = cost ? (s, c, o) => base(s, c, { ...o, cost }) : base;
    const builds: MeasuredBuild[] = [{ label: 'now', repair: now }];
    if (against) builds.push({ label: 'before', repair: against.repair });
    const start = performance.now();
    const outcomes = await measureBuilds(corpus, builds, { backends, log: io.log });
    const meta = (build: Build | null) => ({
      build: build?.ref ?? 'working tree',
      ...(build ? { commit: build.commit } : {}),
      quick: values.quick ?? false,
      backends,
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    const summary = summariseRestoration(outcomes.get('now')!, meta(model));
    const before = against ? summariseRestoration(outcomes.get('before')!, meta(against)) : null;
    if (values.write) writeFileSync(values.write, `${JSON.stringify(summary, null, 2)}\n`);
    if (values.json) io.out(`${JSON.stringify(before ? { now: summary, before } : summary, null, 2)}\n`);
    else io.out(restorationReport(summary, before, values['by-set'] ?? false));
    io.log(`measured in ${((performance.now() - start) / 1000).toFixed(0)} s`);
  } finally {
    model?.dispose();
    against?.dispose();
  }
}
