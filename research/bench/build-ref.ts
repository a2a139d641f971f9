/**
 * Another build of refract, so that a benchmark can measure "before" and "now" in one run on the same
 * machine load. What the build runs from (`src/`, `bin/`, `research/`, `models/`, `package.json` and its
 * TypeScript configurations) is extracted from git (`git archive`, no change to the repository or any
 * worktree) into a cache folder under the system temp directory (at most `MAX_CACHED_BUILDS`), keyed by
 * commit and checkout, with this checkout's `node_modules` linked in. `loadBuild` then imports its
 * `src/repair/repair.ts` into this process; the throughput benchmark runs its executable instead.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RepairOptions, RepairResult } from '../../src/model/options.ts';
import type { Catalog, Sequence } from '../../src/model/types.ts';
import { InputError } from '../../src/model/errors.ts';
import { hashSeed } from '../../src/model/prng.ts';
import { ROOT } from './data.ts';

export type RepairFn = (
  sequence: Sequence,
  catalog: Catalog,
  options?: RepairOptions,
) => Promise<RepairResult>;

export interface Build {
  /** The ref as given and the commit it names. */
  readonly ref: string;
  readonly commit: string;
  readonly repair: RepairFn;
  /** Frees the build's solver instances. */
  readonly dispose: () => void;
}

function git(args: readonly string[]): Buffer {
  return execFileSync('git', args, { cwd: ROOT, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}

const PREFIX = 'refract-build-';
/** This checkout's mark on its extracted builds: each links this checkout's node_modules. */
const CHECKOUT = hashSeed(ROOT).toString(36);
/** Extracted builds this checkout keeps in one cache folder; the oldest go first. */
export const MAX_CACHED_BUILDS = 6;

/** Removes this checkout's least recently extracted builds beyond the bound (never `keep`). */
function prune(cache: string, keep: string): void {
  const builds = readdirSync(cache)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(`-${CHECKOUT}`) && join(cache, name) !== keep)
    .map((name) => ({ path: join(cache, name), time: statSync(join(cache, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const old of builds.slice(MAX_CACHED_BUILDS - 1)) rmSync(old.path, { recursive: true, force: true });
}

/** What a build runs from, when the commit has it. */
const TREE = ['src', 'bin', 'research', 'models', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Written last into a complete extraction (an older, partial one is extracted again). */
const COMPLETE = '.extracted';

function inCommit(commit: string, path: string): boolean {
  try {
    git(['cat-file', '-e', `${commit}:${path}`]);
    return true;
  } catch {
    return false;
  }
}

/** The folder holding the build's tree, extracted once per commit into `cache`. */
function extract(commit: string, cache: string): string {
  const dir = join(cache, `${PREFIX}${commit.slice(0, 12)}-${CHECKOUT}`);
  if (existsSync(join(dir, COMPLETE))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tar = git(['archive', '--format=tar', commit, ...TREE.filter((path) => inCommit(commit, path))]);
  execFileSync('tar', ['-x', '-C', staging], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(staging, 'node_modules'), 'dir');
  writeFileSync(join(staging, COMPLETE), `${commit}\n`);
  try {
    renameSync(staging, dir);
  } catch {
    // Another process extracted the same commit first; its copy is identical.
    rmSync(staging, { recursive: true, force: true });
  }
  prune(cache, dir);
  return dir;
}

/** The commit `ref` names, extracted (see above); `cache` is the folder builds are kept in. */
export function extractBuild(ref: string, flag: string, cache = tmpdir()): { commit: string; dir: string } {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    throw new InputError(flag, `no commit ${JSON.stringify(ref)} in this repository`);
  }
  return { commit, dir: extract(commit, cache) };
}

/** Loads the build at `ref`; `cache` is the folder extracted builds are kept in (the system temp folder). */
export async function loadBuild(ref: string, cache = tmpdir()): Promise<Build> {
  const { commit, dir } = extractBuild(ref, '--against', cache);
  const url = (file: string) => pathToFileURL(join(dir, 'src', file)).href;
  const repairModule = (await import(url('repair/repair.ts'))) as { repair: RepairFn };
  const solvers = (await import(url('solvers/index.ts'))) as { disposeSolvers?: () => void };
  return { ref, commit, repair: repairModule.repair, dispose: () => solvers.disposeSolvers?.() };
}
