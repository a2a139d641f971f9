/**
 * A small SVG plotter for the benchmark pages: axes with ticks (linear or log), labels, a legend,
 * scatter/line series and labelled horizontal reference lines. Output is standalone SVG text.
 */

export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  /** `scatter` (default), `line`, or `both`. */
  readonly style?: 'scatter' | 'line' | 'both';
}

export interface ReferenceLine {
  readonly y: number;
  readonly label: string;
}

export interface PlotOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  readonly xLog?: boolean;
  readonly yLog?: boolean;
  readonly lines?: readonly ReferenceLine[];
  /** Width of the plot area and its axes, without the legend (default 600). */
  readonly width?: number;
  readonly height?: number;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const MARGIN = { left: 72, top: 44, bottom: 56 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6) return `${Number((x / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((x / 1e3).toPrecision(3))}k`;
  if (a < 1e-3) return x.toExponential(0);
  return String(Number(x.toPrecision(3)));
}

/** Linear ticks at 1/2/5 × 10^k steps covering [lo, hi]. */
export function linearTicks(lo: number, hi: number, target = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Powers of ten covering [lo, hi] (lo > 0), with 2 and 5 multiples when the range is short. */
export function logTicks(lo: number, hi: number): number[] {
  const a = Math.floor(Math.log10(lo));
  const b = Math.ceil(Math.log10(hi));
  const mults = b - a <= 2 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let e = a; e <= b; e++) for (const m of mults) ticks.push(Number((m * 10 ** e).toPrecision(12)));
  return ticks.filter((t) => t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9));
}

interface Axis {
  readonly lo: number;
  readonly hi: number;
  readonly log: boolean;
  readonly ticks: number[];
}

function axis(values: number[], log: boolean): Axis {
  const finite = values.filter((v) => Number.isFinite(v) && (!log || v > 0));
  let lo = finite.length ? Math.min(...finite) : log ? 1 : 0;
  let hi = finite.length ? Math.max(...finite) : lo + 1;
  if (log) {
    lo = 10 ** Math.floor(Math.log10(lo));
    hi = 10 ** Math.ceil(Math.log10(hi));
    if (hi <= lo) hi = lo * 10;
    return { lo, hi, log, ticks: logTicks(lo, hi) };
  }
  if (lo > 0 && lo < hi / 3) lo = 0;
  if (hi === lo) hi = lo + 1;
  const ticks = linearTicks(lo, hi);
  return { lo: Math.min(lo, ticks[0]), hi: Math.max(hi, ticks[ticks.length - 1]), log, ticks };
}

function scale(ax: Axis, from: number, to: number): (v: number) => number {
  const f = ax.log ? Math.log10 : (v: number) => v;
  const a = f(ax.lo);
  const b = f(ax.hi);
  return (v) => from + ((f(v) - a) / (b - a)) * (to - from);
}

/** A different marker shape per series (circle, square, diamond, triangle), so overlapping series stay apart. */
function marker(series: number, x: number, y: number, size: number): string {
  const f = (v: number) => v.toFixed(1);
  switch (series % 4) {
    case 0:
      return `<circle cx="${f(x)}" cy="${f(y)}" r="${size}"/>`;
    case 1:
      return `<rect x="${f(x - size)}" y="${f(y - size)}" width="${f(2 * size)}" height="${f(2 * size)}"/>`;
    case 2:
      return `<path d="M${f(x)} ${f(y - size * 1.3)}L${f(x + size * 1.3)} ${f(y)}L${f(x)} ${f(y + size * 1.3)}L${f(x - size * 1.3)} ${f(y)}Z"/>`;
    default:
      return `<path d="M${f(x)} ${f(y - size * 1.3)}L${f(x + size * 1.2)} ${f(y + size)}L${f(x - size * 1.2)} ${f(y + size)}Z"/>`;
  }
}

export function plot(options: PlotOptions): string {
  // The legend sits right of the plot area, sized to its longest name, so it never hides data.
  const legend = Math.max(120, 40 + 7 * Math.max(0, ...options.series.map((s) => s.name.length)));
  const width = (options.width ?? 600) + legend;
  const height = options.height ?? 460;
  const usable = (v: number, log?: boolean) => Number.isFinite(v) && (!log || v > 0);
  const series = options.series.map((s) => ({
    ...s,
    points: s.points.filter(([x, y]) => usable(x, options.xLog) && usable(y, options.yLog)),
  }));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [...series.flatMap((s) => s.points.map((p) => p[1])), ...(options.lines ?? []).map((l) => l.y)];
  const xa = axis(xs, options.xLog ?? false);
  const ya = axis(ys, options.yLog ?? false);
  const [x0, x1, y0, y1] = [MARGIN.left, width - legend, height - MARGIN.bottom, MARGIN.top];
  const sx = scale(xa, x0, x1);
  const sy = scale(ya, y0, y1);
  const r = (v: number) => v.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`,
  ];
  for (const t of xa.ticks) {
    const x = r(sx(t));
    out.push(`<line x1="${x}" y1="${y1}" x2="${x}" y2="${y0}" stroke="#eee"/>`);
    out.push(`<line x1="${x}" y1="${y0}" x2="${x}" y2="${y0 + 5}" stroke="black"/>`);
    out.push(`<text x="${x}" y="${y0 + 18}" text-anchor="middle">${fmt(t)}</text>`);
  }
  for (const t of ya.ticks) {
    const y = r(sy(t));
    out.push(`<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#eee"/>`);
    out.push(`<line x1="${x0 - 5}" y1="${y}" x2="${x0}" y2="${y}" stroke="black"/>`);
    out.push(`<text x="${x0 - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${fmt(t)}</text>`);
  }
  out.push(`<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y0}" stroke="black"/>`);
  out.push(`<line x1="${x0}" y1="${y0}" x2="${x0}" y2="${y1}" stroke="black"/>`);
  out.push(
    `<text x="${(x0 + x1) / 2}" y="${height - 14}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  out.push(
    `<text x="16" y="${(y0 + y1) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(y0 + y1) / 2})">${escapeXml(options.yLabel)}</text>`,
  );
  for (const line of options.lines ?? []) {
    if (!usable(line.y, options.yLog)) continue;
    const y = r(sy(line.y));
    out.push(`<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#555" stroke-dasharray="6 4"/>`);
    out.push(
      // Labelled at the left: rising curves leave that end free.
      `<text x="${x0 + 6}" y="${Number(y) - 5}" fill="#555">${escapeXml(line.label)}</text>`,
    );
  }
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const style = s.style ?? 'scatter';
    if (style !== 'scatter' && s.points.length > 1) {
      const d = s.points.map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${r(sx(x))} ${r(sy(y))}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    }
    const radius = style === 'scatter' ? 2.8 : 3.5;
    const dots = s.points.map(([x, y]) => marker(i, sx(x), sy(y), radius));
    out.push(`<g fill="${colour}" fill-opacity="${style === 'scatter' ? 0.55 : 1}">${dots.join('')}</g>`);
  });
  series.forEach((s, i) => {
    const y = y1 + 8 + i * 20;
    out.push(`<g fill="${COLOURS[i % COLOURS.length]}">${marker(i, x1 + 22, y, 5)}</g>`);
    out.push(`<text x="${x1 + 34}" y="${y}" dominant-baseline="middle">${escapeXml(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
