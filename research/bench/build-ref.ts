/**
 * The repair function of another build, loaded next to this one in the same process, so that a benchmark
 * can measure "before" and "now" in one run on the same machine load. The build's `src/`, `models/` and
 * `package.json` are extracted from git (`git archive`, no change to the repository or any worktree) into a
 * cache folder under the system temp directory, keyed by commit and checkout, with this checkout's
 * `node_modules` linked in; then its `src/repair/repair.ts` is imported.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
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

/** The folder holding the build's sources, extracted once per commit. */
function extract(commit: string): string {
  // Keyed by checkout too: the folder links this checkout's node_modules.
  const dir = join(tmpdir(), `refract-build-${commit.slice(0, 12)}-${hashSeed(ROOT).toString(36)}`);
  if (existsSync(join(dir, 'src', 'repair', 'repair.ts'))) return dir;
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tar = git(['archive', '--format=tar', commit, 'src', 'models', 'package.json']);
  execFileSync('tar', ['-x', '-C', staging], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(staging, 'node_modules'), 'dir');
  try {
    renameSync(staging, dir);
  } catch {
    // Another process extracted the same commit first; its copy is identical.
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

export async function loadBuild(ref: string): Promise<Build> {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    throw new InputError('--against', `no commit ${JSON.stringify(ref)} in this repository`);
  }
  const dir = extract(commit);
  const url = (file: string) => pathToFileURL(join(dir, 'src', file)).href;
  const repairModule = (await import(url('repair/repair.ts'))) as { repair: RepairFn };
  const solvers = (await import(url('solvers/index.ts'))) as { disposeSolvers?: () => void };
  return { ref, commit, repair: repairModule.repair, dispose: () => solvers.disposeSolvers?.() };
}
