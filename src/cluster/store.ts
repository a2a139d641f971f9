/**
 * The result store: one part per chunk in the shared result directory, `parts/<chunk>/` holding the chunk's
 * result lines (`lines.jsonl`) and its summary (`summary.json`, with the lines' size and SHA-256). A part is
 * written under `tmp/`, synced, and renamed into place whole; a rename onto a part that exists fails, so
 * the first complete attempt at a chunk stays and a second one (a job delivered twice) is dropped. That is
 * what makes the output exactly-once although the queue delivers at least once: a chunk is done when its
 * part exists, and resume asks the store, not the queue.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../batch/summary.ts';
import { sha256File, syncPath, uniqueSuffix } from './files.ts';

export const LINES = 'lines.jsonl';
export const PART_SUMMARY = 'summary.json';

export interface PartSummary {
  readonly run: string;
  readonly chunk: number;
  readonly records: number;
  /** Size and SHA-256 of `lines.jsonl`, checked by `collect`. */
  readonly bytes: number;
  readonly sha256: string;
  readonly summary: Summary;
  readonly worker: string;
  readonly ms: number;
}

const partName = (chunk: number) => String(chunk).padStart(6, '0');

export function partDir(dir: string, chunk: number): string {
  return join(dir, 'parts', partName(chunk));
}

export function partLines(dir: string, chunk: number): string {
  return join(partDir(dir, chunk), LINES);
}

/** The chunks whose part is in place. */
export async function doneChunks(dir: string): Promise<Set<number>> {
  const done = new Set<number>();
  let names: string[];
  try {
    names = await readdir(join(dir, 'parts'));
  } catch {
    return done;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      await stat(join(dir, 'parts', name, PART_SUMMARY));
      done.add(Number(name));
    } catch {
      // Not a complete part (only a rename puts parts in place, so this is not ours).
    }
  }
  return done;
}

export async function isDone(dir: string, chunk: number): Promise<boolean> {
  try {
    await stat(join(partDir(dir, chunk), PART_SUMMARY));
    return true;
  } catch {
    return false;
  }
}

export async function readPartSummary(dir: string, chunk: number): Promise<PartSummary> {
  return JSON.parse(await readFile(join(partDir(dir, chunk), PART_SUMMARY), 'utf8')) as PartSummary;
}

export type PartFields = Omit<PartSummary, 'bytes' | 'sha256' | 'worker' | 'ms'>;

/**
 * Writes chunk `chunk`'s part: `write` puts the result lines into the file it is given and returns the
 * summary fields; the part is then synced and renamed into place. `written` false: another attempt at the
 * same chunk was first (its part stays, this one is dropped).
 */
export async function commitPart(
  dir: string,
  chunk: number,
  write: (linesPath: string) => Promise<PartFields>,
): Promise<{ written: boolean; part: PartSummary }> {
  const began = performance.now();
  const tmp = join(dir, 'tmp', `${partName(chunk)}-${uniqueSuffix()}`);
  await mkdir(tmp, { recursive: true });
  try {
    const lines = join(tmp, LINES);
    const fields = await write(lines);
    await syncPath(lines);
    const part: PartSummary = {
      ...fields,
      bytes: (await stat(lines)).size,
      sha256: await sha256File(lines),
      worker: `${hostname()}:${process.pid}`,
      ms: Math.round(performance.now() - began),
    };
    const summaryPath = join(tmp, PART_SUMMARY);
    await writeFile(summaryPath, JSON.stringify(part) + '\n');
    await syncPath(summaryPath);
    await syncPath(tmp);
    const parts = join(dir, 'parts');
    await mkdir(parts, { recursive: true });
    try {
      await rename(tmp, partDir(dir, chunk));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      await rm(tmp, { recursive: true, force: true });
      return { written: false, part: await readPartSummary(dir, chunk) };
    }
    await syncPath(parts);
    return { written: true, part };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
