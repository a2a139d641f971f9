import { describe, expect, it } from 'vitest';
import { figureFiles, renderSvg } from '../src/batch/plot.ts';
import { chartSpec } from '../research/bench/figures.ts';
import { heatmapSpec } from '../research/tuning/heatmap.ts';

/** Every opened element is closed in order (a well-formed document, as far as tags go). */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3] === '/') continue;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) return false;
    } else stack.push(m[2]);
  }
  return stack.length === 0;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('charts (Vega-Lite, rendered headlessly)', () => {
  const spec = chartSpec({
    title: 'Time <against> size & more',
    xLabel: 'vars',
    yLabel: 'ms',
    yLog: true,
    lines: [{ y: 678, label: 'reference' }],
    series: [
      {
        name: 'a',
        points: [
          [1, 0.5],
          [10, 5],
          [100, 50],
        ],
      },
      {
        name: 'b',
        style: 'both',
        points: [
          { x: 2, y: 1, lo: 0.5, hi: 2 },
          { x: 20, y: 0 },
          { x: 200, y: 2000, lo: 1500, hi: 2500 },
        ],
      },
    ],
  });

  it('renders well-formed SVG with the escaped title, every usable point and the reference line', async () => {
    const svg = await renderSvg(spec);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(balanced(svg)).toBe(true);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).toContain('Time &lt;against&gt; size &amp; more');
    // Three points of a, two of b (y = 0 has no place on a log axis).
    expect(count(svg, /aria-roledescription="point"/g)).toBe(5);
    expect(svg).toContain('>reference<');
    expect(svg).toContain('stroke-dasharray="6,4"');
  });

  it('starts a linear axis at zero and keeps the spread of each point', () => {
    const linear = chartSpec({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ name: 's', points: [[1, 70]] }],
    });
    const layers = (linear as { layer: { encoding: { y: { scale: unknown } } }[] }).layer;
    expect(layers[0].encoding.y.scale).toEqual({ zero: true });
    const data = (spec as { data: { values: { lo?: number }[] } }).data.values;
    expect(data.filter((d) => d.lo !== undefined)).toHaveLength(2);
  });

  it('writes the spec beside the SVG', async () => {
    const files = await figureFiles('solvers', spec);
    expect(Object.keys(files).sort()).toEqual(['solvers.svg', 'solvers.vl.json']);
    expect(JSON.parse(files['solvers.vl.json'])).toEqual(spec);
  });
});

describe('heat-map', () => {
  const cells = [0.5, 1].flatMap((x) => [1, 2].map((y) => ({ x, y, value: x * y * 0.4, lo: 0.1, hi: 0.9 })));
  const spec = heatmapSpec({
    title: 'T',
    xLabel: 'renameParam weight',
    yLabel: 'dropParam weight',
    scaleLabel: 'restored',
    cells,
    reference: { x: 1, y: 1, label: 'default' },
  });

  it('colours on a 0–100 % scale whatever the spread of the values', () => {
    const layer = (spec as { layer: { encoding: { color?: { scale?: { domain: number[] } } } }[] }).layer;
    expect(layer[0].encoding.color?.scale?.domain).toEqual([0, 1]);
  });

  it('draws one cell per setting with its rate and interval, the best and the base outlined', async () => {
    const svg = await renderSvg(spec);
    expect(balanced(svg)).toBe(true);
    expect(svg).toContain('renameParam weight');
    expect(svg).toContain('dropParam weight');
    expect(svg).toContain('80.0%');
    expect(svg).toContain('10.0%–90.0%');
    expect(svg).toContain('dashed orange: default');
    expect(count(svg, /stroke="#d62728"/g)).toBe(1);
    expect(count(svg, /stroke="#ff9f1c"/g)).toBe(1);
  });
});
