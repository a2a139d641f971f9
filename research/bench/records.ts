/**
 * The benchmark's labelled records: every record of the shipped sets (both corruption recipes of the three
 * NESTFUL sets, the four synthetic worlds), and the mix that the shipped default is learned and calibrated
 * on (those, every few records of the large-catalog worlds, their flat plans a world of their own, and of
 * the runtime world).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLabelled, type LabelledRecord } from '../tuning/index.ts';
import { BENCH_DATA_DIR, SET_NAMES } from './data.ts';
import { FLOW_SET_NAMES, flowCatalog, flowPath } from './flow-data.ts';
import { loadLargeWorld } from './large-data.ts';
import { runtimeRecords } from './runtime-data.ts';

/**
 * The large-catalog worlds of the mix (API counts) and the share of their records taken (every 4th), and the
 * share of the runtime world's records taken (every 2nd; runtime-data.ts).
 */
export const MIX_WORLDS = { large: [1000, 10000], every: 4, runtime: 2 } as const;

/** Every labelled record of the benchmark, each with its world's catalog. */
export function benchmarkRecords(): LabelledRecord[] {
  const corrupted = SET_NAMES.flatMap((set) => {
    const source = join(BENCH_DATA_DIR, `corrupted-${set}.jsonl`);
    return parseLabelled(readFileSync(source, 'utf8'), { source, catalog: flowCatalog(set) });
  });
  const flows = FLOW_SET_NAMES.flatMap((set) => {
    const source = flowPath(set);
    return parseLabelled(readFileSync(source, 'utf8'), { source, catalog: flowCatalog(set) });
  });
  return [...corrupted, ...flows];
}

/**
 * The mix's records, each world its own set: the shipped sets, then `large-N` and `large-N flat`, then
 * `runtime` (the shipped sets' records part-way through, with memory and executed calls).
 */
export function learningMix(
  large: readonly number[],
  every: number,
  runtimeEvery: number = MIX_WORLDS.runtime,
): LabelledRecord[] {
  const records = benchmarkRecords();
  const runtime = runtimeRecords(records, runtimeEvery);
  for (const size of large) {
    const world = loadLargeWorld(size);
    world.records.forEach((r, i) => {
      if (i % every !== 0) return;
      records.push({
        id: `${world.name}/${r.id}`,
        kind: r.kind,
        set: r.recipe === 'flat' ? `${world.name} flat` : world.name,
        gold: r.gold as LabelledRecord['gold'],
        sequence: r.sequence as LabelledRecord['sequence'],
        catalog: world.catalog,
      });
    });
  }
  return [...records, ...runtime];
}
