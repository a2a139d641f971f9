/** The shapes of a fit's result, shared by both methods (`fit.ts`, `line-fit.ts`). */
import type { CostModel, Weights } from '../../src/model/cost.ts';
import type { Interval } from './bootstrap.ts';

export type FitMethod = 'mert' | 'perceptron';
export const FIT_METHODS: readonly FitMethod[] = ['mert', 'perceptron'];

/** Restoration (modulo unknowns) on one evaluation set. */
export interface Score {
  readonly n: number;
  readonly restored: number;
  readonly executable: number;
  /** 95 % bootstrap interval of the restoration rate. */
  readonly restorationCi: Interval;
  /** Whether each record was restored, in the set's order (for paired comparisons between models). */
  readonly outcomes?: readonly boolean[];
}

export interface EpochReport {
  /** The epoch (perceptron) or round (mert). */
  readonly epoch: number;
  /** Training records whose optimum missed the gold and were stepped on (perceptron); weight moves (mert). */
  readonly updates: number;
  /** Missed records whose gold point charges the same features as the optimum (nothing to learn). */
  readonly inseparable: number;
  /** Missed records whose gold the model cannot hold (no step): the model's candidate coverage misses. */
  readonly skipped: number;
  /** Training records whose optimum was the gold during the pass. */
  readonly restoredInPass: number;
  /** The averaged weights after this epoch. */
  readonly weights: Weights;
  /** Scores of the averaged weights, per evaluation set (`train` first). */
  readonly scores: Readonly<Record<string, Score>>;
}

export interface FitResult {
  readonly method: FitMethod;
  readonly before: Readonly<Record<string, Score>>;
  readonly epochs: readonly EpochReport[];
  /**
   * The epoch whose weights the model has (0: none, the base's): the last one for the perceptron, the best
   * round that keeps every training set for mert.
   */
  readonly chosen: number;
  /** The base model with the chosen weights; validates with CostModelSchema. */
  readonly model: CostModel;
  /**
   * Training records whose gold the first solve could not hold (mert): no weight can make the repair restore
   * them, so they are no target of the fit.
   */
  readonly goldNotHeld?: number;
}
