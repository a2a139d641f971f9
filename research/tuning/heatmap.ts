/**
 * An SVG heat-map for a two-weight grid: one cell per (x, y) setting coloured by a value in [0, 1] (the
 * restoration rate), the value written in the cell, labelled axes, a colour scale, the best cell outlined.
 */
import { escapeXml } from '../bench/svg.ts';

export interface HeatCell {
  readonly x: number;
  readonly y: number;
  /** In [0, 1]; NaN draws a grey cell. */
  readonly value: number;
}

export interface HeatmapOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly cells: readonly HeatCell[];
  /** Label of the colour scale. */
  readonly scaleLabel: string;
  /** Colour range; default the range of the values (a narrow spread still shows). */
  readonly min?: number;
  readonly max?: number;
  /** A cell to outline dashed (the base model's setting), when it is on the grid. */
  readonly reference?: { readonly x: number; readonly y: number; readonly label: string };
}

/** White → blue ramp (sequential, readable in grey print). */
export function heatColour(t: number): string {
  const u = Math.min(1, Math.max(0, t));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * u);
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  return `#${hex(mix(247, 8))}${hex(mix(251, 48))}${hex(mix(255, 107))}`;
}

const CELL = { w: 84, h: 46 };
const MARGIN = { left: 96, top: 48, right: 170, bottom: 84 };

export function heatmap(options: HeatmapOptions): string {
  const xs = [...new Set(options.cells.map((c) => c.x))].sort((a, b) => a - b);
  const ys = [...new Set(options.cells.map((c) => c.y))].sort((a, b) => a - b);
  const values = options.cells.map((c) => c.value).filter(Number.isFinite);
  const lo = options.min ?? (values.length ? Math.min(...values) : 0);
  const hi = options.max ?? (values.length ? Math.max(...values) : 1);
  const norm = (v: number) => (hi > lo ? (v - lo) / (hi - lo) : 1);
  const best = Math.max(...values);
  const plotW = xs.length * CELL.w;
  const plotH = ys.length * CELL.h;
  // Wide enough for the title (about 8.5 px per character at 15 px bold).
  const width = Math.max(MARGIN.left + plotW + MARGIN.right, Math.ceil(options.title.length * 8.5) + 40);
  const height = MARGIN.top + plotH + MARGIN.bottom;
  const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`,
  ];
  // y grows upwards, as on a plot: the smallest y value is the bottom row.
  const cx = (x: number) => MARGIN.left + xs.indexOf(x) * CELL.w;
  const cy = (y: number) => MARGIN.top + (ys.length - 1 - ys.indexOf(y)) * CELL.h;
  for (const c of options.cells) {
    const fill = Number.isFinite(c.value) ? heatColour(norm(c.value)) : '#ccc';
    const dark = Number.isFinite(c.value) && norm(c.value) > 0.55;
    out.push(
      `<rect x="${cx(c.x)}" y="${cy(c.y)}" width="${CELL.w}" height="${CELL.h}" fill="${fill}" stroke="white"/>`,
      `<text x="${cx(c.x) + CELL.w / 2}" y="${cy(c.y) + CELL.h / 2}" text-anchor="middle" dominant-baseline="middle" fill="${dark ? 'white' : 'black'}">${Number.isFinite(c.value) ? pct(c.value) : '–'}</text>`,
    );
    if (c.value === best)
      out.push(
        `<rect x="${cx(c.x) + 2}" y="${cy(c.y) + 2}" width="${CELL.w - 4}" height="${CELL.h - 4}" fill="none" stroke="#d62728" stroke-width="2.5"/>`,
      );
  }
  const ref = options.reference;
  const onGrid = ref && xs.includes(ref.x) && ys.includes(ref.y);
  if (ref && onGrid)
    out.push(
      `<rect x="${cx(ref.x) + 6}" y="${cy(ref.y) + 6}" width="${CELL.w - 12}" height="${CELL.h - 12}" fill="none" stroke="#ff9f1c" stroke-width="2" stroke-dasharray="5 3"/>`,
    );
  const bottom = MARGIN.top + plotH;
  const key = `red outline: best${onGrid ? `; dashed orange: ${ref.label}` : ''}`;
  out.push(`<text x="${MARGIN.left}" y="${height - 40 + 28}" fill="#555">${escapeXml(key)}</text>`);
  for (const x of xs)
    out.push(`<text x="${cx(x) + CELL.w / 2}" y="${bottom + 18}" text-anchor="middle">${x}</text>`);
  for (const y of ys)
    out.push(
      `<text x="${MARGIN.left - 8}" y="${cy(y) + CELL.h / 2}" text-anchor="end" dominant-baseline="middle">${y}</text>`,
    );
  out.push(
    `<text x="${MARGIN.left + plotW / 2}" y="${bottom + 40}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text x="20" y="${MARGIN.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 20 ${MARGIN.top + plotH / 2})">${escapeXml(options.yLabel)}</text>`,
  );
  out.push(...colourScale(MARGIN.left + plotW + 30, MARGIN.top, Math.max(120, plotH), lo, hi, options));
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** A vertical gradient bar with ticks at min, middle and max, and its label. */
function colourScale(x: number, y: number, h: number, lo: number, hi: number, o: HeatmapOptions): string[] {
  const steps = 24;
  const out: string[] = [];
  for (let i = 0; i < steps; i++) {
    const t = 1 - i / steps;
    out.push(
      `<rect x="${x}" y="${(y + (i * h) / steps).toFixed(1)}" width="18" height="${(h / steps + 0.5).toFixed(1)}" fill="${heatColour(t)}"/>`,
    );
  }
  out.push(`<rect x="${x}" y="${y}" width="18" height="${h}" fill="none" stroke="#555"/>`);
  for (const t of [0, 0.5, 1]) {
    const ty = y + (1 - t) * h;
    out.push(
      `<line x1="${x + 18}" y1="${ty}" x2="${x + 23}" y2="${ty}" stroke="#555"/>`,
      `<text x="${x + 26}" y="${ty}" dominant-baseline="middle">${(100 * (lo + t * (hi - lo))).toFixed(1)}%</text>`,
    );
  }
  out.push(
    `<text x="${x + 84}" y="${y + h / 2}" text-anchor="middle" transform="rotate(90 ${x + 84} ${y + h / 2})">${escapeXml(o.scaleLabel)}</text>`,
  );
  return out;
}
