/**
 * k-fold cross-validation of a fit: the training golds in `k` folds (all corruptions of one gold in one
 * fold); each fold is scored by the base and by the model fitted on the other folds. Every record is scored
 * once, on the fold that held it out; the gain's 95 % interval is a paired bootstrap over those records.
 */
import type { CostModel } from '../../src/model/cost.ts';
import { bootstrapPairedDifference, flags, type Interval } from './bootstrap.ts';
import type { LabelledRecord } from './dataset.ts';
import { evaluateSetting } from './evaluate.ts';
import { evalOptions as fitEvalOptions, fitWeights, type FitOptions } from './fit.ts';
import { foldsByGold } from './split.ts';

export interface FoldScore {
  readonly fold: number;
  readonly n: number;
  readonly before: number;
  readonly after: number;
}

export interface CrossValidation {
  readonly folds: readonly FoldScore[];
  readonly n: number;
  readonly before: number;
  readonly after: number;
  /** 95 % interval of the restoration gain (after − before), as a fraction of the records. */
  readonly gain: Interval;
}

export async function crossValidate(
  records: readonly LabelledRecord[],
  base: CostModel,
  k: number,
  options: FitOptions,
): Promise<CrossValidation> {
  const folds = foldsByGold(records, k, options.seed);
  const { log } = options;
  const evalOptions = fitEvalOptions(options);
  const scores: FoldScore[] = [];
  const before: boolean[] = [];
  const after: boolean[] = [];
  for (let f = 0; f < k; f++) {
    const train = folds.flatMap((fold, g) => (g === f ? [] : fold));
    const held = folds[f];
    if (held.length === 0) continue;
    const fitted = await fitWeights(train, {}, base, { ...options, log: undefined });
    const a = await evaluateSetting(held, base, {}, evalOptions);
    const b = await evaluateSetting(held, fitted.model, {}, evalOptions);
    a.records.forEach((r) => before.push(r.restored));
    b.records.forEach((r) => after.push(r.restored));
    scores.push({ fold: f + 1, n: held.length, before: a.restored, after: b.restored });
    log?.(`fold ${f + 1}/${k}: ${a.restored}/${held.length} -> ${b.restored}/${held.length}`);
  }
  return {
    folds: scores,
    n: before.length,
    before: before.filter(Boolean).length,
    after: after.filter(Boolean).length,
    gain: bootstrapPairedDifference(flags(after), flags(before)),
  };
}
