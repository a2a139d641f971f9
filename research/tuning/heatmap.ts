/**
 * The Vega-Lite spec of a two-weight heat-map: one cell per (x, y) setting coloured by a rate in [0, 1]
 * (the restoration rate). The colour scale always spans 0–100 %, so a two-record difference looks as small
 * as it is; each cell prints its rate and, when known, its confidence interval. The best cells are outlined
 * in red, the base model's cell dashed orange.
 */
import { VEGA_LITE_SCHEMA, type PlotSpec } from '../../src/batch/plot.ts';

export interface HeatCell {
  readonly x: number;
  readonly y: number;
  /** In [0, 1]; NaN for a cell without a value. */
  readonly value: number;
  /** Confidence interval of the value, printed under it. */
  readonly lo?: number;
  readonly hi?: number;
}

export interface HeatmapOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly cells: readonly HeatCell[];
  /** Title of the colour legend. */
  readonly scaleLabel: string;
  /** A cell to outline dashed (the base model's setting), when it is on the grid. */
  readonly reference?: { readonly x: number; readonly y: number; readonly label: string };
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

export function heatmapSpec(options: HeatmapOptions): PlotSpec {
  const finite = options.cells.filter((c) => Number.isFinite(c.value));
  const best = finite.length ? Math.max(...finite.map((c) => c.value)) : NaN;
  const ref = options.reference;
  const onGrid = ref !== undefined && options.cells.some((c) => c.x === ref.x && c.y === ref.y);
  const values = options.cells.map((c) => ({
    x: c.x,
    y: c.y,
    value: Number.isFinite(c.value) ? c.value : null,
    label: Number.isFinite(c.value) ? pct(c.value) : '–',
    interval: c.lo !== undefined && c.hi !== undefined ? `${pct(c.lo)}–${pct(c.hi)}` : '',
    best: c.value === best,
    reference: onGrid && c.x === ref.x && c.y === ref.y,
  }));
  const x = {
    field: 'x',
    type: 'ordinal',
    title: options.xLabel,
    sort: 'ascending',
    axis: { labelAngle: 0 },
  };
  const y = { field: 'y', type: 'ordinal', title: options.yLabel, sort: 'descending' };
  const outline = (test: string, stroke: string, dash?: number[]) => ({
    transform: [{ filter: test }],
    mark: { type: 'rect', fillOpacity: 0, stroke, strokeWidth: 2.5, ...(dash ? { strokeDash: dash } : {}) },
    encoding: { x, y },
  });
  const key = `red outline: best${onGrid ? `; dashed orange: ${ref.label}` : ''}`;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: options.title, subtitle: key },
    background: 'white',
    data: { values },
    width: { step: 96 },
    height: { step: 52 },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white' },
        encoding: {
          x,
          y,
          color: {
            field: 'value',
            type: 'quantitative',
            title: options.scaleLabel,
            scale: { domain: [0, 1], scheme: 'blues' },
            legend: { format: '.0%' },
          },
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', dy: -7 },
        encoding: {
          x,
          y,
          text: { field: 'label' },
          color: { condition: { test: 'datum.value > 0.55', value: 'white' }, value: 'black' },
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', dy: 9, fontSize: 9 },
        encoding: {
          x,
          y,
          text: { field: 'interval' },
          color: { condition: { test: 'datum.value > 0.55', value: 'white' }, value: '#333' },
        },
      },
      outline('datum.best', '#d62728'),
      outline('datum.reference', '#ff9f1c', [5, 3]),
    ],
  } as unknown as PlotSpec;
}
