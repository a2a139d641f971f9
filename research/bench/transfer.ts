/**
 * A fit on naming habits the default never saw (`npm run bench:transfer`, benchmarks/results/transfer.md): each
 * held-out habit (HELD_OUT_STYLE_NAMES in research/bench/worlds/styles.ts) rendered with `TRANSFER_PLANS` gold
 * plans and corrupted by the second recipe; mert from the shipped default fits on half of its golds, the rest
 * are held out. This is what a team does with a labelled sample of its own data. The worlds' files are written
 * to `.refract-cache/transfer/`, so `refract fit --data` can be run on them by hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCostModel } from '../../src/read/cost-models.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import {
  calibrateModel,
  calibrationTable,
  fitPage,
  fitWeights,
  golds,
  loadLabelled,
  measurePoints,
  repairRecord,
  splitByGold,
  type LabelledRecord,
} from '../tuning/index.ts';
import { flowJsonl, generateFlowRecords } from './flow-corrupt.ts';
import { ROOT } from './data.ts';
import { machine, pageHeader, table as markdownTable } from './markdown.ts';
import { syntheticSet } from './worlds/index.ts';
import { HELD_OUT_STYLE_NAMES, type StyleName } from './worlds/styles.ts';
import { confidenceOf } from '../../src/confidence/confidence.ts';
import { calibrationInForce, type Calibration } from '../../src/model/calibration.ts';

/** Gold plans of a held-out world: about five records each, so that half of them is some 500 records. */
export const TRANSFER_PLANS = 200;
/** Share of the golds held out, and the seed of the split. */
export const TRANSFER_HOLDOUT = 0.5;
export const TRANSFER_SEED = 1;

export const transferDir = (root = ROOT): string => join(root, '.refract-cache', 'transfer');

/** Writes a held-out world's catalog and records; returns their paths. */
export function writeTransferWorld(style: StyleName, dir = transferDir()): { spec: string; records: string } {
  const made = syntheticSet(style, TRANSFER_PLANS);
  mkdirSync(dir, { recursive: true });
  const paths = { spec: join(dir, `${style}-spec.json`), records: join(dir, `${style}.jsonl`) };
  writeFileSync(paths.spec, `${JSON.stringify(made.world.spec, null, 2)}\n`);
  writeFileSync(paths.records, flowJsonl(generateFlowRecords(made)));
  return paths;
}

type Tally = [restored: number, records: number];

/**
 * Repairs `records` under `cost`: restored by mistake kind and, with `calibration`, each repair's confidence
 * (of its evidence, as a repair reports it) with its verdict; a valid input has none to judge.
 */
async function judge(records: readonly LabelledRecord[], cost: CostModel, calibration?: Calibration) {
  const byKind = new Map<string, Tally>();
  const points: { confidence: number; right: boolean }[] = [];
  for (const record of records) {
    const outcome = await repairRecord(
      record,
      cost,
      calibration ? { confidenceEvidence: true } : { confidence: false },
    );
    const row = byKind.get(record.kind) ?? [0, 0];
    row[0] += outcome.restored ? 1 : 0;
    row[1]++;
    byKind.set(record.kind, row);
    if (calibration && outcome.evidence)
      points.push({ confidence: confidenceOf(calibration, outcome.evidence), right: outcome.restored });
  }
  return { byKind, points };
}

const HABITS: Readonly<Record<string, string>> = {
  terse:
    'abbreviated words without their inner vowels (`srch_arprt`, `dprtr_date`), ids returned as `ref` in a list `hits[].ref` or under `res.ref`, taken as `<entity>_ref` (`orgn_arprt_ref`)',
  pascal:
    'every name in PascalCase (`SearchAirport`, `DepartureDate`), ids returned as `Key` in a list `Items[].Key` or under `Result.Key`, taken as `<Role><Entity>Key` (`OriginAirportKey`)',
};

