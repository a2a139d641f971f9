/**
 * `npm run learn`: the shipped default's weights, learned (`refract fit`'s minimum-error-rate training) on
 * a documented training mix, and judged on held-out records of every world.
 *
 * The mix: every labelled record of the benchmark (both corruption recipes on the three NESTFUL sets, the
 * second on the four synthetic worlds with other naming habits) and the large-catalog worlds of 1,000 and
 * 10,000 APIs (the shipped records against the large catalog, and the flat plans of independent calls),
 * every `every`-th record of those. A share of the golds is held out: every corruption of one gold plan
 * goes to the same side, in every world (the same plan against a small and a large catalog too). The fit
 * starts from `models/hand-tuned.json` (the default before any was learned), and each world weighs the
 * same in it. The page (`benchmarks/results/learned.md`) has per world the held-out restoration before →
 * after, with 95 % intervals of each and of the paired difference, per mistake kind too.
 */
import { join } from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { requestSettings } from '../../src/api/call.ts';
import type { ApiRequest } from '../../src/api/request.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import { parseSequenceText } from '../../src/read/sequence.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { loadCostModel } from '../../src/read/cost-models.ts';
import { FEATURE_NAMES } from '../../src/model/features.ts';
import {
  bootstrapMean,
  bootstrapPairedDifference,
  fitWeights,
  flags,
  LINE_FIT_DEFAULTS,
  repairRecord,
  splitByPlan,
  type FitResult,
  type LabelledRecord,
} from '../tuning/index.ts';
import { learningMix, MIX_WORLDS } from './records.ts';
import { kindGroup } from './evaluate.ts';
import { machine, pageHeader, pct, table } from './markdown.ts';
import { ROOT } from './data.ts';

export interface LearnOptions {
  /** Large-catalog worlds in the mix (API counts). */
  readonly large: readonly number[];
  /** Every `every`-th record of a large world. */
  readonly every: number;
  /** Share of the golds held out. */
  readonly holdout: number;
  readonly seed: number;
  readonly rounds: number;
  /** The share of a world's training records the fit may lose (the guard's slack). */
  readonly guardSlack: number;
  /** How far a weight may move in one round (mert's trust box, `reach`). */
  readonly reach: number;
  readonly log: (line: string) => void;
}

export const LEARN_DEFAULTS = {
  large: MIX_WORLDS.large,
  every: MIX_WORLDS.every,
  holdout: 0.3,
  seed: 1,
  rounds: LINE_FIT_DEFAULTS.rounds,
  guardSlack: LINE_FIT_DEFAULTS.guardSlack,
  reach: LINE_FIT_DEFAULTS.reach,
} as const;

export const START_MODEL = 'hand-tuned';
export const LEARNED_DESCRIPTION =
  'Weights learned by `npm run learn` (refract fit --method mert from hand-tuned on the benchmark, the large-catalog worlds and the repair cases; benchmarks/results/learned.md). Value edits < parameter-name edits < API edits and new calls; slot-filling, mapping and new calls all on.';

/** `a 1 -> 2, b 3 -> 4`: the weights a model moved from another. */
export function movedWeights(model: CostModel, from: CostModel): string {
  const moved = FEATURE_NAMES.filter((f) => model.weights[f] !== from.weights[f]);
  return moved.length === 0
    ? 'none'
    : moved.map((f) => `${f} ${from.weights[f]} -> ${model.weights[f]}`).join(', ');
}
const MODEL_FILE = join(ROOT, 'models', 'default.json');
const PAGE = join(ROOT, 'benchmarks', 'results', 'learned.md');

/** The repair cases the learned default must keep (test/cases: one world, judged exactly). */
export const CASES_DIR = join(ROOT, 'test', 'cases');
const CASE_OPTIONS = new Set([
  'memory',
  'executed',
  'maxTries',
  'defensive',
  'allowInsert',
  'goals',
  'mode',
  'givenOnly',
]);

/**
 * The repair cases of test/cases as labelled records of the world `cases`: the input, its options, and the
 * expected repair as an exact gold. Only the cases repaired under the default cost model (no `costModel`,
 * no `weights`, no mapping file) and expected `repaired` are the default's to keep.
 */
export function caseRecords(dir = CASES_DIR): LabelledRecord[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const spec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        catalog: string;
        input: string[];
        options: Record<string, unknown>;
        expect: { status: string; sequence: string[] };
      };
      if (spec.expect.status !== 'repaired' || Object.keys(spec.options).some((k) => !CASE_OPTIONS.has(k)))
        return [];
      const { options } = requestSettings('fix', spec.options as ApiRequest, { files: true });
      const { cost: _cost, ...rest } = options;
      void _cost;
      return [
        {
          id: `cases/${file.replace(/\.json$/, '')}`,
          kind: 'case',
          set: 'cases',
          sequence: parseSequenceText(spec.input.join('\n')),
          gold: parseSequenceText(spec.expect.sequence.join('\n')),
          catalog: loadCatalog(join(ROOT, spec.catalog)),
          options: rest,
          exact: true,
        },
      ];
    });
}

interface Judged {
  readonly record: LabelledRecord;
  readonly before: boolean;
  readonly after: boolean;
}

async function judgeBoth(records: readonly LabelledRecord[], start: CostModel, learned: CostModel) {
  const out: Judged[] = [];
  for (const record of records) {
    const a = await repairRecord(record, start, { confidence: false });
    const b = await repairRecord(record, learned, { confidence: false });
    out.push({ record, before: a.restored, after: b.restored });
  }
  return out;
}

