/**
 * Output files checked before anything is opened for writing: a command must never truncate or append to
 * a file it reads (its input, the --catalog, --memory, --mappings or --cost-model file: the same file under
 * any name, so existing files are compared by device and inode and new ones by their resolved path), never
 * write into a directory, and creates the folders a new output needs. Every refusal is one line naming the
 * flag of the output (`--out`, `--summary`).
 */
import { fstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../model/errors.ts';

function statOrNull(flag: string, path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError(flag, `cannot use ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The input's identity: its file, or the descriptor behind standard input (`fd`). */
export interface InputIdentity {
  readonly path?: string;
  readonly fd?: number;
}

/** A file a command reads, named by its flag (`--catalog`; `input` for the records). */
export interface ReadFile extends InputIdentity {
  readonly flag: string;
}

function identityStats(file: InputIdentity): Stats | null {
  try {
    if (file.path !== undefined) return statSync(file.path);
    if (file.fd !== undefined) return fstatSync(file.fd);
  } catch {
    // A file that cannot be stat'ed is reported by whoever reads it.
  }
  return null;
}

/** `path` with its folder's links resolved, for files that do not exist yet. */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/** True when `path` and `file` are one file: same device and inode, or (not both existing) same path. */
function sameFile(path: string, file: InputIdentity): boolean {
  const a = identityStats({ path });
  const b = identityStats(file);
  if (a && b) return a.isFile() && a.dev === b.dev && a.ino === b.ino;
  return file.path !== undefined && canonical(path) === canonical(file.path);
}

/** What writing over `file` would mean, for the refusal. */
function clash(file: ReadFile): string {
  return file.flag === 'input'
    ? 'is the input file: writing there would destroy the records'
    : `is the ${file.flag} file`;
}

/**
 * Checks the output `path` of `flag` against the files the command reads and creates its missing parent
 * folders.
 */
export function prepareOutputFile(flag: string, path: string, reads: readonly ReadFile[]): void {
  const target = statOrNull(flag, path);
  if (target?.isDirectory()) throw new InputError(flag, `${path} is a directory`);
  const read = reads.find((file) => sameFile(path, file));
  if (read) throw new InputError(flag, `${path} ${clash(read)}`);
  if (target) return;
  const parent = dirname(path);
  const folder = statOrNull(flag, parent);
  if (folder && !folder.isDirectory()) throw new InputError(flag, `${parent} is not a directory`);
  if (!folder) {
    try {
      mkdirSync(parent, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new InputError(flag, `cannot create the folder ${parent} (${code})`);
    }
  }
}

/** Checks `out` against the input and the other files read (`reads`) and creates its missing folders. */
export function prepareOutPath(out: string, input: InputIdentity, reads: readonly ReadFile[] = []): void {
  prepareOutputFile('--out', out, [{ flag: 'input', ...input }, ...reads]);
}

/**
 * Refuses an `out` that already holds something (a regular file that is not empty): the run would replace
 * results that may have taken hours, unless it resumes them or `overwrite` says to replace them.
 */
export function refuseOverwrite(
  out: string,
  remedy = 'add --resume to finish that run, or --overwrite to replace it',
  flag = '--out',
): void {
  const target = statOrNull(flag, out);
  if (target?.isFile() && target.size > 0)
    throw new InputError(flag, `${out} already holds ${target.size} bytes: ${remedy}`);
}
