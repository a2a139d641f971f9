/**
 * The batch summary's chart (a Vega-Lite spec): edits by kind and the histogram of `ask` steps per
 * answered record, side by side on count axes that start at zero, then the repairs per band of confidence
 * when they carry one; for a scored batch, first the share of records restored (exactly and modulo asks) per
 * mistake kind, on a 0–100 % axis.
 */
import { VEGA_LITE_SCHEMA, type PlotSpec } from './plot.ts';
import type { Summary } from './summary.ts';
import type { GroupScores, ScoresSummary } from './scores.ts';

function bars(title: string, values: readonly { label: string; n: number }[], sort: 'count' | 'given') {
  return {
    title,
    width: 320,
    height: { step: 18 },
    data: { values },
    mark: { type: 'bar', color: '#4c78a8' },
    encoding: {
      y: { field: 'label', type: 'nominal', title: null, sort: sort === 'count' ? '-x' : null },
      x: {
        field: 'n',
        type: 'quantitative',
        title: 'count',
        scale: { zero: true },
        axis: { tickMinStep: 1, format: 'd' },
      },
      tooltip: [{ field: 'label' }, { field: 'n' }],
    },
  };
}

const MEASURES = ['detected', 'restored', 'restored modulo asks'] as const;

function scoresPanel(scores: ScoresSummary) {
  const groups: [string, GroupScores][] = [...Object.entries(scores.byKind), ['all', scores.overall]];
  const values = groups.flatMap(([kind, g]) => [
    { kind, measure: MEASURES[0], rate: g.corrupted === 0 ? null : g.detected / g.corrupted },
    { kind, measure: MEASURES[1], rate: g.restored / g.n },
    { kind, measure: MEASURES[2], rate: g.restoredModuloAsks / g.n },
  ]);
  return {
    title: `Against the gold plans (${scores.overall.n} labelled records)`,
    width: 320,
    height: { step: 10 },
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'kind', type: 'nominal', title: null, sort: groups.map(([k]) => k) },
      yOffset: { field: 'measure', sort: MEASURES },
      x: {
        field: 'rate',
        type: 'quantitative',
        title: 'share of records',
        scale: { domain: [0, 1] },
        axis: { format: '.0%' },
      },
      color: {
        field: 'measure',
        title: null,
        sort: MEASURES,
        scale: { domain: MEASURES, range: ['#bab0ac', '#4c78a8', '#72b7b2'] },
        legend: { orient: 'bottom', labelLimit: 200 },
      },
      tooltip: [{ field: 'kind' }, { field: 'measure' }, { field: 'rate', format: '.1%' }],
    },
  };
}

export function summaryChart(s: Summary): PlotSpec {
  const edits = Object.entries(s.editKinds).map(([label, n]) => ({ label, n }));
  const asks = Object.entries(s.asksPerRecord).map(([label, n]) => ({ label: `${label} asks`, n }));
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: `Batch of ${s.records} records: what the repairs did`,
    background: 'white',
    hconcat: [
      ...(s.scores ? [scoresPanel(s.scores)] : []),
      bars(`Edits by kind (${edits.reduce((a, e) => a + e.n, 0)} edits)`, edits, 'count'),
      bars('Asks per answered record', asks, 'given'),
      ...(s.confidence
        ? [
            bars(
              `Repairs by confidence (expected wrong ${s.confidence.expectedWrong.toFixed(1)})`,
              Object.entries(s.confidence.bands).map(([label, n]) => ({ label, n })),
              'given',
            ),
          ]
        : []),
    ],
  } as unknown as PlotSpec;
}
