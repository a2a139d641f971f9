/** The scaling page and its three plots. */
import { REFERENCE_MS, type BenchContext } from './context.ts';
import { ms, pageHeader, table } from './markdown.ts';
import { pointSummary, type Point } from './scaling.ts';
import { quantile } from './stats.ts';
import { chartSpec, type Series } from './figures.ts';
import type { PlotSpec } from '../../src/batch/plot.ts';

export interface ScalingResults {
  readonly length?: readonly Point[];
  readonly catalog?: readonly Point[];
  readonly mappings?: readonly Point[];
}

const REFERENCE = [{ y: REFERENCE_MS, label: 'reference tool: 0.678 s per instance' }];

function medianSeries(points: readonly Point[]): Series[] {
  const names = [...new Set(points.map((p) => p.series))];
  return names.map((name) => ({
    name: names.length === 1 ? 'median' : `${name} (median)`,
    style: 'both',
    points: points.filter((p) => p.series === name).map((p) => [p.x, pointSummary(p).medianMs] as const),
  }));
}

function rowsOf(points: readonly Point[], label: (p: Point) => string | number) {
  return points.map((p) => {
    const s = pointSummary(p);
    return [
      label(p),
      p.series,
      p.times.length,
      ms(s.medianMs),
      ms(quantile(p.times, 0.99)),
      ms(s.maxMs),
      s.varsMedian,
      s.varsMax,
    ];
  });
}

const HEADERS = ['n', 'median ms', 'p99 ms', 'max ms', 'vars median', 'vars max'];

/** The plots' specs by file stem (`scaling-length`, ...). */
export function scalingPlots(results: ScalingResults): Record<string, PlotSpec> {
  const out: Record<string, PlotSpec> = {};
  if (results.length) {
    out['scaling-length'] = chartSpec({
      title: 'Repair time against sequence length (HiGHS)',
      xLabel: 'calls in the sequence',
      yLabel: 'time per request (ms, log scale)',
      yLog: true,
      lines: REFERENCE,
      series: medianSeries(results.length),
    });
  }
  if (results.catalog) {
    out['scaling-catalog'] = chartSpec({
      title: 'Repair time against catalog size (HiGHS)',
      xLabel: 'APIs in the catalog (log scale)',
      yLabel: 'time per repair (ms, log scale)',
      xLog: true,
      yLog: true,
      lines: REFERENCE,
      series: [
        ...medianSeries(results.catalog),
        {
          name: 'p99',
          style: 'both',
          points: results.catalog.map((p) => [p.x, quantile(p.times, 0.99)] as const),
        },
        {
          name: 'first repair (index build)',
          style: 'both',
          points: results.catalog.map((p) => [p.x, p.coldMs ?? NaN] as const),
        },
      ],
    });
  }
  if (results.mappings) {
    out['scaling-mappings'] = chartSpec({
      title: 'Repair time against mapping-table size (HiGHS)',
      xLabel: 'mappings',
      yLabel: 'time per repair (ms, log scale)',
      yLog: true,
      lines: REFERENCE,
      series: [
        ...medianSeries(results.mappings),
        {
          name: 'p99',
          style: 'both',
          points: results.mappings.map((p) => [p.x, quantile(p.times, 0.99)] as const),
        },
      ],
    });
  }
  return out;
}

export function scalingPage(ctx: BenchContext, results: ScalingResults): string {
  const parts = [
    pageHeader('Scaling', ctx.machine, ctx.command),
    `All repairs use HiGHS, in-process after warm-up. The dashed line on the plots is the reference tool's`,
    `documented ${REFERENCE_MS / 1000} s per NESTFUL instance.`,
    '',
  ];
  if (results.length) {
    parts.push(
      '## Sequence length',
      '',
      'Sequences of 5–80 calls are built by concatenating executable gold sequences with labels renumbered;',
      'each length has a few seeded instances, repaired as they are (fast path), with 2 random mistakes, and',
      'with one mistake per 10 calls.',
      '',
      table(
        ['calls', 'input', ...HEADERS],
        rowsOf(results.length, (p) => p.x),
      ),
      '',
      '![time against length](scaling-length.svg)',
      '',
    );
  }
  if (results.catalog) {
    const cold = results.catalog.map((p) => `${p.x}: ${ms(p.coldMs ?? NaN)} ms`).join(', ');
    parts.push(
      '## Catalog size',
      '',
      'The executable catalog plus clones under new API and field names (`Name_cK`, `field_cK`), up to',
      '10,000 APIs; the same corrupted executable records are repaired against each. Candidate generation',
      'goes through the catalog index, so the model size should stay flat as the catalog grows.',
      '',
      table(
        ['APIs', 'input', ...HEADERS],
        rowsOf(results.catalog, (p) => p.x),
      ),
      '',
      `First repair on each new catalog (includes building its index): ${cold}.`,
      '',
      '![time against catalog size](scaling-catalog.svg)',
      '',
    );
  }
  if (results.mappings) {
    parts.push(
      '## Mapping-table size',
      '',
      'Random mappings (output field → parameter name, score 0.3–1) drawn from the executable catalog.',
      '',
      table(
        ['mappings', 'input', ...HEADERS],
        rowsOf(results.mappings, (p) => p.x),
      ),
      '',
      '![time against mappings](scaling-mappings.svg)',
      '',
    );
  }
  return parts.join('\n');
}
