/**
 * File-system steps the result store is built from: a file written whole or not at all (temporary name,
 * fsync, rename, fsync of the directory), and a file's SHA-256. Renames within one directory tree are
 * atomic on a local or shared (NFS) file system, which is what makes a result part appear complete or not
 * at all.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../model/errors.ts';

/** A name no other process on any machine picks: host, process and a random part. */
export function uniqueSuffix(): string {
  return `${hostname().replace(/[^A-Za-z0-9_-]/g, '_')}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Flushes a file or directory to the disk. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `path` so that a reader sees the old file or the new one, never a part of it. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${uniqueSuffix()}`);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    await syncPath(dirname(path));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

export function sha256Text(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The one-line error of a file that cannot be read, naming the flag it came from and the system's code. */
export function unreadable(flag: string, path: string, error: unknown): InputError {
  return new InputError(flag, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
}
