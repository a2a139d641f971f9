/**
 * The benchmark suite: runs the selected benchmarks and writes their pages (and plots) into the results
 * folder, then rewrites the index. Shared by `npm run bench` and `refract bench`.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { disposeSolvers } from '../../src/solvers/index.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { figureFiles } from '../../src/batch/plot.ts';
import { loadContext, type BenchContext, type StudySettings } from './context.ts';
import { ROOT } from './data.ts';
import { latencyPage, measureConfidenceCost, measureLatency } from './latency.ts';
import { measureModes, modesPage } from './modes.ts';
import { measureRestoration, restorationPage } from './restoration.ts';
import { scaleCatalog, scaleLength, scaleMappings } from './scaling.ts';
import { scalingPage, scalingPlots, type ScalingResults } from './scaling-report.ts';
import { solversPage, solversPlot } from './solvers.ts';
import { solversJson, studySolvers } from './solver-run.ts';
import { measureThroughput } from './throughput.ts';
import { throughputPage } from './throughput-report.ts';

export const BENCHMARKS = ['restoration', 'latency', 'solvers', 'scaling', 'modes', 'throughput'] as const;
export type BenchmarkName = (typeof BENCHMARKS)[number];

export const DEFAULT_OUT = join(ROOT, 'benchmarks', 'results');

export interface BenchOptions {
  readonly quick?: boolean;
  /** The earlier commit the throughput benchmark runs side by side with this build (default e692d8e). */
  readonly baseline?: string;
  readonly only?: readonly BenchmarkName[];
  readonly out?: string;
  readonly log?: (line: string) => void;
  /** The command printed on the pages (default: the `npm run bench` line for these options). */
  readonly command?: string;
  /** Backends to compare (default: every one). */
  readonly solvers?: readonly SolverName[];
  /** The solver study's settings (repeats, time limit, synthetic family, records). */
  readonly study?: Partial<StudySettings>;
}

/** Parses `--only latency,solvers`. */
export function parseOnly(value: string): BenchmarkName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(BENCHMARKS as readonly string[]).includes(name)) {
      throw new InputError(
        '--only',
        `unknown benchmark ${JSON.stringify(name)} (known: ${BENCHMARKS.join(', ')})`,
      );
    }
  }
  if (names.length === 0)
    throw new InputError('--only', `expected a comma-separated list of ${BENCHMARKS.join(', ')}`);
  return names as BenchmarkName[];
}

type Pages = Record<string, string>;

async function run(name: BenchmarkName, ctx: BenchContext, options: BenchOptions): Promise<Pages> {
  switch (name) {
    case 'restoration':
      return { 'restoration.md': restorationPage(ctx, await measureRestoration(ctx)) };
    case 'latency':
      return {
        'latency.md': latencyPage(ctx, await measureLatency(ctx), await measureConfidenceCost(ctx)),
      };
    case 'solvers': {
      const study = await studySolvers(ctx);
      return {
        'solvers.md': solversPage(ctx, study),
        'solvers.json': solversJson(ctx, study),
        ...(await figureFiles('solvers', solversPlot(study))),
      };
    }
    case 'scaling': {
      const results: ScalingResults = {
        length: await scaleLength(ctx),
        catalog: await scaleCatalog(ctx),
        mappings: await scaleMappings(ctx),
      };
      const plots = await Promise.all(
        Object.entries(scalingPlots(results)).map(([stem, spec]) => figureFiles(stem, spec)),
      );
      return Object.assign({ 'scaling.md': scalingPage(ctx, results) }, ...plots) as Pages;
    }
    case 'modes':
      return { 'modes.md': modesPage(ctx, await measureModes(ctx)) };
    case 'throughput':
      return { 'throughput.md': throughputPage(ctx, await measureThroughput(ctx, options.baseline)) };
  }
}

const INDEX: readonly [string, string][] = [
  [
    'restoration.md',
    'both corruption recipes per mistake kind and set: restored (mod asks), role collapse, asks, agreement; baseline vs now',
  ],
  ['latency.md', 'gold (fast path) and corrupted (repair) latency per set and solver; model sizes'],
  [
    'solvers.md',
    'HiGHS vs lp-solver vs portfolio on the same models up to 10⁴ variables; the crossover size; objective agreement (plot: solvers.svg, data: solvers.json)',
  ],
  ['scaling.md', 'time against sequence length, catalog size and mapping-table size (three plots)'],
  ['modes.md', 'time per repair for each mode / preset'],
  [
    'throughput.md',
    '`refract batch` records per second, 2 workers against 1, memory and start-up; this build against an earlier one',
  ],
];

function indexPage(out: string): string {
  const rows = INDEX.map(
    ([file, what]) => `- [${file}](${file}) — ${what}${existsSync(join(out, file)) ? '' : ' (not run yet)'}`,
  );
  // Pages other tools write into the same folder are listed too.
  const known = new Set(['README.md', ...INDEX.map(([file]) => file)]);
  const others = readdirSync(out)
    .filter((f) => f.endsWith('.md') && !known.has(f))
    .sort();
  if (others.length > 0)
    rows.push('', 'Other pages in this folder:', '', ...others.map((f) => `- [${f}](${f})`));
  // No machine or command of its own: a run of a few benchmarks rewrites it, and each page says when it
  // was measured, on which machine and with which command.
  return [
    '# Benchmark results',
    '',
    'Each page says when, on which machine and with which command it was measured.',
    '',
    'Pages regenerated by `npm run bench` or `refract bench` (all benchmarks, several minutes); `--quick` runs',
    'a small subset, `--only latency,solvers` selected benchmarks. Data: `benchmarks/data/` (regenerate with',
    '`npx tsx benchmarks/generate.ts`). What each page measures: `docs/benchmarks.md`; solver studies on',
    'other data: `docs/research.md`.',
    '',
    ...rows,
    '',
  ].join('\n');
}

/** Runs the benchmarks and writes the pages; returns the files written. */
export async function runBench(options: BenchOptions = {}): Promise<string[]> {
  const out = options.out ?? DEFAULT_OUT;
  const log = options.log ?? (() => {});
  const only = options.only ?? BENCHMARKS;
  const flags = [
    options.quick ? '--quick' : '',
    options.only ? `--only ${only.join(',')}` : '',
    options.baseline ? `--baseline ${options.baseline}` : '',
  ].filter(Boolean);
  const command = options.command ?? ['npm run bench', ...(flags.length ? ['--', ...flags] : [])].join(' ');
  const ctx = loadContext({
    quick: options.quick ?? false,
    command,
    log,
    solvers: options.solvers,
    study: options.study,
  });
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  try {
    for (const name of BENCHMARKS.filter((b) => only.includes(b))) {
      const start = performance.now();
      const pages = await run(name, ctx, options);
      for (const [file, text] of Object.entries(pages)) {
        writeFileSync(join(out, file), text);
        written.push(join(out, file));
      }
      log(`${name}: done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    }
  } finally {
    disposeSolvers();
  }
  writeFileSync(join(out, 'README.md'), indexPage(out));
  written.push(join(out, 'README.md'));
  return written;
}
