/**
 * Learning the cost model's weights from labelled repairs: an averaged structured perceptron on feature
 * vectors. A repair's cost is weights · features (src/model/features.ts), so for a record whose optimum
 * misses the gold, the step is on the difference of two feature vectors: the optimum's and the gold's point
 * (found by a solve constrained to the gold, `solvePoint({towardsGold})`, not among the k cheapest repairs).
 * `w ← w + η·s_f·(φ(optimum) − φ(gold))`, then pulled back towards the starting weights by `λ` (so a few
 * hundred records cannot wreck them) and clipped to [0, MAX_WEIGHT]; the average of the weights over all
 * visited records is the result. A margin also steps on restored records whose gold point is not cheaper
 * than the best other point by at least the margin (loss-augmented: the other point is the optimum of the
 * model with the gold's decisions made dearer). Records whose gold the model cannot hold are skipped and
 * counted (candidate coverage).
 */
import type { CostModel, Weights } from '../../src/model/cost.ts';
import { FEATURES, FEATURE_NAMES, type FeatureName } from '../../src/model/features.ts';
import { parseCostModel } from '../../src/read/cost-models.ts';
import { mulberry32, shuffled } from '../../src/model/prng.ts';
import type { LabelledRecord } from './dataset.ts';
import { solvePoint, type FeatureTotals, type PointOptions } from './gold-point.ts';

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

export interface LearnOptions extends PointOptions {
  readonly epochs: number;
  /** Learning rate η (a step moves a weight by at most η times its scale per unit of feature difference). */
  readonly rate: number;
  /** Pull towards the starting weights after each step, in [0, 1). */
  readonly lambda: number;
  readonly seed: number;
  readonly learn?: readonly FeatureName[];
  readonly log?: (line: string) => void;
}

export interface LearnEpoch {
  readonly epoch: number;
  /** Records whose optimum missed the gold and that were stepped on. */
  readonly updates: number;
  /** Of the missed records, those whose gold the model cannot hold (no step). */
  readonly skipped: number;
  /** Missed records whose gold point has the optimum's features (nothing to learn from). */
  readonly inseparable: number;
  /** Records whose optimum was the gold during the pass. */
  readonly restored: number;
  readonly weights: Weights;
}

/** A weight's step size: its starting weight's scale (at least a quarter), so tie-breaks move in their units. */
function scales(start: Weights, learn: readonly FeatureName[]): Map<FeatureName, number> {
  return new Map(learn.map((f) => [f, Math.max(0.25, Math.min(10, start[f]))]));
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
    next[f] = Math.min(MAX_WEIGHT, Math.max(0, w - lambda * (w - start[f])));
  }
  return { weights: next, moved };
}

/** Running mean of weight vectors (the averaged perceptron generalises better than its last vector). */
class Average {
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

/** Fits the weights of `base` on `train`; returns each epoch's averaged weights. */
export async function learnWeights(
  train: readonly LabelledRecord[],
  base: CostModel,
  options: LearnOptions,
): Promise<LearnEpoch[]> {
  const log = options.log ?? (() => {});
  const learn = options.learn ?? LEARNED;
  const scale = scales(base.weights, learn);
  const rng = mulberry32(options.seed);
  const average = new Average();
  let weights = base.weights;
  const epochs: LearnEpoch[] = [];
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    let updates = 0;
    let skipped = 0;
    let inseparable = 0;
    let restored = 0;
    for (const record of shuffled(rng, train)) {
      const model = { ...base, weights };
      const predicted = await solvePoint(record, model, options);
      if (predicted === null) continue;
      if (predicted.restored) restored++;
      else {
        const gold = await solvePoint(record, model, { ...options, towardsGold: true });
        if (gold === null || !gold.restored) skipped++;
        else {
          const step = featureStep(
            weights,
            base.weights,
            predicted.features,
            gold.features,
            options.rate,
            options.lambda,
            scale,
          );
          if (step.moved) {
            weights = step.weights;
            updates++;
          } else inseparable++;
        }
      }
      average.add(weights);
    }
    const averaged = average.mean(base.weights);
    epochs.push({ epoch, updates, skipped, inseparable, restored, weights: averaged });
    log(
      `epoch ${epoch}: ${restored}/${train.length} restored in the pass, ${updates} steps, ${skipped} skipped, ${inseparable} inseparable`,
    );
  }
  return epochs;
}

/** The base model with fitted weights, validated like any preset. */
export function learnedModel(
  base: CostModel,
  weights: Weights,
  name: string,
  description: string,
): CostModel {
  return parseCostModel({ ...base, name, description, weights });
}
