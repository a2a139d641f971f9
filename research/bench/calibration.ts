/**
 * `npm run calibrate`: the shipped confidence calibration. Every labelled record of the benchmark (both
 * corruption recipes, the three NESTFUL sets and the four synthetic worlds) and every 4th of the large-catalog
 * worlds (1,000 and 10,000 APIs; their flat plans a world of their own: the learning mix) is repaired under the
 * shipped `default` weights, judged right when it restores the gold modulo unknowns, and the calibration is fitted on
 * them all and written into `models/default.json`; each world is also held out in turn. The page
 * (`benchmarks/results/calibration.md`) has the per-world table and a reliability diagram.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCostModel } from '../../src/read/cost-models.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { reliability } from '../../src/confidence/fit.ts';
import { figureFiles, VEGA_LITE_SCHEMA, type PlotSpec } from '../../src/batch/plot.ts';
import {
  calibrate,
  calibrationPage,
  DEFAULT_ALTERNATIVES,
  DEFAULT_REFITS,
  collectSamples,
  evidenceComparison,
} from '../tuning/index.ts';
import { ROOT } from './data.ts';
import { learningMix, MIX_WORLDS } from './records.ts';
import { machine, pageHeader } from './markdown.ts';

/** The L2 penalty of the shipped fit (standardised coefficients). */
export const SHIPPED_L2 = 1;
const MODEL_FILE = join(ROOT, 'models', 'default.json');
const RESULTS = join(ROOT, 'benchmarks', 'results');

/** Reliability diagram: observed right rate against mean confidence per bin, one line per held-out world. */
export function reliabilitySpec(
  points: readonly { set: string; confidence: number; right: boolean }[],
): PlotSpec {
  const sets = [...new Set(points.map((p) => p.set))];
  const values = sets.flatMap((set) =>
    reliability(points.filter((p) => p.set === set)).bins.map((b) => ({
      world: set,
      confidence: Number(b.meanConfidence.toFixed(4)),
      right: Number(b.rightRate.toFixed(4)),
      repairs: b.n,
    })),
  );
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: 'Confidence against the observed right rate (each world held out)',
    width: 420,
    height: 420,
    layer: [
      {
        data: {
          values: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
        },
        mark: { type: 'line', strokeDash: [4, 4], color: 'gray' },
        encoding: {
          x: { field: 'x', type: 'quantitative' },
          y: { field: 'y', type: 'quantitative' },
        },
      },
      {
        data: { values },
        mark: { type: 'line', point: { size: 40 } },
        encoding: {
          x: {
            field: 'confidence',
            type: 'quantitative',
            title: 'mean confidence',
            scale: { domain: [0, 1] },
          },
          y: {
            field: 'right',
            type: 'quantitative',
            title: 'right (restored modulo unknowns)',
            scale: { domain: [0, 1] },
          },
          color: { field: 'world', type: 'nominal' },
          tooltip: [{ field: 'world' }, { field: 'repairs' }],
        },
      },
    ],
  } as PlotSpec;
}

export async function shipCalibration(log: (line: string) => void, l2 = SHIPPED_L2): Promise<string> {
  const { calibration: _old, ...base } = loadCostModel('default') as CostModel & { calibration?: unknown };
  void _old;
  const records = learningMix(MIX_WORLDS.large, MIX_WORLDS.every);
  log(`calibrate: ${records.length} records`);
  const samples = await collectSamples(records, base, { log, alternatives: DEFAULT_ALTERNATIVES });
  const report = calibrate(samples, base, l2, 'core', DEFAULT_REFITS);
  // The same repairs read with `formOnly` too, for the comparison on the page (not shipped): fix 1's
  // confidence alone, so without the alternatives' calibration.
  const form = calibrate(
    samples.map(({ alternatives: _alternatives, ...sample }) => sample),
    base,
    l2,
    'form',
  );
  const model = JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as Record<string, unknown>;
  writeFileSync(MODEL_FILE, `${JSON.stringify({ ...model, calibration: report.calibration }, null, 2)}\n`);
  const files = await figureFiles('calibration-reliability', reliabilitySpec(report.heldOutPoints));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(RESULTS, name), text);
  const page = [
    calibrationPage(report, pageHeader('Confidence calibration', machine(), 'npm run calibrate')),
    `Fitted on ${samples.length} repairs of ${records.length} records (valid inputs have confidence 1 and no`,
    `evidence), the core evidence, L2 ${l2}, into \`models/default.json\` (\`calibration\`). Each held-out world is scored by the`,
    'calibration fitted on the other worlds:',
    '',
    '![reliability](calibration-reliability.svg)',
    '',
    'The same repairs calibrated with `--evidence form` as well, which also reads whether every edit only fixes how',
    'a call is written (`formOnly`; see [cost model](../../docs/cost-model.md#confidence)):',
    '',
    ...evidenceComparison({ name: 'core', report }, { name: 'form', report: form }),
  ].join('\n');
  writeFileSync(join(RESULTS, 'calibration.md'), page);
  return page;
}
