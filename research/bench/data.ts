/** The NESTFUL sets the benchmarks run on: catalogs, valid gold sequences, and the corrupted records. */
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { loadCatalog } from '../../src/read/catalog.ts';
import { parseSequence, toNestful, type NestfulStep } from '../../src/read/sequence.ts';
import type { Catalog } from '../../src/model/types.ts';
import { validate } from '../../src/validate/validate.ts';
import { PACKAGE_ROOT } from '../../src/read/package-files.ts';

/** The repository's root: the data and result pages live beside the package. */
export const ROOT = PACKAGE_ROOT;
export const NESTFUL_DIR = join(ROOT, 'data', 'nestful');
export const BENCH_DATA_DIR = join(ROOT, 'benchmarks', 'data');

export const SET_NAMES = ['executable', 'glaive', 'sgd'] as const;
export type SetName = (typeof SET_NAMES)[number];

const FILE_STEM: Record<SetName, string> = {
  executable: 'executable',
  glaive: 'non-executable-glaive',
  sgd: 'non-executable-sgd',
};

export interface Gold {
  /** Index of the sample in the NESTFUL data file. */
  readonly index: number;
  readonly steps: NestfulStep[];
}

export interface GoldSet {
  readonly name: SetName;
  readonly catalog: Catalog;
  /** The gold sequences that validate (a handful in NESTFUL do not, and are left out). */
  readonly gold: readonly Gold[];
  /** How many samples the data file has. */
  readonly samples: number;
}

const catalogs = new Map<SetName, Catalog>();

export function loadSetCatalog(name: SetName): Catalog {
  let catalog = catalogs.get(name);
  if (!catalog) {
    catalog = loadCatalog(join(NESTFUL_DIR, `${FILE_STEM[name]}-spec.json`));
    catalogs.set(name, catalog);
  }
  return catalog;
}

export function loadGoldSet(name: SetName): GoldSet {
  const catalog = loadSetCatalog(name);
  const data = JSON.parse(
    readFileSync(join(NESTFUL_DIR, `${FILE_STEM[name]}-data.json`), 'utf8'),
  ) as unknown[];
  const gold: Gold[] = [];
  data.forEach((sample, index) => {
    const steps = toNestful(parseSequence(sample, { root: `${name}[${index}]` }));
    if (validate(steps, catalog).valid) gold.push({ index, steps });
  });
  return { name, catalog, gold, samples: data.length };
}

/** One corrupted sequence with the gold it came from. */
export interface CorruptionRecord {
  readonly id: string;
  /** A mistake kind, or kinds joined by `+` for combinations. */
  readonly kind: string;
  readonly set: SetName;
  readonly gold: NestfulStep[];
  readonly sequence: NestfulStep[];
}

export function corruptedPath(set: SetName, dir = BENCH_DATA_DIR): string {
  return join(dir, `corrupted-${set}.jsonl`);
}

export function loadCorrupted(set: SetName, dir = BENCH_DATA_DIR): CorruptionRecord[] {
  return readFileSync(corruptedPath(set, dir), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorruptionRecord);
}

/**
 * Writes a JSONL dataset of `count` records `{id: "r<i>", sequence}`, streaming: the sequences cycle, and
 * every `corruptEvery`-th record (when given) is taken from `corrupted` instead.
 */
export async function writeRecordsFile(
  path: string,
  count: number,
  sequences: readonly unknown[],
  corruptEvery = 0,
  corrupted: readonly unknown[] = [],
): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) {
    const broken = corruptEvery > 0 && i % corruptEvery === corruptEvery - 1;
    const sequence = broken
      ? corrupted[Math.floor(i / corruptEvery) % corrupted.length]
      : sequences[i % sequences.length];
    if (!out.write(`${JSON.stringify({ id: `r${i}`, sequence })}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
