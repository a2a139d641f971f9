/**
 * Learning edit weights from labelled repairs: an averaged structured perceptron whose argmin is the MILP.
 * Per training record (in a seeded order): repair under the current weights; when the repair misses the
 * gold's data flow, find the cheapest repair that hits it (`findGoldRepair`) and step the weights towards
 * it (`perceptronStep`). With a margin, restored records whose best wrong repair is nearly as cheap are
 * stepped on too (away from it). After every epoch the averaged weights are scored on every evaluation set.
 */
import type { CostModel, Weights, WeightName } from '../../src/model/cost.ts';
import { parseCostModel, withWeights } from '../../src/read/cost-models.ts';
import { mulberry32, shuffled } from '../../src/model/prng.ts';
import type { Edit, Sequence } from '../../src/model/types.ts';
import type { LabelledRecord } from './dataset.ts';
import { evaluateSetting, repairRecord, type EvalOptions, type Setting } from './evaluate.ts';
import { findGoldRepair, findRival, type GoldSearch } from './gold-repair.ts';
import type { Interval } from './bootstrap.ts';
import { editCounts, EDIT_WEIGHTS, perceptronStep, WeightAverage } from './perceptron.ts';

export interface FitOptions extends EvalOptions {
  readonly epochs: number;
  /** Learning rate η. */
  readonly rate: number;
  readonly seed: number;
  /** How the gold repair is searched (`findGoldRepair`). */
  readonly search?: GoldSearch;
  /**
   * Margin: a restored record whose cheapest wrong repair costs less than this much more than the optimum
   * is stepped on too (away from that rival). 0 = the plain perceptron (mistakes only).
   */
  readonly margin?: number;
  /** Weights to learn (default: every edit weight). */
  readonly learn?: readonly WeightName[];
  readonly log?: (line: string) => void;
}

/** Restoration on one evaluation set. */
export interface Score {
  readonly n: number;
  readonly restored: number;
  readonly executable: number;
  /** 95 % bootstrap interval of the restoration rate. */
  readonly restorationCi: Interval;
}

export interface EpochReport {
  readonly epoch: number;
  /** Training records whose repair missed the gold and were stepped on. */
  readonly updates: number;
  /** Of those, steps towards a gold repair found under raised weights (not proven cheapest). */
  readonly approximate: number;
  /** Restored training records stepped on because a wrong repair was within the margin. */
  readonly marginUpdates: number;
  /** Steps not taken: the wrong and the right repair charge the same weights (only paths differ). */
  readonly inseparable: number;
  /** Training records whose repair missed the gold and whose gold repair was not found. */
  readonly skipped: number;
  /** The averaged weights after this epoch. */
  readonly weights: Weights;
  /** Scores of the averaged weights, per evaluation set (`train` first). */
  readonly scores: Readonly<Record<string, Score>>;
}

export interface FitResult {
  readonly before: Readonly<Record<string, Score>>;
  readonly epochs: readonly EpochReport[];
  /** The base model with the final averaged weights; validates with CostModelSchema. */
  readonly model: CostModel;
}

async function scoreAll(
  sets: Readonly<Record<string, readonly LabelledRecord[]>>,
  model: CostModel,
  options: EvalOptions,
): Promise<Record<string, Score>> {
  const out: Record<string, Score> = {};
  for (const [name, records] of Object.entries(sets)) {
    const r = await evaluateSetting(records, model, {}, options);
    out[name] = { n: r.n, restored: r.restored, executable: r.executable, restorationCi: r.restorationCi };
  }
  return out;
}

function evalOptions(options: FitOptions): EvalOptions {
  const { epochs, rate, seed, search, margin, learn, log, ...rest } = options;
  void [epochs, rate, seed, search, margin, learn, log];
  return rest;
}

type Tally = Omit<EpochReport, 'epoch' | 'scores' | 'weights'>;

