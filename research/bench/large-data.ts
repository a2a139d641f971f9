/**
 * The large-catalog worlds on disk. They are not shipped (about 40 MB together): the first use generates
 * each world's catalog (`large-<size>-spec.json`) and records (`large-<size>.jsonl`) into the git-ignored
 * cache `.refract-cache/worlds/<key>/`, where `key` is a digest of the generator's sources and of the
 * shipped data it reads, so a changed generator or data file makes a fresh cache. Generation is seeded:
 * the files are byte-identical on every machine. The cache is bounded: writing a fresh key removes all but
 * the `CACHED_KEYS` most recent (another checkout measured side by side keeps its own).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Json } from '../../src/model/types.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import type { Catalog } from '../../src/model/types.ts';
import { BENCH_DATA_DIR, corruptedPath, NESTFUL_DIR, ROOT, SET_NAMES } from './data.ts';
import { loadCorrupted } from './data.ts';
import { FLOW_SET_NAMES, flowPath, loadFlowRecords } from './flow-data.ts';
import { STYLE_NAMES } from './worlds/index.ts';
import {
  largeJsonl,
  largeRecords,
  largeWorld,
  largeWorldName,
  type LargeRecord,
  type ShippedCatalog,
} from './worlds/large.ts';

export { LARGE_SIZES, largeWorldName, type LargeRecord } from './worlds/large.ts';

const GENERATOR = ['distractors.ts', 'distractor-vocabulary.ts', 'flat.ts', 'large.ts'].map((f) =>
  join(ROOT, 'research', 'bench', 'worlds', f),
);

const NESTFUL_SPECS: readonly [string, string][] = [
  ['executable', 'executable-spec.json'],
  ['glaive', 'non-executable-glaive-spec.json'],
  ['sgd', 'non-executable-sgd-spec.json'],
];

/** The shipped catalogs in union order: NESTFUL first, then the synthetic worlds. */
function shippedSpecFiles(): [string, string][] {
  return [
    ...NESTFUL_SPECS.map(([set, file]): [string, string] => [set, join(NESTFUL_DIR, file)]),
    ...STYLE_NAMES.map((s): [string, string] => [
      `synthetic-${s}`,
      join(BENCH_DATA_DIR, `synthetic-${s}-spec.json`),
    ]),
  ];
}

function inputFiles(): string[] {
  return [
    ...GENERATOR,
    ...shippedSpecFiles().map(([, path]) => path),
    ...SET_NAMES.map((s) => corruptedPath(s)),
    ...FLOW_SET_NAMES.map((s) => flowPath(s)),
  ];
}

/** How many cache keys (generator and data versions) are kept on disk. */
export const CACHED_KEYS = 3;

/** Removes all but the `keep` most recently written key folders of `root`, never `current`. */
export function pruneWorldCaches(root: string, current: string, keep = CACHED_KEYS): string[] {
  if (!existsSync(root)) return [];
  const keys = readdirSync(root)
    .filter((name) => /^[0-9a-f]{12}$/.test(name) && name !== current)
    .map((name) => ({ name, at: statSync(join(root, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at || a.name.localeCompare(b.name));
  const stale = keys.slice(Math.max(0, keep - 1)).map((k) => k.name);
  for (const name of stale) rmSync(join(root, name), { recursive: true, force: true });
  return stale;
}

/** The cache folder for the current generator and data. */
export function largeCacheDir(root = join(ROOT, '.refract-cache', 'worlds')): string {
  const hash = createHash('sha1');
  for (const path of inputFiles()) hash.update(path.slice(ROOT.length)).update(readFileSync(path));
  return join(root, hash.digest('hex').slice(0, 12));
}

export function shippedCatalogs(): ShippedCatalog[] {
  return shippedSpecFiles().map(([set, path]) => ({
    set,
    spec: JSON.parse(readFileSync(path, 'utf8')) as Json[],
  }));
}

/** The shipped records of both recipes, by set. */
export function shippedRecordSets() {
  return [
    ...SET_NAMES.map((set) => ({ recipe: 'first' as const, set, records: loadCorrupted(set) })),
    ...FLOW_SET_NAMES.map((set) => ({ recipe: 'second' as const, set, records: loadFlowRecords(set) })),
  ];
}

/** The two files of a world as text: its spec and its records. */
export function largeWorldFiles(size: number): { spec: string; records: string } {
  const world = largeWorld(size, shippedCatalogs());
  return {
    spec: `${JSON.stringify(world.spec)}\n`,
    records: largeJsonl(largeRecords(world, shippedRecordSets())),
  };
}

function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.part`, text);
  renameSync(`${path}.part`, path);
}

/** Paths of a world's files, generated into the cache first when missing. */
export function ensureLargeWorld(size: number, dir = largeCacheDir()): { spec: string; records: string } {
  const spec = join(dir, `${largeWorldName(size)}-spec.json`);
  const records = join(dir, `${largeWorldName(size)}.jsonl`);
  if (!existsSync(spec) || !existsSync(records)) {
    if (!existsSync(dir)) pruneWorldCaches(dirname(dir), basename(dir));
    mkdirSync(dir, { recursive: true });
    const files = largeWorldFiles(size);
    writeAtomically(records, files.records);
    writeAtomically(spec, files.spec);
  }
  return { spec, records };
}

export interface LoadedWorld {
  readonly name: string;
  readonly catalog: Catalog;
  readonly records: readonly LargeRecord[];
}

export function loadLargeWorld(size: number, dir?: string): LoadedWorld {
  const paths = ensureLargeWorld(size, dir);
  const records = readFileSync(paths.records, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LargeRecord);
  return { name: largeWorldName(size), catalog: loadCatalog(paths.spec), records };
}
