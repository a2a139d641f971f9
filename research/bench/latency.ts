/**
 * Latency: per NESTFUL set, the gold sequences (fast path: validation only) and the corrupted ones (full
 * repair), per solver, in-process after warm-up; plus the sizes of the models the repairs built.
 */
import { repair } from '../../src/repair/repair.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { catalogOf, REFERENCE_MS, warmUp, type BenchContext } from './context.ts';
import { ms, pageHeader, table } from './markdown.ts';
import { max, median, quantile } from './stats.ts';

export interface LatencyRow {
  readonly set: string;
  readonly solver: SolverName;
  readonly gold: number[];
  readonly corrupted: number[];
  readonly vars: number[];
  readonly rows: number[];
  /** Repairs that ended in error or time-out. */
  readonly failed: number;
}

export async function measureLatency(ctx: BenchContext): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const solver of ctx.solvers) {
    await warmUp(ctx, { solver });
    for (const set of ctx.sets) {
      const catalog = catalogOf(ctx, set.name);
      const gold: number[] = [];
      for (const g of ctx.quick ? set.gold.slice(0, 40) : set.gold) {
        const start = performance.now();
        await repair(g.steps, catalog, { solver });
        gold.push(performance.now() - start);
      }
      const row: LatencyRow = { set: set.name, solver, gold, corrupted: [], vars: [], rows: [], failed: 0 };
      let failed = 0;
      for (const record of ctx.corrupted[set.name]) {
        const start = performance.now();
        const result = await repair(record.sequence, catalog, { solver });
        row.corrupted.push(performance.now() - start);
        if (result.model) {
          row.vars.push(result.model.vars);
          row.rows.push(result.model.rows);
        }
        if (result.status === 'error' || result.status === 'timeout') failed++;
      }
      rows.push({ ...row, failed });
      ctx.log(`latency ${solver} ${set.name}: corrupted median ${ms(median(row.corrupted))} ms`);
    }
  }
  return rows;
}

/** The repair time with the confidence (its second solve) against without, paired per record, per set. */
export interface ConfidenceCost {
  readonly set: string;
  readonly solver: SolverName;
  readonly with: number[];
  readonly without: number[];
  /** Per record: time with ÷ time without. */
  readonly ratios: number[];
}

/** The solvers the confidence cost is measured with: the default first. */
const CONFIDENCE_SOLVERS: readonly SolverName[] = ['portfolio', 'highs'];

/**
 * Each corrupted record repaired twice per solver, once with the shipped calibration's second solve and once
 * with `confidence: false`, in alternating order so that neither run always comes first.
 */
export async function measureConfidenceCost(ctx: BenchContext): Promise<ConfidenceCost[]> {
  const out: ConfidenceCost[] = [];
  for (const solver of CONFIDENCE_SOLVERS) {
    await warmUp(ctx, { solver });
    for (const set of ctx.sets) {
      const catalog = catalogOf(ctx, set.name);
      const row: ConfidenceCost = { set: set.name, solver, with: [], without: [], ratios: [] };
      for (const [i, record] of ctx.corrupted[set.name].entries()) {
        const time = async (confidence: boolean) => {
          const start = performance.now();
          await repair(record.sequence, catalog, { solver, confidence });
          return performance.now() - start;
        };
        const first = i % 2 === 0;
        const a = await time(first);
        const b = await time(!first);
        const [withMs, withoutMs] = first ? [a, b] : [b, a];
        row.with.push(withMs);
        row.without.push(withoutMs);
        row.ratios.push(withMs / Math.max(1e-6, withoutMs));
      }
      out.push(row);
      ctx.log(`latency confidence ${solver} ${set.name}: median ratio ${median(row.ratios).toFixed(2)}`);
    }
  }
  return out;
}

export function confidenceCostSection(rows: readonly ConfidenceCost[]): string {
  return [
    '## Confidence: the second solve',
    '',
    'Every corrupted record repaired twice per solver, with the confidence (the shipped calibration: a second',
    'solve under a cut of the chosen data flow) and with `confidence: false` (`--no-confidence`), alternating',
    'which runs first. Target: median ratio ≤ 1.5. Each HiGHS solve has a fixed cost of its own (the WebAssembly',
    'module is called afresh), so a second one weighs more there than under the default portfolio.',
    '',
    table(
      [
        'set',
        'solver',
        'records',
        'median ms with',
        'median ms without',
        'median ratio (paired)',
        'p90 ratio',
      ],
      rows.map((r) => [
        r.set,
        r.solver,
        r.ratios.length,
        ms(median(r.with)),
        ms(median(r.without)),
        median(r.ratios).toFixed(2),
        quantile(r.ratios, 0.9).toFixed(2),
      ]),
    ),
    '',
  ].join('\n');
}

const check = (ok: boolean) => (ok ? 'met' : '**missed**');

export function latencyPage(
  ctx: BenchContext,
  rows: readonly LatencyRow[],
  confidence: readonly ConfidenceCost[] = [],
): string {
  const timing = table(
    [
      'set',
      'solver',
      'gold n',
      'gold median ms',
      'gold p99 ms',
      'corrupted n',
      'corrupted median ms',
      'corrupted p99 ms',
      'failed',
      '0.678 s / median',
    ],
    rows.map((r) => [
      r.set,
      r.solver,
      r.gold.length,
      ms(median(r.gold)),
      ms(quantile(r.gold, 0.99)),
      r.corrupted.length,
      ms(median(r.corrupted)),
      ms(quantile(r.corrupted, 0.99)),
      r.failed,
      `${Math.round(REFERENCE_MS / median(r.corrupted))}×`,
    ]),
  );
  const highs = rows.filter((r) => r.solver === 'highs');
  const targets = table(
    ['set', 'gold median ≤ 2 ms', 'corrupted median ≤ 10 ms', 'corrupted p99 ≤ 100 ms'],
    highs.map((r) => [
      r.set,
      `${check(median(r.gold) <= 2)} (${ms(median(r.gold))})`,
      `${check(median(r.corrupted) <= 10)} (${ms(median(r.corrupted))})`,
      `${check(quantile(r.corrupted, 0.99) <= 100)} (${ms(quantile(r.corrupted, 0.99))})`,
    ]),
  );
  const sizes = table(
    ['set', 'models', 'vars median', 'vars max', 'rows median', 'rows max'],
    highs.map((r) => [r.set, r.vars.length, median(r.vars), max(r.vars), median(r.rows), max(r.rows)]),
  );
  return [
    pageHeader('Latency', ctx.machine, ctx.command),
    'Each gold sequence and each corrupted record of `benchmarks/data/` goes through `repair()` once per solver,',
    'in one process, after 20 warm-up repairs with that solver. Gold sequences take the fast path (validation',
    'only, no model), so their times do not depend on the solver. The last column compares the median repair',
    `with the reference tool's documented ${REFERENCE_MS / 1000} s per NESTFUL instance.`,
    '',
    timing,
    '',
    '## Targets (HiGHS)',
    '',
    targets,
    '',
    '## Model sizes (corrupted records)',
    '',
    sizes,
    '',
    ...(confidence.length > 0 ? [confidenceCostSection(confidence)] : []),
  ].join('\n');
}
