/**
 * The manifest of a distributed run, written by `submit` into the result directory beside the chunk table:
 * what was submitted (the input's path, size and modification time, the chunk size, the fix request the
 * repair flags make, the SHA-256 of every file the request names and of the cost model) so that workers and
 * `collect` refuse an input or a catalog that changed, and `submit --resume` refuses to continue a run with
 * other settings.
 */
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../model/errors.ts';
import type { ApiRequest } from '../api/request.ts';
import type { ChunkRef, ChunkTable } from './chunks.ts';
import { sha256File, unreadable, writeFileAtomic } from './files.ts';
import { type FileHash } from '../batch/settings-stamp.ts';
export { absoluteRequest, costHash, hashRequestFiles, type FileHash } from '../batch/settings-stamp.ts';

/** What a chunk of an input changed since its run was submitted fails with (status tells it apart). */
export const CHANGED_INPUT = 'submit it as a new run';

export const MANIFEST = 'manifest.json';
export const CHUNK_TABLE = 'chunks.jsonl';
const FORMAT = 'refract-batch-run/1';

export interface Manifest {
  readonly format: typeof FORMAT;
  readonly run: string;
  readonly input: { readonly path: string; readonly size: number; readonly mtimeMs: number };
  readonly chunkSize: number;
  readonly records: number;
  readonly chunks: number;
  /**
   * The fix request of every repair flag (`--memory` and `--mappings` inline), its paths made absolute:
   * workers on other machines run from other directories.
   */
  readonly request: ApiRequest;
  readonly stepByStep: boolean;
  readonly recordTimeoutMs: number;
  readonly files: readonly FileHash[];
  /** SHA-256 of the cost model as loaded (preset and `--weight` overrides): presets differ between versions. */
  readonly costSha256: string;
  readonly submitted: string;
}

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  run: z.string(),
  input: z.object({ path: z.string(), size: z.number(), mtimeMs: z.number() }),
  chunkSize: z.number().int().positive(),
  records: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  request: z.record(z.string(), z.unknown()),
  stepByStep: z.boolean(),
  recordTimeoutMs: z.number().positive(),
  files: z.array(z.object({ flag: z.string(), path: z.string(), sha256: z.string() })),
  costSha256: z.string(),
  submitted: z.string(),
});

/** Where a record's catalog named by path is read from: the input file's folder (a shared file system). */
export const recordBase = (manifest: Manifest): string => dirname(manifest.input.path);

export async function inputStamp(path: string): Promise<Manifest['input']> {
  const info = await stat(path);
  return { path, size: info.size, mtimeMs: info.mtimeMs };
}

/** Throws when the input is not, by size and modification time, the one submitted. */
export async function checkInput(manifest: Manifest): Promise<void> {
  const { path, size, mtimeMs } = manifest.input;
  let now: Manifest['input'];
  try {
    now = await inputStamp(path);
  } catch (error) {
    throw unreadable('input', path, error);
  }
  const changes = [
    ...(now.size !== size ? [`size ${size} → ${now.size}`] : []),
    ...(now.mtimeMs !== mtimeMs
      ? [`modified ${new Date(mtimeMs).toISOString()} → ${new Date(now.mtimeMs).toISOString()}`]
      : []),
  ];
  if (changes.length > 0) {
    throw new InputError(
      'input',
      `${path} changed since run ${manifest.run} was submitted (${changes.join(', ')}): ${CHANGED_INPUT}`,
    );
  }
}

/** Throws when a file a flag names is no longer the one submitted. */
export async function checkFiles(manifest: Manifest): Promise<void> {
  for (const file of manifest.files) {
    let sha: string;
    try {
      sha = await sha256File(file.path);
    } catch (error) {
      throw unreadable(file.flag, file.path, error);
    }
    if (sha !== file.sha256) {
      throw new InputError(file.flag, `${file.path} changed since run ${manifest.run} was submitted`);
    }
  }
}

/** The settings of `next` that differ from those `prior` was submitted with (for `--resume`). */
export function differences(prior: Manifest, next: Manifest): string[] {
  const keys = [
    'run',
    'input',
    'chunkSize',
    'request',
    'stepByStep',
    'recordTimeoutMs',
    'files',
    'costSha256',
  ] as const;
  return keys.filter((key) => JSON.stringify(prior[key]) !== JSON.stringify(next[key]));
}

export async function writeRun(dir: string, manifest: Manifest, table: ChunkTable): Promise<void> {
  const rows = table.chunks.map((c) => JSON.stringify([c.start, c.end, c.line, c.index, c.count]));
  await writeFileAtomic(join(dir, CHUNK_TABLE), rows.join('\n') + (rows.length > 0 ? '\n' : ''));
  // The manifest last: its presence says the chunk table beside it is complete.
  await writeFileAtomic(join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
}

export function hasManifest(dir: string): boolean {
  return existsSync(join(dir, MANIFEST));
}

export async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      '--results',
      code === 'ENOENT'
        ? `${dir} holds no run (no ${MANIFEST}): submit one first`
        : `cannot read ${path} (${code})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError('--results', `${path} is not valid JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError('--results', `${path} is not a run manifest (${parsed.error.issues[0].message})`);
  return parsed.data as unknown as Manifest;
}

export async function readChunkTable(dir: string, manifest: Manifest): Promise<ChunkRef[]> {
  const path = join(dir, CHUNK_TABLE);
  const text = await readFile(path, 'utf8');
  const chunks = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [start, end, lineNo, index, count] = JSON.parse(line) as number[];
      return { start, end, line: lineNo, index, count };
    });
  const records = chunks.reduce((n, c) => n + c.count, 0);
  if (chunks.length !== manifest.chunks || records !== manifest.records) {
    throw new InputError(
      '--results',
      `${path} does not match ${MANIFEST} (${chunks.length} chunks, ${records} records)`,
    );
  }
  return chunks;
}
