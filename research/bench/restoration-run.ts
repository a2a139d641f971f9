/**
 * Runs the restoration benchmark: loads the records of both recipes (all of them, or in quick mode a
 * fixed spread of a few per set and kind), then repairs each with every build being compared, the builds
 * taking turns record by record so that machine load falls on both alike.
 */
import type { Catalog } from '../../src/model/types.ts';
import type { SolverName } from '../../src/model/constants.ts';
import type { RepairFn } from './build-ref.ts';
import { loadCorrupted, loadSetCatalog, SET_NAMES, type SetName } from './data.ts';
import { kindGroup } from './evaluate.ts';
import { FLOW_SET_NAMES, flowCatalog, loadFlowRecords } from './flow-data.ts';
import { scoreRecord, type BenchRecord, type Recipe, type ScoredOutcome } from './scored.ts';

export const RECIPES: readonly Recipe[] = ['first', 'second'];
export const RECIPE_SETS: Readonly<Record<Recipe, readonly string[]>> = {
  first: SET_NAMES,
  second: FLOW_SET_NAMES,
};
/** Records per set and kind group in quick mode. */
export const QUICK_PER_KIND = 8;

export interface CorpusSet {
  readonly recipe: Recipe;
  readonly name: string;
  readonly catalog: Catalog;
  readonly records: readonly BenchRecord[];
}

export interface CorpusOptions {
  readonly quick?: boolean;
  readonly recipes?: readonly Recipe[];
  /** Only these sets (names of either recipe). */
  readonly sets?: readonly string[];
}

/** Up to `n` records of each kind group, evenly spread over the file (deterministic). */
export function spreadByKind(records: readonly BenchRecord[], n: number): BenchRecord[] {
  const groups = new Map<string, BenchRecord[]>();
  for (const r of records) groups.set(kindGroup(r.kind), [...(groups.get(kindGroup(r.kind)) ?? []), r]);
  const keep = new Set<BenchRecord>();
  for (const group of groups.values()) {
    const step = Math.max(1, group.length / n);
    for (let i = 0; i < Math.min(n, group.length); i++) keep.add(group[Math.floor(i * step)]);
  }
  return records.filter((r) => keep.has(r));
}

export function loadCorpus(options: CorpusOptions = {}): CorpusSet[] {
  const out: CorpusSet[] = [];
  for (const recipe of options.recipes ?? RECIPES) {
    for (const name of RECIPE_SETS[recipe]) {
      if (options.sets && !options.sets.includes(name)) continue;
      const all: BenchRecord[] = recipe === 'first' ? loadCorrupted(name as SetName) : loadFlowRecords(name);
      const catalog = recipe === 'first' ? loadSetCatalog(name as SetName) : flowCatalog(name);
      out.push({ recipe, name, catalog, records: options.quick ? spreadByKind(all, QUICK_PER_KIND) : all });
    }
  }
  return out;
}

export interface MeasuredBuild {
  readonly label: string;
  readonly repair: RepairFn;
}

export interface RunOptions {
  readonly backends: readonly SolverName[];
  readonly log?: (line: string) => void;
  /** Repairs per build and backend before measuring, so JIT and WASM are warm. */
  readonly warmUp?: number;
}

/** Outcomes per build label, in corpus order. */
export async function measureBuilds(
  corpus: readonly CorpusSet[],
  builds: readonly MeasuredBuild[],
  options: RunOptions,
): Promise<Map<string, ScoredOutcome[]>> {
  const out = new Map(builds.map((b) => [b.label, [] as ScoredOutcome[]]));
  const warm = corpus.flatMap((set) => set.records.slice(0, 4).map((r) => ({ r, set })));
  for (const build of builds) {
    for (let i = 0; i < Math.min(options.warmUp ?? 20, warm.length * 4); i++) {
      const { r, set } = warm[i % warm.length];
      for (const solver of options.backends) await build.repair(r.sequence, set.catalog, { solver });
    }
  }
  let turn = 0;
  for (const set of corpus) {
    for (const record of set.records) {
      // Alternate which build goes first, so neither always runs on a cache the other warmed.
      const order = turn++ % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        out
          .get(build.label)!
          .push(await scoreRecord(record, set.recipe, set.catalog, build.repair, options.backends));
      }
    }
    options.log?.(`restoration ${set.recipe} ${set.name}: ${set.records.length} records`);
  }
  return out;
}
