/**
 * The output file of a batch run, checked before anything is opened for writing: a run must never
 * truncate or append to its own input (the same file under any name: same device and inode), never write
 * into a directory, and creates the folders a new output needs. Every refusal is one line naming `--out`.
 */
import { fstatSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../model/errors.ts';

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError('--out', `cannot use ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The input's identity: its file, or the descriptor behind standard input (`fd`). */
export interface InputIdentity {
  readonly path?: string;
  readonly fd?: number;
}

function inputStats(input: InputIdentity): Stats | null {
  try {
    if (input.path !== undefined) return statSync(input.path);
    if (input.fd !== undefined) return fstatSync(input.fd);
  } catch {
    // An input that cannot be stat'ed is reported by whoever reads it.
  }
  return null;
}

/** Checks `out` against the input and creates its missing parent folders. */
export function prepareOutPath(out: string, input: InputIdentity): void {
  const target = statOrNull(out);
  if (target?.isDirectory()) throw new InputError('--out', `${out} is a directory`);
  const source = inputStats(input);
  if (target && source && target.isFile() && target.dev === source.dev && target.ino === source.ino) {
    throw new InputError('--out', `${out} is the input file: writing there would destroy the records`);
  }
  if (target) return;
  const parent = dirname(out);
  const folder = statOrNull(parent);
  if (folder && !folder.isDirectory()) throw new InputError('--out', `${parent} is not a directory`);
  if (!folder) {
    try {
      mkdirSync(parent, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new InputError('--out', `cannot create the folder ${parent} (${code})`);
    }
  }
}
