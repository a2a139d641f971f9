/**
 * Calibrating confidence on labelled records: each record is repaired with its evidence, judged right when
 * the repair restores the gold modulo unknowns, and the calibration is fitted on them all; each world (a
 * record's `set`) is also held out in turn, fitted on the others, to say how the calibration transfers.
 */
import type { CostModel } from '../../src/model/cost.ts';
import { weightsDigest, type Calibration } from '../../src/model/calibration.ts';
import { confidenceOf } from '../../src/confidence/confidence.ts';
import {
  fitCalibration,
  reliability,
  selective,
  type EvidenceSet,
  type Sample,
} from '../../src/confidence/fit.ts';
import type { LabelledRecord } from './dataset.ts';
import { repairRecord, type EvalOptions } from './evaluate.ts';

export interface LabelledSample extends Sample {
  readonly id: string;
  readonly set: string;
}

/** Repairs every record with its evidence; valid inputs (confidence 1) and failed repairs have none. */
export async function collectSamples(
  records: readonly LabelledRecord[],
  base: CostModel,
  options: EvalOptions & { log?: (line: string) => void } = {},
): Promise<LabelledSample[]> {
  const { log, ...rest } = options;
  const samples: LabelledSample[] = [];
  for (const [i, record] of records.entries()) {
    const outcome = await repairRecord(record, base, { ...rest, confidenceEvidence: true });
    if (i % 500 === 499) log?.(`calibrate: ${i + 1}/${records.length} records repaired`);
    // Judged as the benchmark judges (restored modulo unknowns; a partial repair is not right).
    if (outcome.evidence) {
      samples.push({ id: record.id, set: record.set, evidence: outcome.evidence, right: outcome.restored });
    }
  }
  return samples;
}

export interface WorldCalibration {
  readonly set: string;
  readonly n: number;
  readonly rightRate: number;
  readonly ece: number;
  readonly topPrecision: number;
  readonly keptAtPrecision: number;
}

export interface CalibrationReport {
  readonly calibration: Calibration;
  /** Each world held out: fitted on the others (empty with one world). */
  readonly heldOut: readonly WorldCalibration[];
  /** The calibration on the records it was fitted on. */
  readonly fitted: WorldCalibration;
  readonly points: readonly { confidence: number; right: boolean }[];
  /** Each held-out world's points, under the calibration fitted without it. */
  readonly heldOutPoints: readonly { set: string; confidence: number; right: boolean }[];
}

function measure(set: string, calibration: Calibration, samples: readonly Sample[]) {
  const points = samples.map((s) => ({ confidence: confidenceOf(calibration, s.evidence), right: s.right }));
  const world: WorldCalibration = {
    set,
    n: points.length,
    rightRate: points.filter((p) => p.right).length / Math.max(1, points.length),
    ece: reliability(points).ece,
    ...selective(points),
  };
  return { world, points };
}

export function calibrate(
  samples: readonly LabelledSample[],
  base: CostModel,
  l2 = 1,
  evidence: EvidenceSet = 'core',
): CalibrationReport {
  const weights = weightsDigest(base.weights);
  const sets = [...new Set(samples.map((s) => s.set))].sort();
  const held =
    sets.length < 2
      ? []
      : sets.map((set) => {
          const train = samples.filter((s) => s.set !== set);
          const fitted = fitCalibration(train, { weights, l2, evidence });
          return measure(
            set,
            fitted,
            samples.filter((s) => s.set === set),
          );
        });
  const calibration = fitCalibration(samples, { weights, l2, sets, evidence });
  const { world, points } = measure('(all, fitted)', calibration, samples);
  return {
    calibration,
    heldOut: held.map((h) => h.world),
    fitted: world,
    points,
    heldOutPoints: held.flatMap((h) => h.points.map((p) => ({ set: h.world.set, ...p }))),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

export function calibrationPage(report: CalibrationReport, header: string): string {
  const row = (w: WorldCalibration) =>
    `| ${w.set} | ${w.n} | ${pct(w.rightRate)} | ${w.ece.toFixed(3)} | ${pct(w.topPrecision)} | ${pct(w.keptAtPrecision)} |`;
  const bins = reliability(report.points).bins;
  return [
    header,
    '',
    'Right = restored modulo unknowns. ECE over ten bins of confidence; top 90 % = precision of the 90 % most',
    'confident repairs; kept at 99 % = the largest share of most confident repairs that is 99 % right.',
    '',
    '| world | repairs | right | ECE | top 90 % | kept at 99 % |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...report.heldOut.map(row),
    row(report.fitted),
    '',
    '| confidence | repairs | mean confidence | right |',
    '| --- | ---: | ---: | ---: |',
    ...bins.map(
      (b) =>
        `| ${b.lower.toFixed(1)}–${b.upper.toFixed(1)} | ${b.n} | ${b.meanConfidence.toFixed(3)} | ${pct(b.rightRate)} |`,
    ),
    '',
  ].join('\n');
}
