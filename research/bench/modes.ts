/** Modes cost: time and outcome per repair on the corrupted executable set for each preset of options. */
import { loadCostModel } from '../../src/read/cost-models.ts';
import { compressOptions } from '../../src/repair/compress.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import { catalogOf, warmUp, type BenchContext } from './context.ts';
import { evaluateRecord, type Outcome } from './evaluate.ts';
import { ms, num, pageHeader, pct, table } from './markdown.ts';
import { mean, median, quantile } from './stats.ts';

export interface ModeSpec {
  readonly name: string;
  /** The CLI spelling of the mode. */
  readonly flags: string;
  readonly options: RepairOptions;
  /** Builds the options from the sequence (compress derives its goals from it). */
  readonly derive?: boolean;
}

export function modeSpecs(): ModeSpec[] {
  return [
    { name: 'default', flags: '', options: {} },
    { name: 'given-only', flags: '--given-only', options: { givenOnly: true } },
    { name: 'no-insert', flags: '--no-insert', options: { allowInsert: false } },
    {
      name: 'prefer-slot-fill',
      flags: '--cost-model prefer-slot-fill',
      options: { cost: loadCostModel('prefer-slot-fill') },
    },
    {
      name: 'allow-deletes',
      flags: '--cost-model allow-deletes',
      options: { cost: loadCostModel('allow-deletes') },
    },
    { name: 'optimal (compress)', flags: 'compress', options: {}, derive: true },
    { name: 'defensive', flags: '--defensive', options: { defensive: true } },
    { name: 'fixes = 3', flags: '--fixes 3', options: { fixes: 3 } },
  ];
}

export interface ModeResult {
  readonly spec: ModeSpec;
  readonly outcomes: Outcome[];
}

export async function measureModes(ctx: BenchContext): Promise<ModeResult[]> {
  const catalog = catalogOf(ctx, 'executable');
  const out: ModeResult[] = [];
  for (const spec of modeSpecs()) {
    await warmUp(ctx, spec.options, 10);
    const outcomes: Outcome[] = [];
    for (const record of ctx.corrupted.executable) {
      const options = spec.derive ? compressOptions(record.sequence, catalog, spec.options) : spec.options;
      outcomes.push(await evaluateRecord(record, catalog, options));
    }
    out.push({ spec, outcomes });
    ctx.log(`modes ${spec.name}: median ${ms(median(outcomes.map((o) => o.timeMs)))} ms`);
  }
  return out;
}

export function modesPage(ctx: BenchContext, results: readonly ModeResult[]): string {
  const base = median(results[0]?.outcomes.map((o) => o.timeMs) ?? []);
  const rows = results.map(({ spec, outcomes }) => {
    const t = outcomes.map((o) => o.timeMs);
    const n = outcomes.length;
    const failed = outcomes.filter((o) => o.status === 'error' || o.status === 'timeout').length;
    return [
      spec.name,
      spec.flags ? `\`${spec.flags}\`` : '',
      n,
      ms(median(t)),
      ms(quantile(t, 0.99)),
      `${num(median(t) / base)}×`,
      pct(outcomes.filter((o) => o.restored).length, n),
      pct(outcomes.filter((o) => o.executable).length, n),
      pct(outcomes.filter((o) => o.lostLiteral).length, n),
      num(mean(outcomes.map((o) => o.cost))),
      failed,
    ];
  });
  return [
    pageHeader('Modes cost', ctx.machine, ctx.command),
    'The corrupted executable records repaired under each preset of options (HiGHS). Time is the whole',
    '`repair()` call (validate, compile, solve, decode, re-validate; for `fixes = 3` the extra solves too).',
    "Costs are in each mode's own cost model, so they compare only within a row. `optimal (compress)` is",
    '`compressOptions()` (the `compress` preset in optimal mode).',
    '',
    table(
      [
        'mode',
        'flags',
        'n',
        'median ms',
        'p99 ms',
        'vs default',
        'restored',
        'executable',
        'lost a literal',
        'mean cost',
        'failed',
      ],
      rows,
    ),
    '',
  ].join('\n');
}
