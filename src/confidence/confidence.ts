/**
 * A repair's confidence under a calibration: the logistic score of its standardised evidence, then the
 * isotonic step that score falls in. Evidence the calibration does not name is ignored; evidence it names
 * and the repair lacks is 0.
 */
import type { ScoreCalibration } from '../model/calibration.ts';
import type { EvidenceVector } from './evidence.ts';

/** Digits a confidence is reported with. */
export const CONFIDENCE_DIGITS = 3;

/** The logistic score in (0, 1). */
export function calibrationScore(calibration: ScoreCalibration, evidence: EvidenceVector): number {
  let z = calibration.intercept;
  calibration.evidence.forEach((name, i) => {
    z += (calibration.coefficients[i] * ((evidence[name] ?? 0) - calibration.mean[i])) / calibration.scale[i];
  });
  return 1 / (1 + Math.exp(-z));
}

/** The isotonic probability of a score: the first step whose upper bound is at or above it. */
export function stepProbability(steps: ScoreCalibration['steps'], score: number): number {
  for (const [upper, probability] of steps) if (score <= upper) return probability;
  return steps[steps.length - 1][1];
}

export function confidenceOf(calibration: ScoreCalibration, evidence: EvidenceVector): number {
  const p = stepProbability(calibration.steps, calibrationScore(calibration, evidence));
  const scale = 10 ** CONFIDENCE_DIGITS;
  return Math.round(p * scale) / scale;
}