const ABOUT = [
  'Naming habits kept out of every shipped set, learning mix and catalog union',
  '(`HELD_OUT_STYLE_NAMES`, `research/bench/worlds/styles.ts`): the default never saw an id not named `id`.',
  `Each is rendered with ${TRANSFER_PLANS} gold plans and corrupted by the second recipe; half of its golds`,
  "train `refract fit`'s defaults (mert from the shipped default), the other half are held out. The same fit",
  'and calibration by hand: `refract fit --data .refract-cache/transfer/<habit>.jsonl --catalog',
  ".refract-cache/transfer/<habit>-spec.json --holdout 0.5 --calibrate`. The default's confidence is its",
  'shipped calibration, fitted on other worlds; a calibration belongs to its weights, so the fitted weights',
  'are calibrated on the same training records.',
  '',
].join('\n');

const share = ([k, n]: Tally) => `${((100 * k) / n).toFixed(1)} % (${k}/${n})`;
const total = (m: Map<string, Tally>): Tally =>
  [...m.values()].reduce(([a, b], [k, n]) => [a + k, b + n], [0, 0]);

/** One habit's section: the fit, then its held-out records by kind and the default's calibration there. */
async function habitSection(style: StyleName, log: (line: string) => void): Promise<string> {
  const paths = writeTransferWorld(style);
  const records = loadLabelled([paths.records], { catalog: loadCatalog(paths.spec) });
  const split = splitByGold(records, TRANSFER_HOLDOUT, TRANSFER_SEED);
  const base = loadCostModel('default');
  log(
    `transfer ${style}: ${split.train.length} training records (${golds(split.train)}), ${split.heldOut.length} held out`,
  );
  const evaluation = { 'held-out golds': split.heldOut };
  const result = await fitWeights(split.train, evaluation, base, {
    method: 'mert',
    epochs: 0,
    rate: 0,
    seed: TRANSFER_SEED,
    confidence: false,
    log,
  });
  const calibration = calibrationInForce(base);
  if (!calibration) throw new Error('the default has no calibration in force for its weights');
  const before = await judge(split.heldOut, base, calibration);
  // A team's own calibration of its fitted weights, on the same training records (refract fit --calibrate).
  const own = await calibrateModel(split.train, result.model);
  if (!own) throw new Error(`no training record of ${style} was repaired`);
  const after = await judge(split.heldOut, result.model, own);
  const kinds = [...before.byKind.keys()].sort();
  const byKind = markdownTable(
    ['mistake kind', 'held-out records', 'default', 'fitted'],
    [
      ...kinds.map((kind) => [
        kind,
        String(before.byKind.get(kind)![1]),
        share(before.byKind.get(kind)!),
        share(after.byKind.get(kind)!),
      ]),
      ['(all)', String(split.heldOut.length), share(total(before.byKind)), share(total(after.byKind))],
    ],
  );
  const calibrated = calibrationTable(
    [
      measurePoints('default, its shipped calibration (fitted on other worlds)', before.points),
      measurePoints('fitted, calibrated on the same training records', after.points),
    ],
    'weights and calibration',
  ).join('\n');
  return [
    fitPage(result, base, {
      header: `## ${style}: ${HABITS[style]}\n\n${records.length} records.`,
      train: split.train,
      trainSets: [`synthetic-${style}`],
      evaluation,
      start: 'default',
    }),
    '',
    '### Held-out records by mistake kind (restored modulo unknowns)',
    '',
    byKind,
    '',
    '### Confidence on the held-out repairs',
    '',
    calibrated,
    '',
  ].join('\n');
}

/** Fits on every held-out habit and returns the page. */
export async function runTransfer(log: (line: string) => void): Promise<string> {
  const sections: string[] = [];
  for (const style of HELD_OUT_STYLE_NAMES) sections.push(await habitSection(style, log));
  return [
    pageHeader('Fit on naming habits the default never saw', machine(), 'npm run bench:transfer'),
    ABOUT,
    ...sections,
  ].join('\n');
}
