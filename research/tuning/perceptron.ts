/**
 * The perceptron's step and average, on feature vectors. A repair's cost is weights · features
 * (src/model/features.ts), so for a record whose optimum misses the gold the step is on the difference of
 * two feature vectors, the optimum's and the gold point's: `w ← w + η·s_f·(φ(optimum) − φ(gold))`, each
 * feature in its own scale `s_f` (its starting weight, so tie-breaks move in their units), then pulled back
 * towards the starting weights by `λ` (so that a few hundred records cannot wreck them) and clipped to
 * [0, MAX_WEIGHT] (or [0, start] for a weight that starts above it: a near-ban such as 1000 stays one).
 * The average of the weights over every visited record is the fit's result.
 */
import type { Weights } from '../../src/model/cost.ts';
import { FEATURES, FEATURE_NAMES, type FeatureName } from '../../src/model/features.ts';
import type { FeatureTotals } from './gold-point.ts';

export const MAX_WEIGHT = 50;

/** Features a fit never moves: the price of a call, the answer's protection, confirms and tie-breaks. */
const FIXED: ReadonlySet<FeatureName> = new Set([
  'perCall',
  'confirm',
  'dropResult',
  'tieBreak',
  'askSharedRebate',
]);

/** The features a fit moves by default: every edit and evidence feature but the fixed ones. */
export const LEARNED: readonly FeatureName[] = FEATURE_NAMES.filter(
  (f) => FEATURES[f].group !== 'closeness' && !FIXED.has(f),
);

/**
 * A weight's step size: its starting weight's scale, so that tie-breaks move in their own units; at least
 * 1 for an edit or evidence feature (one that starts at 0 must be able to grow), at most 10.
 */
export function stepScales(start: Weights, learn: readonly FeatureName[]): Map<FeatureName, number> {
  return new Map(
    learn.map((f) => [
      f,
      Math.min(10, Math.max(FEATURES[f].group === 'closeness' ? 0.25 * start[f] : 1, start[f])),
    ]),
  );
}

/** One perceptron step: towards the gold's features, away from the optimum's. */
export function featureStep(
  weights: Weights,
  start: Weights,
  predicted: FeatureTotals,
  gold: FeatureTotals,
  rate: number,
  lambda: number,
  scale: ReadonlyMap<FeatureName, number>,
): { weights: Weights; moved: boolean } {
  const next: Weights = { ...weights };
  let moved = false;
  for (const [f, s] of scale) {
    const delta = (predicted[f] ?? 0) - (gold[f] ?? 0);
    if (Math.abs(delta) < 1e-9) continue;
    moved = true;
    const w = weights[f] + rate * s * delta;
    next[f] = Math.min(Math.max(MAX_WEIGHT, start[f]), Math.max(0, w - lambda * (w - start[f])));
  }
  return { weights: next, moved };
}

/** Running mean of weight vectors (the averaged perceptron generalises better than its last vector). */
export class WeightAverage {
  private readonly sum = new Map<FeatureName, number>();
  private count = 0;
  add(w: Weights): void {
    for (const f of FEATURE_NAMES) this.sum.set(f, (this.sum.get(f) ?? 0) + w[f]);
    this.count++;
  }
  mean(fallback: Weights): Weights {
    if (this.count === 0) return fallback;
    const out: Weights = { ...fallback };
    for (const f of FEATURE_NAMES) out[f] = Math.round(((this.sum.get(f) ?? 0) / this.count) * 1e5) / 1e5;
    return out;
  }
}
