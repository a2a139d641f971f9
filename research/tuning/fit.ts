/**
 * Learning the cost model's weights from labelled repairs, by one of two methods:
 *
 * - `mert` (the default): minimum-error-rate training (`line-fit.ts`): the training score itself is
 *   maximised by exact line searches over pooled candidate repairs, each world weighing the same, and no
 *   world may lose a record (`guard`).
 * - `perceptron`: the averaged structured perceptron of `perceptron.ts` on feature vectors. Per training
 *   record (in a seeded order): solve under the current weights; when the optimum misses the gold (restored
 *   modulo unknowns), solve again constrained to the gold (`solvePoint({towardsGold})`) and step on the two
 *   points' feature difference, pulled towards the starting weights. A record whose gold the model cannot
 *   hold is skipped and counted. After every epoch the averaged weights are scored on every evaluation set.
 */
import type { CostModel, Weights, WeightName } from '../../src/model/cost.ts';
import type { FeatureName } from '../../src/model/features.ts';
import { parseCostModel, withWeights } from '../../src/read/cost-models.ts';
import { mulberry32, shuffled } from '../../src/model/prng.ts';
import type { LabelledRecord } from './dataset.ts';
import { evaluateSetting, type EvalOptions, type Setting } from './evaluate.ts';
import { solvePoint } from './gold-point.ts';
import { featureStep, LEARNED, stepScales, WeightAverage } from './perceptron.ts';
import type { EpochReport, FitMethod, FitResult, Score } from './fit-types.ts';
import { fitByLineSearch, LINE_FIT_DEFAULTS, type LineFitOptions } from './line-fit.ts';

export interface FitOptions extends EvalOptions {
  /** How the weights are learned (default `perceptron` here; the command line's default is `mert`). */
  readonly method?: FitMethod;
  /** The options of `mert` (`line-fit.ts`); unset ones take LINE_FIT_DEFAULTS. */
  readonly mert?: Partial<Omit<LineFitOptions, keyof EvalOptions | 'learn' | 'log'>>;
  readonly epochs: number;
  /** Learning rate η. */
  readonly rate: number;
  /** Pull towards the starting weights after every step, in [0, 1). */
  readonly lambda?: number;
  readonly seed: number;
  /**
   * Margin of the loss-augmented solve (`solvePoint({margin})`): a record is stepped on whenever a point
   * within this many units per contradicted decision of its optimum misses the gold, not only when the
   * optimum does (0: the plain perceptron).
   */
  readonly margin?: number;
  /** Features to learn (default: every edit and evidence feature but the fixed ones, `LEARNED`). */
  readonly learn?: readonly FeatureName[];
  readonly log?: (line: string) => void;
}

async function scoreAll(
  sets: Readonly<Record<string, readonly LabelledRecord[]>>,
  model: CostModel,
  options: EvalOptions,
): Promise<Record<string, Score>> {
  const out: Record<string, Score> = {};
  for (const [name, records] of Object.entries(sets)) {
    const r = await evaluateSetting(records, model, {}, options);
    out[name] = {
      n: r.n,
      restored: r.restored,
      executable: r.executable,
      restorationCi: r.restorationCi,
      outcomes: r.records.map((record) => record.restored),
    };
  }
  return out;
}

export function evalOptions(options: FitOptions): EvalOptions {
  const { epochs, rate, lambda, seed, learn, log, margin, method, mert, ...rest } = options;
  void [epochs, rate, lambda, seed, learn, log, margin, method, mert];
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
  const scale = stepScales(base.weights, options.learn ?? LEARNED);
  let weights = start;
  const tally = { updates: 0, inseparable: 0, skipped: 0, restoredInPass: 0 };
  for (const record of shuffled(rng, train)) {
    const model = { ...base, weights };
    const predicted = await solvePoint(record, model, { ...eval_, margin: options.margin });
    if (predicted?.restored) tally.restoredInPass++;
    else if (predicted) {
      const gold = await solvePoint(record, model, { ...eval_, towardsGold: true });
      if (!gold?.restored) tally.skipped++;
      else {
        const step = featureStep(
          weights,
          base.weights,
          predicted.features,
          gold.features,
          options.rate,
          options.lambda ?? 0,
          scale,
        );
        if (step.moved) {
          weights = step.weights;
          tally.updates++;
        } else tally.inseparable++;
      }
    }
    average.add(weights);
  }
  return { ...tally, weights };
}

/**
 * Fits the weights of `base` on `train`; `evaluation` names the sets scored before and after every epoch
 * (the training set is scored as `train`).
 */
export async function fitWeights(
  train: readonly LabelledRecord[],
  evaluation: Readonly<Record<string, readonly LabelledRecord[]>>,
  base: CostModel,
  options: FitOptions,
): Promise<FitResult> {
  if (options.method === 'mert') {
    const eval_ = evalOptions(options);
    const fit = await fitByLineSearch(
      train,
      evaluation,
      base,
      { ...LINE_FIT_DEFAULTS, ...options.mert, ...eval_, learn: options.learn, log: options.log },
      (sets, model) => scoreAll(sets, model, eval_),
    );
    return {
      method: 'mert',
      before: fit.before,
      epochs: fit.epochs,
      chosen: fit.chosen,
      model: fittedModel(base, fit.weights, options),
      ...(fit.goldNotHeld !== undefined ? { goldNotHeld: fit.goldNotHeld } : {}),
    };
  }
  return fitByPerceptron(train, evaluation, base, options);
}

async function fitByPerceptron(
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
      `epoch ${epoch}: ${pass.updates} updates, ${pass.inseparable} inseparable, ${pass.skipped} skipped; ` +
        formatScores(scores),
    );
  }
  const finalWeights = epochs.at(-1)?.weights ?? base.weights;
  return {
    method: 'perceptron',
    before,
    epochs,
    chosen: epochs.length,
    model: fittedModel(base, finalWeights, options),
  };
}

function formatScores(scores: Readonly<Record<string, Score>>): string {
  return Object.entries(scores)
    .map(([name, s]) => `${name} ${s.restored}/${s.n}`)
    .join(', ');
}

/** The fitted cost model: the base's knobs with the learned weights, validated like any preset. */
export function fittedModel(base: CostModel, weights: Weights, options: FitOptions): CostModel {
  const how =
    options.method === 'mert'
      ? `by minimum-error-rate training on pooled repairs (${JSON.stringify({ ...LINE_FIT_DEFAULTS, ...options.mert })})`
      : `by an averaged structured perceptron on feature vectors (${options.epochs} epochs, rate ` +
        `${options.rate}, lambda ${options.lambda ?? 0}, margin ${options.margin ?? 0}, seed ${options.seed})`;
  const { calibration: _calibration, ...rest } = base;
  void _calibration;
  return parseCostModel({
    ...rest,
    name: 'fitted',
    description: `Weights fitted ${how} from base ${base.name ?? 'model'}; see docs/research.md.`,
    weights,
  });
}

/** Weight overrides that differ from `base` (for reports). */
export function changedWeights(base: Weights, fitted: Weights): Setting {
  const out: Setting = {};
  for (const k of Object.keys(base) as WeightName[]) if (fitted[k] !== base[k]) out[k] = fitted[k];
  return out;
}
