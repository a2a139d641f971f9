/**
 * File-system steps the result store is built from: a file written whole or not at all (temporary name,
 * fsync, rename, fsync of the directory), and a file's SHA-256. Renames within one directory tree are
 * atomic on a local or shared (NFS) file system, which is what makes a result part appear complete or not
 * at all. A file's SHA-256 and the error of one that cannot be read are the batch's (`settings-stamp.ts`).
 */
import { open, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

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

export { sha256File, sha256Text, unreadable } from '../batch/settings-stamp.ts';
