/**
 * A fit on a naming habit the default never saw (`npm run bench:transfer`, benchmarks/results/transfer.md): the
 * held-out `terse` habit (research/bench/worlds/styles.ts) rendered with `TRANSFER_PLANS` gold plans and
 * corrupted by the second recipe; mert from the shipped default fits on part of its golds, the rest are held
 * out. This is what a team does with a labelled sample of its own data. The world's files are written to
 * `.refract-cache/transfer/`, so `refract fit --data` can be run on them by hand.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCostModel } from '../../src/read/cost-models.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import {
  fitPage,
  fitWeights,
  golds,
  repairRecord,
  splitByGold,
  type LabelledRecord,
} from '../tuning/index.ts';
import { flowJsonl, generateFlowRecords } from './flow-corrupt.ts';
import { ROOT } from './data.ts';
import { machine, pageHeader, table as markdownTable } from './markdown.ts';
import { syntheticSet } from './worlds/index.ts';

/** Gold plans of the held-out world: about five records each, so that half of them is some 500 records. */
export const TRANSFER_PLANS = 200;
/** Share of the golds held out, and the seed of the split. */
export const TRANSFER_HOLDOUT = 0.5;
export const TRANSFER_SEED = 1;

export const transferDir = (root = ROOT): string => join(root, '.refract-cache', 'transfer');

/** Writes the held-out world's catalog and records; returns their paths. */
export function writeTransferWorld(dir = transferDir()): { spec: string; records: string } {
  const made = syntheticSet('terse', TRANSFER_PLANS);
  mkdirSync(dir, { recursive: true });
  const paths = { spec: join(dir, 'terse-spec.json'), records: join(dir, 'terse.jsonl') };
  writeFileSync(paths.spec, `${JSON.stringify(made.world.spec, null, 2)}\n`);
  writeFileSync(paths.records, flowJsonl(generateFlowRecords(made)));
  return paths;
}

function readRecords(paths: { spec: string; records: string }): LabelledRecord[] {
  const catalog = loadCatalog(paths.spec);
  return readFileSync(paths.records, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ ...(JSON.parse(line) as Omit<LabelledRecord, 'catalog'>), catalog }));
}

/** Restored records of `records` under `cost`, by mistake kind. */
async function byKind(
  records: readonly LabelledRecord[],
  cost: CostModel,
): Promise<Map<string, [number, number]>> {
  const out = new Map<string, [number, number]>();
  for (const record of records) {
    const outcome = await repairRecord(record, cost, { confidence: false });
    const row = out.get(record.kind) ?? [0, 0];
    row[0] += outcome.restored ? 1 : 0;
    row[1]++;
    out.set(record.kind, row);
  }
  return out;
}

const ABOUT = (n: number) =>
  [
    'The `terse` habit (`research/bench/worlds/styles.ts`): abbreviated words without their inner vowels',
    '(`srch_arprt`, `dprtr_date`), ids returned as `ref` in a list `hits[].ref` or under `res.ref` (described',
    '"The unique identifier of the airport."), taken as `<entity>_ref` (`orgn_arprt_ref`). No shipped set,',
    'learning mix or catalog union has it: the default never saw an id not named `id`. ' +
      `${TRANSFER_PLANS} gold plans, corrupted by the second recipe (${n} records); half of the golds train`,
    "`refract fit`'s defaults (mert from the shipped default), the other half are held out. The same fit by",
    'hand: `refract fit --data .refract-cache/transfer/terse.jsonl --catalog',
    '.refract-cache/transfer/terse-spec.json --holdout 0.5`.',
    '',
  ].join('\n');

const share = ([k, n]: [number, number]) => `${((100 * k) / n).toFixed(1)} % (${k}/${n})`;

/** Fits on the held-out world and returns the page. */
export async function runTransfer(log: (line: string) => void): Promise<string> {
  const paths = writeTransferWorld();
  const records = readRecords(paths);
  const split = splitByGold(records, TRANSFER_HOLDOUT, TRANSFER_SEED);
  const base = loadCostModel('default');
  log(
    `transfer: ${split.train.length} training records (${golds(split.train)}), ${split.heldOut.length} held out`,
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
  const before = await byKind(split.heldOut, base);
  const after = await byKind(split.heldOut, result.model);
  const kinds = [...before.keys()].sort();
  const total = (m: Map<string, [number, number]>): [number, number] =>
    [...m.values()].reduce(([a, b], [k, n]) => [a + k, b + n], [0, 0]);
  const table = markdownTable(
    ['mistake kind', 'held-out records', 'default', 'fitted'],
    [
      ...kinds.map((kind) => [
        kind,
        String(before.get(kind)![1]),
        share(before.get(kind)!),
        share(after.get(kind)!),
      ]),
      ['(all)', String(split.heldOut.length), share(total(before)), share(total(after))],
    ],
  );
  return [
    fitPage(result, base, {
      header: [
        pageHeader('Fit on a naming habit the default never saw', machine(), 'npm run bench:transfer'),
        ABOUT(records.length),
      ].join('\n'),
      train: split.train,
      trainSets: ['synthetic-terse'],
      evaluation,
      start: 'default',
    }),
    '',
    '### Held-out records by mistake kind (restored modulo unknowns)',
    '',
    table,
    '',
  ].join('\n');
}
