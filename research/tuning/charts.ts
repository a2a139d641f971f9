/**
 * The sweep's chart: for a grid of exactly two settings, a heat-map of the restoration rate (colours on a
 * 0–100 % scale, each cell with its interval); for any other sweep, the restoration rate of every setting
 * (best first, the base on top) as a point with its 95 % interval on a 0–100 % axis.
 */
import { VEGA_LITE_SCHEMA, type PlotSpec } from '../../src/batch/plot.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { pct } from '../bench/markdown.ts';
import { heatmapSpec } from './heatmap.ts';
import { formatSetting, settingOf, type SweepSpec } from './settings.ts';
import type { SweepResult } from './sweep.ts';

export function sweepChart(
  result: SweepResult,
  spec: SweepSpec,
  base: CostModel,
  baseName: string,
): PlotSpec {
  const n = result.baseline.n;
  if (spec.kind === 'grid' && spec.axes.length === 2) {
    const [ax, ay] = spec.axes;
    return heatmapSpec({
      title: `Restoration rate by ${ax.name} × ${ay.name} (${n} records)`,
      xLabel: ax.name,
      yLabel: ay.name,
      scaleLabel: 'restored mod unknowns',
      cells: result.rows.map((r) => ({
        x: r.setting[ax.name]!,
        y: r.setting[ay.name]!,
        value: r.restorationRate,
        lo: r.restorationCi.lo,
        hi: r.restorationCi.hi,
      })),
      reference: {
        x: settingOf(base, ax.name),
        y: settingOf(base, ay.name),
        label: `${baseName} (${pct(result.baseline.restored, n)})`,
      },
    });
  }
  return intervalSpec(result, baseName);
}

function intervalSpec(result: SweepResult, baseName: string): PlotSpec {
  const rows = [
    { r: result.baseline, label: `${baseName} (base)`, base: true },
    ...result.rows.map((r, i) => ({ r, label: `${i + 1}. ${formatSetting(r.setting)}`, base: false })),
  ];
  const values = rows.map(({ r, label, base }) => ({
    setting: label,
    rate: r.restorationRate,
    lo: r.restorationCi.lo,
    hi: r.restorationCi.hi,
    base,
  }));
  const x = {
    field: 'rate',
    type: 'quantitative',
    title: 'restored modulo unknowns, with 95% bootstrap interval',
    scale: { domain: [0, 1] },
    axis: { format: '.0%' },
  };
  const y = { field: 'setting', type: 'nominal', title: null, sort: null };
  const colour = { condition: { test: 'datum.base', value: '#ff7f0e' }, value: '#1f77b4' };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: `Restoration rate by setting (${result.baseline.n} records)`,
    background: 'white',
    width: 480,
    height: { step: 18 },
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { y, x: { ...x, field: 'lo' }, x2: { field: 'hi' }, color: colour },
      },
      { mark: { type: 'point', filled: true, size: 50 }, encoding: { y, x, color: colour } },
    ],
  } as unknown as PlotSpec;
}
