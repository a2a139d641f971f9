/**
 * The perceptron's features and update. A repair's cost is linear in the weights; its feature vector here
 * counts, per weight, the edits charged with that weight (`Edit.kind`), with two corrections that follow
 * the compiler's charges: a dropped argument of the answer step is a `dropResult`, and a deleted step
 * also drops its arguments (`deleteStep + n · dropParam`). Scaled charges (`newMap · (2 − score)`,
 * renames plus `dissimilarity`) count as 1: the count is the weight's share up to that scale.
 */
import type { Weights, WeightName } from '../../src/model/cost.ts';
import type { Edit, Sequence } from '../../src/model/types.ts';

export type Counts = Partial<Record<WeightName, number>>;

/** The edit weights a fit may move; `perCall`, `dissimilarity`, `tieBreak` and `confirm` stay put. */
export const EDIT_WEIGHTS: readonly WeightName[] = [
  'deleteStep',
  'renameApi',
  'renameParam',
  'dropParam',
  'dropResult',
  'reassign',
  'newMap',
  'slotFill',
  'fromMemory',
  'reuseLiteral',
  'insertCall',
  'restoreStep',
  'relabel',
  'addLabel',
  'moveStep',
];

export const MIN_WEIGHT = 0.01;
export const MAX_WEIGHT = 50;

/** Feature vector of a repair: how many times each weight is charged by its edits. */
export function editCounts(edits: readonly Edit[], input: Sequence, resultName = 'var_result'): Counts {
  const counts: Counts = {};
  const add = (w: WeightName, n = 1) => (counts[w] = (counts[w] ?? 0) + n);
  for (const edit of edits) {
    const step = input[edit.step];
    if (edit.kind === 'dropParam' && step?.name === resultName) add('dropResult');
    else add(edit.kind);
    if (edit.kind === 'deleteStep' && step) add('dropParam', Object.keys(step.arguments).length);
  }
  return counts;
}

export interface StepOptions {
  /** Learning rate η. */
  readonly rate: number;
  /** Weights the step may change (default: `EDIT_WEIGHTS`). */
  readonly learn?: readonly WeightName[];
  readonly min?: number;
  readonly max?: number;
}

/**
 * One structured-perceptron step for a minimisation: `w ← clip(w + η (φ(predicted) − φ(gold)))`. A weight
 * the wrong repair used more goes up, one the gold repair used more goes down, so the gold gets cheaper
 * relative to the prediction. Pure: returns new weights.
 */
export function perceptronStep(
  weights: Weights,
  predicted: Counts,
  gold: Counts,
  options: StepOptions,
): Weights {
  const lo = options.min ?? MIN_WEIGHT;
  const hi = options.max ?? MAX_WEIGHT;
  const next: Weights = { ...weights };
  for (const w of options.learn ?? EDIT_WEIGHTS) {
    const delta = (predicted[w] ?? 0) - (gold[w] ?? 0);
    if (delta !== 0) next[w] = Math.min(hi, Math.max(lo, weights[w] + options.rate * delta));
  }
  return next;
}

/** Running sum of weight vectors for the averaged perceptron (the average generalises better). */
export class WeightAverage {
  private readonly sum: Partial<Record<WeightName, number>> = {};
  private count = 0;

  add(weights: Weights): void {
    for (const [k, v] of Object.entries(weights) as [WeightName, number][])
      this.sum[k] = (this.sum[k] ?? 0) + v;
    this.count++;
  }

  /** The mean of the added vectors, rounded to 4 decimals (readable, and stable across runs). */
  mean(fallback: Weights): Weights {
    if (this.count === 0) return fallback;
    const out: Weights = { ...fallback };
    for (const k of Object.keys(fallback) as WeightName[])
      out[k] = Math.round(((this.sum[k] ?? 0) / this.count) * 1e4) / 1e4;
    return out;
  }
}
