/**
 * The Vega-Lite specs of the benchmark pages: time (or any measure) against size, one colour and marker
 * shape per series, optional error bars for the spread around each median, optional log axes, and
 * labelled horizontal reference lines. Linear axes start at zero, so a small difference looks small.
 * Rendering is `src/batch/plot.ts`; this file only builds data.
 */
import { VEGA_LITE_SCHEMA, type PlotSpec } from '../../src/batch/plot.ts';

export interface SeriesPoint {
  readonly x: number;
  readonly y: number;
  /** The spread around `y` (e.g. the interquartile range of the repeats), drawn as an error bar. */
  readonly lo?: number;
  readonly hi?: number;
}

export interface Series {
  readonly name: string;
  readonly points: readonly (SeriesPoint | readonly [number, number])[];
  /** `scatter` (default), `line`, or `both` (a line through the markers). */
  readonly style?: 'scatter' | 'line' | 'both';
}

export interface ReferenceLine {
  readonly y: number;
  readonly label: string;
}

export interface ChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  readonly xLog?: boolean;
  readonly yLog?: boolean;
  readonly lines?: readonly ReferenceLine[];
  /** Labelled vertical lines (a crossover, a threshold). */
  readonly xLines?: readonly { readonly x: number; readonly label: string }[];
  readonly width?: number;
  readonly height?: number;
  /** Colours of the series, in order (default: Vega's category10). */
  readonly colours?: readonly string[];
}

const HEIGHT = 380;

interface Row {
  readonly series: string;
  readonly style: string;
  readonly x: number;
  readonly y: number;
  readonly lo?: number;
  readonly hi?: number;
}

const usable = (v: number | undefined, log?: boolean) =>
  v !== undefined && Number.isFinite(v) && (!log || v > 0);

function rows(options: ChartOptions): Row[] {
  return options.series.flatMap((s) =>
    s.points.flatMap((p) => {
      const point: SeriesPoint = 'x' in p ? p : { x: p[0], y: p[1] };
      if (!usable(point.x, options.xLog) || !usable(point.y, options.yLog)) return [];
      const spread =
        usable(point.lo, options.yLog) && usable(point.hi, options.yLog)
          ? { lo: point.lo, hi: point.hi }
          : {};
      return [{ series: s.name, style: s.style ?? 'scatter', x: point.x, y: point.y, ...spread }];
    }),
  );
}

/** A time-against-size chart (scatter, lines, error bars, reference lines). */
export function chartSpec(options: ChartOptions): PlotSpec {
  const data = rows(options);
  const order = options.series.map((s) => s.name);
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: options.xLabel,
    scale: options.xLog ? { type: 'log' as const } : { zero: true },
  };
  const yScale = options.yLog ? { type: 'log' as const } : { zero: true };
  const y = { field: 'y', type: 'quantitative' as const, title: options.yLabel, scale: yScale };
  const field = { field: 'series', type: 'nominal' as const, title: null, sort: order };
  const series = {
    ...field,
    ...(options.colours ? { scale: { domain: order, range: options.colours.slice(0, order.length) } } : {}),
    legend: { labelLimit: 320 },
  };
  const layers: Record<string, unknown>[] = [
    {
      mark: { type: 'point', filled: true, size: 40 },
      encoding: {
        x,
        y,
        color: series,
        // Shapes tell overlapping series apart in grey print; the colour legend names them.
        shape: { ...field, legend: null },
        opacity: { condition: { test: "datum.style === 'scatter'", value: 0.55 }, value: 1 },
      },
    },
    {
      transform: [{ filter: "datum.style !== 'scatter'" }],
      mark: { type: 'line', strokeWidth: 2 },
      encoding: { x, y, color: series, detail: field },
    },
  ];
  if (data.some((r) => r.lo !== undefined))
    layers.push({
      transform: [{ filter: 'isValid(datum.lo)' }],
      mark: { type: 'rule', strokeWidth: 1.5 },
      encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color: series },
    });
  const lines = (options.lines ?? []).filter((l) => usable(l.y, options.yLog));
  if (lines.length > 0)
    layers.push(
      {
        data: { values: lines },
        mark: { type: 'rule', strokeDash: [6, 4], color: '#555' },
        encoding: { y: { ...y, field: 'y' } },
      },
      {
        data: { values: lines },
        mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -3, color: '#555' },
        encoding: { y: { ...y, field: 'y' }, x: { value: 0 }, text: { field: 'label' } },
      },
    );
  const xLines = (options.xLines ?? []).filter((l) => usable(l.x, options.xLog));
  if (xLines.length > 0)
    layers.push(
      {
        data: { values: xLines },
        mark: { type: 'rule', strokeDash: [3, 3], color: '#2ca02c', strokeWidth: 1.5 },
        encoding: { x: { ...x, field: 'x' } },
      },
      {
        data: { values: xLines },
        mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -4, color: '#2ca02c' },
        encoding: {
          x: { ...x, field: 'x' },
          y: { value: options.height ?? HEIGHT },
          text: { field: 'label' },
        },
      },
    );
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 560,
    height: options.height ?? HEIGHT,
    background: 'white',
    data: { values: data },
    layer: layers,
  } as unknown as PlotSpec;
}