/** One pass over the training records; returns the weights after it and its counts. */
async function epochPass(
  train: readonly LabelledRecord[],
  base: CostModel,
  start: Weights,
  average: WeightAverage,
  rng: () => number,
  options: FitOptions,
): Promise<Tally & { weights: Weights }> {
  const eval_ = evalOptions(options);
  let weights = start;
  const tally = { updates: 0, approximate: 0, marginUpdates: 0, inseparable: 0, skipped: 0 };
  /** Steps away from `wrong` towards `right`; false when their counts are equal (nothing to learn). */
  const step = (wrong: readonly Edit[], right: readonly Edit[], input: Sequence): boolean => {
    const a = editCounts(wrong, input, options.resultName);
    const b = editCounts(right, input, options.resultName);
    const learn = options.learn ?? EDIT_WEIGHTS;
    if (learn.every((w) => (a[w] ?? 0) === (b[w] ?? 0))) {
      tally.inseparable++;
      return false;
    }
    weights = perceptronStep(weights, a, b, { rate: options.rate, learn });
    return true;
  };
  for (const record of shuffled(rng, train)) {
    const model = withWeights(base, weights);
    const predicted = await repairRecord(record, model, eval_);
    if (!predicted.restored && !predicted.failed) {
      const gold = await findGoldRepair(record, model, eval_, options.search);
      if (!gold) tally.skipped++;
      else if (step(predicted.edits, gold.edits, record.sequence)) {
        tally.updates++;
        if (!gold.exact) tally.approximate++;
      }
    } else if (predicted.restored && (options.margin ?? 0) > 0) {
      const rival = await findRival(record, model, eval_);
      if (rival && rival.gap < options.margin! && step(rival.edits, predicted.edits, record.sequence))
        tally.marginUpdates++;
    }
    average.add(weights);
  }
  return { ...tally, weights };
}

/**
 * Fits the edit weights of `base` on `train`; `evaluation` names the sets scored before and after every
 * epoch (the training set is scored as `train`).
 */
export async function fitWeights(
  train: readonly LabelledRecord[],
  evaluation: Readonly<Record<string, readonly LabelledRecord[]>>,
  base: CostModel,
  options: FitOptions,
): Promise<FitResult> {
  const log = options.log ?? (() => {});
  const sets = { train, ...evaluation };
  const eval_ = evalOptions(options);
  const before = await scoreAll(sets, base, eval_);
  log(`before: ${formatScores(before)}`);
  const rng = mulberry32(options.seed);
  const average = new WeightAverage();
  let weights = base.weights;
  const epochs: EpochReport[] = [];
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    const pass = await epochPass(train, base, weights, average, rng, options);
    weights = pass.weights;
    const averaged = average.mean(base.weights);
    const scores = await scoreAll(sets, withWeights(base, averaged), eval_);
    epochs.push({ ...pass, epoch, weights: averaged, scores });
    log(
      `epoch ${epoch}: ${pass.updates} updates (${pass.approximate} approximate), ` +
        `${pass.marginUpdates} margin updates, ${pass.inseparable} inseparable, ${pass.skipped} skipped; ` +
        formatScores(scores),
    );
  }
  const finalWeights = epochs.at(-1)?.weights ?? base.weights;
  return { before, epochs, model: fittedModel(base, finalWeights, options) };
}

function formatScores(scores: Readonly<Record<string, Score>>): string {
  return Object.entries(scores)
    .map(([name, s]) => `${name} ${s.restored}/${s.n}`)
    .join(', ');
}

/** The fitted cost model: the base's knobs with the learned weights, validated like any preset. */
export function fittedModel(base: CostModel, weights: Weights, options: FitOptions): CostModel {
  return parseCostModel({
    ...base,
    name: 'fitted',
    description:
      `Edit weights fitted by an averaged structured perceptron (${options.epochs} epochs, rate ` +
      `${options.rate}, margin ${options.margin ?? 0}, seed ${options.seed}) from base ` +
      `${base.name ?? 'model'}; see docs/research.md.`,
    weights,
  });
}

/** Weight overrides that differ from `base` (for reports). */
export function changedWeights(base: Weights, fitted: Weights): Setting {
  const out: Setting = {};
  for (const k of Object.keys(base) as WeightName[]) if (fitted[k] !== base[k]) out[k] = fitted[k];
  return out;
}
