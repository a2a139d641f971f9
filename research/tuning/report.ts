/** Sweep output: the markdown table (best first), the JSON document, and the heat-map of a 2-weight grid. */
import { num, ms, pct, table } from '../bench/markdown.ts';
import type { SettingResult } from './evaluate.ts';
import { heatmapSpec } from './heatmap.ts';
import type { PlotSpec } from '../../src/batch/plot.ts';
import { formatSetting, type GridAxis } from './settings.ts';
import type { SweepResult } from './sweep.ts';

const HEADERS = [
  'rank',
  'setting',
  'n',
  'restored (data flow)',
  'executable',
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
    pct(r.executable, r.n),
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

/** One line comparing the best setting with the base. */
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
  return (
    `Best setting \`${formatSetting(best.setting)}\`: ${pct(best.restored, best.n)} restored ` +
    `(${best.restored}/${best.n}), ${pct(best.executable, best.n)} executable; the base: ` +
    `${pct(b.restored, b.n)} (${b.restored}/${b.n}), ${pct(b.executable, b.n)} executable. It ${verdict}.`
  );
}

export interface SweepJsonMeta {
  readonly command?: string;
  readonly base: string;
  readonly data: readonly string[];
  readonly records: number;
}

/** The machine-readable result: meta, the base row and the ranked rows (rates as fractions). */
export function sweepJson(result: SweepResult, meta: SweepJsonMeta): string {
  const plain = (r: SettingResult) => ({ ...r, setting: { ...r.setting } });
  return `${JSON.stringify({ ...meta, baseline: plain(result.baseline), rows: result.rows.map(plain) }, null, 2)}\n`;
}

/** The heat-map of a two-weight grid: x = first axis, y = second, colour = restoration rate. */
export function sweepHeatmap(
  result: SweepResult,
  axes: readonly [GridAxis, GridAxis],
  n: number,
  base?: { readonly name: string; readonly weights: Readonly<Record<string, number>> },
): PlotSpec {
  const [ax, ay] = axes;
  const cells = result.rows.map((r) => ({
    x: r.setting[ax.weight]!,
    y: r.setting[ay.weight]!,
    value: r.restorationRate,
  }));
  return heatmapSpec({
    title: `Restoration rate by ${ax.weight} × ${ay.weight} (${n} records)`,
    xLabel: `${ax.weight} weight`,
    yLabel: `${ay.weight} weight`,
    scaleLabel: 'restored (data flow)',
    cells,
    ...(base
      ? {
          reference: {
            x: base.weights[ax.weight],
            y: base.weights[ay.weight],
            label: `${base.name} (${pct(result.baseline.restored, result.baseline.n)})`,
          },
        }
      : {}),
  });
}

export interface SweepPageMeta {
  readonly header: string;
  readonly description: readonly string[];
  readonly svg?: string;
}

/** The markdown page: header, what was run, best against base, the ranked table, the heat-map link. */
export function sweepPage(result: SweepResult, meta: SweepPageMeta, baseName: string): string {
  return [
    meta.header,
    ...meta.description,
    '',
    bestVersusBase(result),
    '',
    sweepTable(result, baseName),
    '',
    ...(meta.svg ? [`![restoration heat-map](${meta.svg})`, ''] : []),
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
    'restoration (same data flow as the gold), then executable rate, then fewer edits.',
  ];
}
