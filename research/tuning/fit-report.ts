/** Fit output: scores before and after, per epoch, and the fitted weights against the base. */
import type { CostModel, WeightName } from '../../src/model/cost.ts';
import { pct, table } from '../bench/markdown.ts';
import type { LabelledRecord } from './dataset.ts';
import { changedWeights, type FitResult, type Score } from './fit.ts';
import { golds } from './split.ts';
import { interval } from './breakdown.ts';

/** `70.2% (337/480; 66.0–74.4%)`: the rate, the counts and the 95 % bootstrap interval. */
const cell = (s: Score | undefined) =>
  s ? `${pct(s.restored, s.n)} (${s.restored}/${s.n}; ${interval(s.restorationCi)})` : '–';

/** Restoration per evaluation set: before, after every epoch. */
export function epochTable(result: FitResult): string {
  const names = Object.keys(result.before);
  return table(
    [
      'epoch',
      'restored in the pass',
      'updates',
      'inseparable',
      'skipped (gold not held)',
      ...names.map((n) => `${n} restored`),
    ],
    [
      ['before', '–', '–', '–', '–', ...names.map((n) => cell(result.before[n]))],
      ...result.epochs.map((e) => [
        String(e.epoch),
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

/** One sentence per evaluation set other than `train`: does the fit beat the base there? */
export function verdicts(result: FitResult): string[] {
  const last = result.epochs.at(-1);
  if (!last) return ['No epochs were run.'];
  return Object.keys(result.before)
    .filter((n) => n !== 'train')
    .map((n) => {
      const a = result.before[n];
      const b = last.scores[n];
      const d = b.restored - a.restored;
      const how =
        d > 0 ? `beats the base by ${d}` : d === 0 ? 'ties the base' : `loses ${-d} against the base`;
      return `- **${n}**: ${cell(a)} before, ${cell(b)} after: the fitted model ${how}.`;
    });
}

export function fitSummary(result: FitResult, base: CostModel): string {
  return [
    '### Restoration per epoch (averaged weights)',
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
      `held out: ${held}. Start: \`${run.start}\`; changed weights: \`${changed}\`.`,
    '',
    fitSummary(result, base),
  ].join('\n');
}
