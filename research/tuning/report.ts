/**
 * Sweep output: the ranked table (every rate with its 95 % bootstrap interval), the best setting against
 * the base with a paired interval of the difference, the JSON document, and the page that puts them
 * together with the per-kind and per-record breakdowns (`breakdown.ts`).
 */
import { num, ms, pct, table } from '../bench/markdown.ts';
import { bootstrapPairedDifference, flags, type Interval } from './bootstrap.ts';
import { flipsSection, interval, kindsSection } from './breakdown.ts';
import type { SettingResult } from './evaluate.ts';
import { formatSetting } from './settings.ts';
import type { SweepResult } from './sweep.ts';

const HEADERS = [
  'rank',
  'setting',
  'n',
  'restored mod unknowns',
  'restored 95% interval',
  'executable',
  'executable 95% interval',
  'failed',
  'mean cost',
  'mean edits',
  'median ms',
];

function row(rank: string, r: SettingResult, label = formatSetting(r.setting)): (string | number)[] {
  return [
    rank,
    label,
    r.n,
    pct(r.restored, r.n),
    interval(r.restorationCi),
    pct(r.executable, r.n),
    interval(r.executableCi),
    r.failed,
    num(r.meanCost),
    num(r.meanEdits),
    ms(r.medianMs),
  ];
}

/** The ranked settings, with the base model as the first line for comparison. */
export function sweepTable(result: SweepResult, baseName = 'base'): string {
  return table(HEADERS, [
    row('–', result.baseline, `${baseName} (no overrides)`),
    ...result.rows.map((r, i) => row(String(i + 1), r)),
  ]);
}

/** The paired interval of (setting − base) restoration, in percentage points. */
export function restorationDifference(setting: SettingResult, base: SettingResult): Interval {
  const a = flags(setting.records.map((r) => r.restored));
  const b = flags(base.records.map((r) => r.restored));
  return bootstrapPairedDifference(a, b);
}

const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;

/** One paragraph comparing the best setting with the base, with the interval of the difference. */
export function bestVersusBase(result: SweepResult): string {
  const best = result.rows[0];
  if (!best) return 'No settings were run.';
  const b = result.baseline;
  const diff = best.restored - b.restored;
  const verdict =
    diff > 0
      ? `restores ${diff} more record${diff === 1 ? '' : 's'} than the base`
      : diff === 0
        ? 'restores as many records as the base'
        : `restores ${-diff} fewer records than the base`;
  const ci = restorationDifference(best, b);
  const clear = ci.lo > 0 ? 'the interval excludes 0' : 'the interval includes 0: not a clear gain';
  return (
    `Best setting \`${formatSetting(best.setting)}\`: ${pct(best.restored, best.n)} restored ` +
    `(${best.restored}/${best.n}), ${pct(best.executable, best.n)} executable; the base: ` +
    `${pct(b.restored, b.n)} (${b.restored}/${b.n}), ${pct(b.executable, b.n)} executable. It ${verdict}; ` +
    `difference ${points((best.restored - b.restored) / Math.max(1, b.n))} points, paired 95% bootstrap ` +
    `interval ${points(ci.lo)} to ${points(ci.hi)} (${clear}).`
  );
}

export interface SweepJsonMeta {
  readonly command?: string;
  readonly base: string;
  readonly data: readonly string[];
  readonly records: number;
}

/**
 * The machine-readable result: meta, the base row and the ranked rows (rates as fractions, intervals,
 * per kind), and `outcomes`: per record, restored and executable under the base and under every ranked row.
 */
export function sweepJson(result: SweepResult, meta: SweepJsonMeta): string {
  const plain = (r: SettingResult) => {
    const { records, ...rest } = r;
    void records;
    return { ...rest, setting: { ...r.setting } };
  };
  const outcomes = result.baseline.records.map((rec, i) => ({
    id: rec.id,
    kind: rec.kind,
    base: rec.restored,
    restored: result.rows.map((r) => r.records[i].restored),
    executable: result.rows.map((r) => r.records[i].executable),
  }));
  return `${JSON.stringify(
    { ...meta, baseline: plain(result.baseline), rows: result.rows.map(plain), outcomes },
    null,
    2,
  )}\n`;
}

export interface SweepPageMeta {
  readonly header: string;
  readonly description: readonly string[];
  /** The chart's SVG, relative to the page. */
  readonly svg?: string;
}

/** The markdown page: header, what was run, best against base, the ranked table, chart, breakdowns. */
export function sweepPage(result: SweepResult, meta: SweepPageMeta, baseName: string): string {
  return [
    meta.header,
    ...meta.description,
    '',
    bestVersusBase(result),
    '',
    sweepTable(result, baseName),
    '',
    ...(meta.svg ? [`![restoration by setting](${meta.svg})`, ''] : []),
    kindsSection(result, baseName),
    flipsSection(result),
  ].join('\n');
}

export interface SweepRun {
  readonly records: number;
  readonly limit?: string;
  readonly kinds?: string;
  readonly files: readonly string[];
  readonly base: string;
  readonly mappings: string;
  readonly solver: string;
}

/** What a sweep ran on, for the page. */
export function sweepDescription(run: SweepRun): string[] {
  return [
    `${run.records} labelled records (${run.limit ? `first ${run.limit} per set` : 'all'}` +
      `${run.kinds ? `, kinds ${run.kinds}` : ''}) from ${run.files.join(', ')};`,
    `base cost model \`${run.base}\`, mappings \`${run.mappings}\`, solver ${run.solver}. Ranked by`,
    "restoration modulo unknowns (the gold's data flow, an ask counting for a literal nothing in the input",
    'holds), then executable rate, then fewer edits. Intervals are 95%',
    'percentile bootstrap intervals over the records (2,000 resamples, seeded). Settings are interleaved',
    'record by record, so every row’s median time is measured under the same conditions.',
  ];
}
