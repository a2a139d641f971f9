/**
 * The batch summary's chart (a Vega-Lite spec): edits by kind and the histogram of `ask` steps per
 * answered record, side by side, both on count axes that start at zero.
 */
import { VEGA_LITE_SCHEMA, type PlotSpec } from './plot.ts';
import type { Summary } from './summary.ts';

function bars(title: string, values: readonly { label: string; n: number }[], sort: 'count' | 'given') {
  return {
    title,
    width: 320,
    height: { step: 18 },
    data: { values },
    mark: { type: 'bar', color: '#4c78a8' },
    encoding: {
      y: { field: 'label', type: 'nominal', title: null, sort: sort === 'count' ? '-x' : null },
      x: { field: 'n', type: 'quantitative', title: 'count', scale: { zero: true } },
      tooltip: [{ field: 'label' }, { field: 'n' }],
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
      bars(`Edits by kind (${edits.reduce((a, e) => a + e.n, 0)} edits)`, edits, 'count'),
      bars('Asks per answered record', asks, 'given'),
    ],
  } as unknown as PlotSpec;
}
