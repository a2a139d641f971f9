/** What every benchmark gets: the loaded sets, the corrupted records, the machine, the run flags. */
import type { RepairOptions } from '../../src/model/options.ts';
import { repair } from '../../src/repair/repair.ts';
import { SOLVER_NAMES, type SolverName } from '../../src/model/constants.ts';
import {
  loadCorrupted,
  loadGoldSet,
  SET_NAMES,
  type CorruptionRecord,
  type GoldSet,
  type SetName,
} from './data.ts';
import { machine, type Machine } from './markdown.ts';
import type { LabelledRecord } from '../tuning/dataset.ts';

/** The reference tool's documented time per NESTFUL instance, the comparison line on every page. */
export const REFERENCE_MS = 678;

export interface BenchContext {
  readonly quick: boolean;
  readonly sets: readonly GoldSet[];
  readonly corrupted: Readonly<Record<SetName, readonly CorruptionRecord[]>>;
  readonly solvers: readonly SolverName[];
  /** The solver study's settings (`solvers.ts`). */
  readonly study: StudySettings;
  readonly machine: Machine;
  /** The command that regenerates the pages, as printed on them. */
  readonly command: string;
  readonly log: (line: string) => void;
}

/** In quick mode, an evenly spread subset of `n` records (deterministic). */
export function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]);
}

export interface StudySettings {
  /** Solves per model and backend. */
  readonly repeat: number;
  /** Seconds per solve. */
  readonly timeLimit: number;
  /** Largest synthetic model (variables); 0 = no synthetic family. */
  readonly familyMaxVars: number;
  /** Records whose models replace the shipped corrupted records, with the files they came from. */
  readonly data?: { readonly files: readonly string[]; readonly records: readonly LabelledRecord[] };
}

export interface ContextOptions {
  readonly quick: boolean;
  readonly command: string;
  readonly log: (line: string) => void;
  readonly solvers?: readonly SolverName[];
  readonly study?: Partial<StudySettings>;
}

export function loadContext({ quick, command, log, ...options }: ContextOptions): BenchContext {
  const sets = SET_NAMES.map(loadGoldSet);
  const corrupted = Object.fromEntries(
    SET_NAMES.map((name) => {
      const records = loadCorrupted(name);
      return [name, quick ? sample(records, 40) : records];
    }),
  ) as Record<SetName, CorruptionRecord[]>;
  const study: StudySettings = {
    repeat: options.study?.repeat ?? (quick ? 1 : 3),
    timeLimit: options.study?.timeLimit ?? (quick ? 5 : 20),
    familyMaxVars: options.study?.familyMaxVars ?? (quick ? 2000 : 10_000),
    ...(options.study?.data ? { data: options.study.data } : {}),
  };
  const solvers = options.solvers ?? SOLVER_NAMES;
  return { quick, sets, corrupted, solvers, study, machine: machine(), command, log };
}

/** Repairs a few records with `solver` so that JIT, WASM instantiation and caches are warm. */
export async function warmUp(ctx: BenchContext, options: RepairOptions, count = 20): Promise<void> {
  const records = ctx.corrupted.executable;
  const catalog = ctx.sets.find((s) => s.name === 'executable')!.catalog;
  for (let i = 0; i < count; i++) await repair(records[i % records.length].sequence, catalog, options);
}

export function catalogOf(ctx: BenchContext, set: string) {
  const found = ctx.sets.find((s) => s.name === set);
  if (!found) throw new RangeError(`unknown set ${set}`);
  return found.catalog;
}
