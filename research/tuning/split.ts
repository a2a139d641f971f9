/**
 * Train / held-out split by gold sequence: all corruptions of one gold go to the same side, so a held-out
 * record never shares its answer with a training record (splitting by record would leak the gold).
 */
import { hashSeed } from '../../src/model/prng.ts';
import { dataFlowSignature } from '../../src/score/flow.ts';
import type { LabelledRecord } from './dataset.ts';

export interface Split {
  readonly train: LabelledRecord[];
  readonly heldOut: LabelledRecord[];
}

/** Sends each gold (by data-flow signature and set) to held-out with probability `fraction`, seeded. */
export function splitByGold(records: readonly LabelledRecord[], fraction: number, seed: number): Split {
  return splitBy(records, (r) => `${r.set}/${dataFlowSignature(r.gold)}`, fraction, seed);
}

/**
 * Train / held-out split by gold plan alone, whatever the set: the same plan's corruptions in several worlds
 * (one plan against a small and a large catalog) all go to the same side.
 */
export function splitByPlan(records: readonly LabelledRecord[], fraction: number, seed: number): Split {
  return splitBy(records, (r) => dataFlowSignature(r.gold), fraction, seed);
}

/** Sends each record to the side its plan's key (`keyOf`) is drawn to. */
function splitBy(
  records: readonly LabelledRecord[],
  keyOf: (record: LabelledRecord) => string,
  fraction: number,
  seed: number,
): Split {
  const train: LabelledRecord[] = [];
  const heldOut: LabelledRecord[] = [];
  for (const record of records) (heldOutPlan(keyOf(record), fraction, seed) ? heldOut : train).push(record);
  return { train, heldOut };
}

/** Whether the plan of signature `plan` is held out (the draw `splitByPlan` makes). */
export function heldOutPlan(plan: string, fraction: number, seed: number): boolean {
  return hashSeed(`${seed}/${plan}`) / 2 ** 32 < fraction;
}

/** Number of distinct golds among the records. */
export function goldCount(records: readonly LabelledRecord[]): number {
  return new Set(records.map((r) => `${r.set}/${dataFlowSignature(r.gold)}`)).size;
}

/** `12 golds` / `1 gold`. */
export function golds(records: readonly LabelledRecord[]): string {
  const n = goldCount(records);
  return `${n} gold${n === 1 ? '' : 's'}`;
}

/**
 * The golds (by data-flow signature and set) dealt to `k` folds in a seeded order, one each in turn, a gold's
 * records together: every fold holds a gold when there are `k` or more, and the folds differ by one gold at
 * most (a draw per gold left some empty and others double).
 */
export function foldsByGold(records: readonly LabelledRecord[], k: number, seed: number): LabelledRecord[][] {
  const byGold = new Map<string, LabelledRecord[]>();
  for (const record of records) {
    const key = `${record.set}/${dataFlowSignature(record.gold)}`;
    const list = byGold.get(key);
    if (list) list.push(record);
    else byGold.set(key, [record]);
  }
  const order = [...byGold.keys()]
    .map((key) => ({ key, draw: hashSeed(`${seed}/${key}`) }))
    .sort((a, b) => a.draw - b.draw || (a.key < b.key ? -1 : 1));
  const folds: LabelledRecord[][] = Array.from({ length: k }, () => []);
  order.forEach(({ key }, i) => folds[i % k].push(...byGold.get(key)!));
  return folds;
}
