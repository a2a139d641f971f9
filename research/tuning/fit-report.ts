/** Fit output: scores before and after, per epoch, and the fitted weights against the base. */
import type { CostModel, WeightName } from '../../src/model/cost.ts';
import { pct, table } from '../bench/markdown.ts';
import type { LabelledRecord } from './dataset.ts';
import { changedWeights } from './fit.ts';
import type { FitResult, Score } from './fit-types.ts';
import { bootstrapPairedDifference, flags } from './bootstrap.ts';
import { golds } from './split.ts';
import { interval } from './breakdown.ts';
import type { CrossValidation } from './cross-validate.ts';

/** `70.2% (337/480; 66.0–74.4%)`: the rate, the counts and the 95 % bootstrap interval. */
const cell = (s: Score | undefined) =>
  s ? `${pct(s.restored, s.n)} (${s.restored}/${s.n}; ${interval(s.restorationCi)})` : '–';

/** Restoration per evaluation set: before, after every epoch (the chosen one marked). */
export function epochTable(result: FitResult): string {
  const names = Object.keys(result.before);
  const mert = result.method === 'mert';
  return table(
    [
      mert ? 'round' : 'epoch',
      'restored in the pass',
      mert ? 'weight moves' : 'updates',
      mert ? 'inseparable (pooled)' : 'inseparable',
      'skipped (gold not held)',
      ...names.map((n) => `${n} restored`),
    ],
    [
      [
        result.chosen === 0 && mert ? 'before (chosen)' : 'before',
        '–',
        '–',
        '–',
        result.goldNotHeld ?? '–',
        ...names.map((n) => cell(result.before[n])),
      ],
      ...result.epochs.map((e) => [
        mert && e.epoch === result.chosen ? `${e.epoch} (chosen)` : String(e.epoch),
        e.restoredInPass,
        e.updates,
        e.inseparable,
        e.skipped,
        ...names.map((n) => cell(e.scores[n])),
      ]),
    ],
  );
}

/** Every weight of the base next to its fitted value; changed ones marked. */
export function weightsTable(base: CostModel, fitted: CostModel): string {
  const rows = (Object.keys(base.weights) as WeightName[]).map((k) => {
    const a = base.weights[k];
    const b = fitted.weights[k];
    return [k, a, b, a === b ? '' : `${b > a ? '+' : ''}${(b - a).toFixed(4)}`];
  });
  return table(['weight', 'base', 'fitted', 'change'], rows);
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;

/** `; paired 95% interval −1.7 to +5.0 points: not a clear gain`, when both scores have their records. */
function paired(before: Score, after: Score, d: number): string {
  if (d === 0 || !before.outcomes || !after.outcomes || before.outcomes.length !== after.outcomes.length)
    return '';
  const ci = bootstrapPairedDifference(flags(after.outcomes), flags(before.outcomes));
  const clear = ci.lo > 0 || ci.hi < 0 ? 'the interval excludes 0' : 'not a clear difference';
  return `; paired 95% interval ${signed(ci.lo)} to ${signed(ci.hi)} points: ${clear}`;
}

/** One sentence per evaluation set other than `train`: does the fitted model beat the base there? */
export function verdicts(result: FitResult): string[] {
  const unheld = result.goldNotHeld
    ? [
        `${result.goldNotHeld} training golds could not be held by the repair model (no weight makes the repair restore them): they are no target of the fit.`,
        '',
      ]
    : [];
  if (result.epochs.length === 0)
    return [
      ...unheld,
      result.method === 'mert'
        ? 'No weight moved: no move of a learned weight restored more training records. The fitted model is the base.'
        : 'No epochs were run.',
    ];
  const chosen = result.epochs.find((e) => e.epoch === result.chosen);
  if (!chosen)
    return [...unheld, 'No round kept every training set and restored more: the fitted model is the base.'];
  return [
    ...unheld,
    ...Object.keys(result.before)
      .filter((n) => n !== 'train')
      .map((n) => {
        const a = result.before[n];
        const b = chosen.scores[n];
        const d = b.restored - a.restored;
        const how =
          d > 0 ? `beats the base by ${d}` : d === 0 ? 'ties the base' : `loses ${-d} against the base`;
        return `- **${n}**: ${cell(a)} before, ${cell(b)} after: the fitted model ${how}${paired(a, b, d)}.`;
      }),
  ];
}

export function fitSummary(result: FitResult, base: CostModel): string {
  return [
    result.method === 'mert'
      ? '### Restoration per round (pooled line searches, then solved)'
      : '### Restoration per epoch (averaged weights)',
    '',
    epochTable(result),
    '',
    '### Held-out verdict',
    '',
    ...verdicts(result),
    '',
    '### Weights',
    '',
    weightsTable(base, result.model),
    '',
  ].join('\n');
}

export interface FitRun {
  readonly header: string;
  readonly train: readonly LabelledRecord[];
  readonly trainSets: readonly string[];
  readonly evaluation: Readonly<Record<string, readonly LabelledRecord[]>>;
  /** How the weights started (`default`, `default with every fitted weight at 1`). */
  readonly start: string;
}

/** The markdown page of a fit: what it ran on, then `fitSummary`. */
export function fitPage(result: FitResult, base: CostModel, run: FitRun): string {
  const held = Object.entries(run.evaluation)
    .map(([n, rs]) => `${n} ${rs.length} records (${golds(rs)})`)
    .join('; ');
  const changed = JSON.stringify(changedWeights(base.weights, result.model.weights));
  return [
    run.header,
    `Train: ${run.train.length} records of ${run.trainSets.join(', ')} (${golds(run.train)}); ` +
      `held out: ${held || 'none'}. Start: \`${run.start}\`; changed weights: \`${changed}\`.`,
    '',
    fitSummary(result, base),
  ].join('\n');
}

/** The cross-validation section: restoration per held-out fold, before and after, and the gain's interval. */
export function crossValidationSection(cv: CrossValidation, k: number): string {
  const rows = cv.folds.map((f) => [String(f.fold), f.n, pct(f.before, f.n), pct(f.after, f.n)]);
  rows.push(['**all**', cv.n, pct(cv.before, cv.n), pct(cv.after, cv.n)]);
  const points = (x: number) => `${(100 * x).toFixed(1)}`;
  return [
    `### ${k}-fold cross-validation`,
    '',
    table(['fold', 'records', 'base restored', 'fitted restored'], rows),
    '',
    `Gain on held-out folds: ${points((cv.after - cv.before) / Math.max(cv.n, 1))} points ` +
      `(95% interval ${points(cv.gain.lo)} to ${points(cv.gain.hi)}).`,
    '',
  ].join('\n');
}