const points = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
const rate = (xs: readonly boolean[]) => {
  const ci = bootstrapMean(flags([...xs]));
  const k = xs.filter(Boolean).length;
  return `${pct(k, xs.length)} (${(100 * ci.lo).toFixed(1)}–${(100 * ci.hi).toFixed(1)})`;
};

function groupRows(judged: readonly Judged[], keyOf: (j: Judged) => string): (string | number)[][] {
  const keys = [...new Set(judged.map(keyOf))];
  const row = (name: string, js: readonly Judged[]) => {
    const before = js.map((j) => j.before);
    const after = js.map((j) => j.after);
    const diff = bootstrapPairedDifference(flags(after), flags(before));
    const d = (after.filter(Boolean).length - before.filter(Boolean).length) / Math.max(1, js.length);
    return [
      name,
      js.length,
      rate(before),
      rate(after),
      `${points(d)} (${points(diff.lo)} to ${points(diff.hi)})`,
    ];
  };
  return [
    ...keys.map((k) =>
      row(
        k,
        judged.filter((j) => keyOf(j) === k),
      ),
    ),
    row('**all**', judged),
  ];
}

/** The learned.md page. */
export function learnedPage(
  fit: FitResult,
  judged: readonly Judged[],
  start: CostModel,
  options: LearnOptions,
  train: readonly LabelledRecord[],
): string {
  const headers = ['world', 'held-out records', 'hand-tuned', 'learned', 'change, points (95% interval)'];
  const worlds = table(
    headers,
    groupRows(judged, (j) => j.record.set),
  );
  const kinds = table(
    ['mistake', 'held-out records', 'hand-tuned', 'learned', 'change, points (95% interval)'],
    groupRows(judged, (j) => kindGroup(j.record.kind)),
  );
  const moved = FEATURE_NAMES.filter((f) => fit.model.weights[f] !== start.weights[f]).map((f) => [
    `\`${f}\``,
    start.weights[f],
    fit.model.weights[f],
  ]);
  const sets = [...new Set(train.map((r) => r.set))];
  return [
    pageHeader('The learned default', machine(), 'npm run learn'),
    `The shipped \`default\` cost model's weights are learned by \`refract fit --method mert\` (minimum-error-rate`,
    `training: the training score itself, each world weighing the same, no world restoring fewer training records`,
    `than at the start) from \`${START_MODEL}\`, on ${train.length} records of ${sets.length} worlds: ${sets.join(', ')}.`,
    `The large worlds are every ${options.every}th record of theirs; \`cases\` are the repair cases of \`test/cases\``,
    `run under the default cost model, each judged on its exact expected repair and all of them in training, so`,
    `that the guard keeps every one. The rest is judged on held-out golds: ${Math.round(100 * options.holdout)} % of the`,
    `gold plans (seed ${options.seed}), every corruption of a held-out plan in every world. Restored = restored modulo`,
    `unknowns; intervals are 95 % bootstrap intervals (the change's is paired). Regenerate the calibration after`,
    `this (\`npm run calibrate\`): a calibration belongs to the weights it was fitted for.`,
    '',
    table(
      ['round', 'weight moves', 'train restored', 'golds not held'],
      [
        ['start', '–', `${fit.before.train.restored}/${fit.before.train.n}`, '–'],
        ...fit.epochs.map((e) => [
          e.epoch === fit.chosen ? `${e.epoch} (chosen)` : String(e.epoch),
          e.updates,
          `${e.scores.train.restored}/${e.scores.train.n}`,
          e.skipped,
        ]),
      ],
    ),
    '',
    '## Held-out records per world',
    '',
    worlds,
    '',
    '## Held-out records per mistake kind (every world)',
    '',
    kinds,
    '',
    '## Weights the fit moved',
    '',
    moved.length === 0
      ? 'None: no round kept every world and restored more.'
      : table(['weight', START_MODEL, 'learned'], moved),
    '',
  ].join('\n');
}

/** Fits, judges, and returns the learned model and the page (the caller writes them). */
export async function learnDefault(options: LearnOptions) {
  const start = loadCostModel(START_MODEL);
  const records = learningMix(options.large, options.every);
  const split = splitByPlan(records, options.holdout, options.seed);
  // Every repair case is a training record: the guard keeps each one the start repairs as written.
  const train = [...split.train, ...caseRecords()];
  const heldOut = split.heldOut;
  options.log(
    `learn: ${train.length} training records (${train.length - split.train.length} repair cases), ${heldOut.length} held out`,
  );
  const fit = await fitWeights(train, {}, start, {
    method: 'mert',
    mert: { rounds: options.rounds, guardSlack: options.guardSlack, reach: options.reach },
    epochs: 0,
    rate: 0,
    seed: options.seed,
    confidence: false,
    log: options.log,
  });
  const judged = await judgeBoth(heldOut, start, fit.model);
  return { fit, page: learnedPage(fit, judged, start, options, train) };
}

/** `npm run learn`: writes the learned weights into models/default.json and the page. */
export async function shipLearned(options: LearnOptions): Promise<string> {
  const { fit, page } = await learnDefault(options);
  const shipped = JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as Record<string, unknown>;
  const { calibration: _old, ...rest } = shipped;
  void _old;
  const description = `${LEARNED_DESCRIPTION} Moved from ${START_MODEL}: ${movedWeights(fit.model, loadCostModel(START_MODEL))}.`;
  writeFileSync(
    MODEL_FILE,
    `${JSON.stringify({ ...rest, description, weights: fit.model.weights }, null, 2)}\n`,
  );
  writeFileSync(PAGE, page);
  return page;
}
