/**
 * What a batch run repairs with, stamped so that a resumed run can be checked against it: the fix request the
 * repair flags make (its file paths absolute), the SHA-256 of every file it names and of the cost model as
 * loaded. A distributed run keeps it in its manifest (`src/cluster/manifest.ts`); a local `refract batch
 * --out FILE` beside its output (`FILE.settings.json`), so that `--resume` with other flags is refused rather
 * than mixing two settings in one output.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../model/errors.ts';
import { presetNames } from '../read/cost-models.ts';
import { requestSettings } from '../api/call.ts';
import type { ApiRequest } from '../api/request.ts';

/** A file a repair flag names, with its content hash. */
export interface FileHash {
  readonly flag: string;
  readonly path: string;
  readonly sha256: string;
}

/** The settings of a run that decide its results. */
export interface SettingsStamp {
  /** The fix request of every repair flag (`--memory` and `--mappings` inline), its paths made absolute. */
  readonly request: ApiRequest;
  readonly stepByStep: boolean;
  readonly files: readonly FileHash[];
  /** SHA-256 of the cost model as loaded (preset and `--weight` overrides): presets differ between versions. */
  readonly costSha256: string;
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

const isPreset = (name: string) => presetNames().includes(name);

/** The files a request names, with the flags that name them: the catalog, and a cost model given as a file. */
function requestFiles(request: ApiRequest): { flag: string; path: string }[] {
  const files: { flag: string; path: string }[] = [];
  if (request.catalogPath !== undefined) files.push({ flag: '--catalog', path: request.catalogPath });
  if (typeof request.costModel === 'string' && !isPreset(request.costModel)) {
    files.push({ flag: '--cost-model', path: request.costModel });
  }
  return files;
}

/** The request with every file path made absolute (a cost-model preset name stays a name). */
export function absoluteRequest(request: ApiRequest): ApiRequest {
  return {
    ...request,
    ...(request.catalogPath !== undefined ? { catalogPath: resolve(request.catalogPath) } : {}),
    ...(typeof request.costModel === 'string' && !isPreset(request.costModel)
      ? { costModel: resolve(request.costModel) }
      : {}),
  };
}

export async function hashRequestFiles(request: ApiRequest): Promise<FileHash[]> {
  const files: FileHash[] = [];
  for (const { flag, path } of requestFiles(request)) {
    try {
      files.push({ flag, path, sha256: await sha256File(path) });
    } catch (error) {
      throw unreadable(flag, path, error);
    }
  }
  return files;
}

/** SHA-256 of the cost model the request loads (the preset or file, with its weight overrides). */
export function costHash(request: ApiRequest): string {
  return sha256Text(JSON.stringify(requestSettings('fix', request, { files: true }).options.cost));
}

/** The stamp of a run with `request` (and `--step-by-step` or not). */
export async function settingsStamp(request: ApiRequest, stepByStep: boolean): Promise<SettingsStamp> {
  const absolute = absoluteRequest(request);
  return {
    request: absolute,
    stepByStep,
    files: await hashRequestFiles(absolute),
    costSha256: costHash(absolute),
  };
}

/** The parts of two stamps that differ, by name (`request`, `files`, …). */
export function stampDifferences(prior: SettingsStamp, next: SettingsStamp): string[] {
  const keys = ['request', 'stepByStep', 'files', 'costSha256'] as const;
  return keys.filter((key) => JSON.stringify(prior[key]) !== JSON.stringify(next[key]));
}

const FORMAT = 'refract-batch-settings/1';

const stampFileSchema = z.object({
  format: z.literal(FORMAT),
  request: z.record(z.string(), z.unknown()),
  stepByStep: z.boolean(),
  files: z.array(z.object({ flag: z.string(), path: z.string(), sha256: z.string() })),
  costSha256: z.string(),
});

/** The settings file beside a local batch's output. */
export const settingsFileOf = (out: string): string => `${out}.settings.json`;

/**
 * Before a local run writes `out`: with `resume`, refuses settings other than those the run that wrote it
 * stamped (an output without a stamp, from an older version, is resumed unchecked); then stamps the run's own.
 */
export async function stampLocalRun(out: string, stamp: SettingsStamp, resume: boolean): Promise<void> {
  const file = settingsFileOf(out);
  if (resume && existsSync(file)) {
    let prior: SettingsStamp;
    try {
      prior = stampFileSchema.parse(JSON.parse(await readFile(file, 'utf8'))) as unknown as SettingsStamp;
    } catch {
      throw new InputError(
        '--resume',
        `${file} is not a settings file of refract batch: remove it to resume unchecked`,
      );
    }
    const changed = stampDifferences(prior, stamp);
    if (changed.length > 0)
      throw new InputError(
        '--resume',
        `${out} was written with other settings (${changed.join(', ')}): resume it with the same flags, or --overwrite it`,
      );
    return;
  }
  await writeFile(file, JSON.stringify({ format: FORMAT, ...stamp }, null, 2) + '\n');
}
