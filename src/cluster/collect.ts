/**
 * `collect`: joins the parts of a run into one output in input order and proves it whole. It refuses an
 * input that changed since submit, lists every chunk without a part, and checks each part against its
 * summary (size and SHA-256) and against the input: as many lines as the chunk has records, each the result
 * of the record at its place (same id). The summary is built as the single-machine batch builds it, from
 * every record and its result line in order (so percentiles and top lists are exact); each part's own
 * summary must agree with its lines. Nothing is written to `out` unless everything holds. With the queue's
 * URL, missing parts are told apart: chunks still queued or in progress (the run is still being worked)
 * and chunks the queue no longer holds (lost: submit --resume).
 */
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { createHash } from 'node:crypto';
import { InputError } from '../model/errors.ts';
import { sourceRecord, type RecordItem, type RecordOptions } from '../read/records.ts';
import type { Catalog } from '../model/types.ts';
import { judgingCatalog, RecordCatalogs } from '../batch/catalogs.ts';
import { outcomeOf, SummaryAccumulator, type Summary } from '../batch/summary.ts';
import { prepareOutPath, refuseOverwrite } from '../batch/out-path.ts';
import { chunkRecords } from './chunk-records.ts';
import type { ChunkRef } from './chunks.ts';
import { syncPath, uniqueSuffix } from './files.ts';
import { checkInput, readChunkTable, readManifest, recordBase } from './manifest.ts';
import { doneChunks, isDone, partLines, readPartSummary } from './store.ts';
import { connect, loadQueueLibraries, openQueue, queueUrl, RedisUnreachable } from './redis.ts';
import { queuedChunks } from './queued.ts';

/** The parts are missing or do not add up: the message names the chunks. */
export class IncompleteRun extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompleteRun';
  }
}

export interface CollectOptions {
  readonly run: string;
  readonly results: string;
  readonly out: string;
  /** Replace a non-empty `out` (refused without it). */
  readonly overwrite?: boolean;
  /** The run's queue: asked which of the missing chunks it still holds. */
  readonly queue?: string;
}

export interface CollectReport {
  readonly summary: Summary;
  readonly records: number;
  readonly chunks: number;
  readonly bytes: number;
}

/** Problems listed before the rest are only counted. */
const LISTED = 20;

function listChunks(chunks: readonly number[]): string {
  const shown = chunks.slice(0, LISTED).join(', ');
  return chunks.length > LISTED ? `${shown} and ${chunks.length - LISTED} more` : shown;
}

/** The id at the head of a result line (`{"id":"…",`), without parsing the whole line. */
function lineId(line: string): string | undefined {
  const match = /^\{"id":("(?:[^"\\]|\\.)*")/.exec(line);
  return match ? (JSON.parse(match[1]) as string) : undefined;
}

/**
 * Checks one part against its summary and the input, and adds its records to the summary. Returns its
 * bytes. Its summary's status counts must be those of its lines.
 */
async function checkPart(
  options: CollectOptions,
  input: string,
  chunk: number,
  ref: ChunkRef,
  summary: SummaryAccumulator,
  judgeAgainst: (record: RecordItem) => Catalog | undefined,
  recordOptions: RecordOptions,
): Promise<Buffer> {
  const part = await readPartSummary(options.results, chunk);
  const bytes = await readFile(partLines(options.results, chunk));
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (part.run !== options.run || part.chunk !== chunk || part.records !== ref.count) {
    throw new Error(`its summary is for run ${part.run} chunk ${part.chunk} (${part.records} records)`);
  }
  if (bytes.length !== part.bytes || sha !== part.sha256) {
    throw new Error('its lines differ from its summary (size or SHA-256)');
  }
  const text = bytes.toString('utf8');
  if (text !== '' && !text.endsWith('\n')) throw new Error('its last line is torn');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  if (lines.length !== ref.count) throw new Error(`${lines.length} lines for ${ref.count} records`);
  const statuses: Record<string, number> = {};
  let at = 0;
  for await (const source of chunkRecords(input, ref, recordOptions)) {
    const record = sourceRecord(source, recordOptions);
    const line = lines[at++];
    const id = lineId(line);
    if (id !== record.id) {
      throw new Error(
        `line ${at} holds record ${JSON.stringify(id)} where the input has ${JSON.stringify(record.id)}`,
      );
    }
    const outcome = outcomeOf(record, JSON.parse(line) as Record<string, unknown>, judgeAgainst(record));
    statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    summary.add(outcome);
  }
  for (const [status, n] of Object.entries(part.summary.statuses)) {
    if ((statuses[status] ?? 0) !== n)
      throw new Error(`its summary counts ${n} ${status}, its lines ${statuses[status] ?? 0}`);
  }
  return bytes;
}

/** What became of the missing chunks, as far as the queue (when given) can tell. */
async function whyMissing(options: CollectOptions, missing: readonly number[]): Promise<string> {
  const unknown =
    `chunks ${listChunks(missing)}; still being worked (refract batch status, or collect --queue to ` +
    `tell) or lost (submit --resume)`;
  if (options.queue === undefined) return unknown;
  const libraries = await loadQueueLibraries();
  let redis;
  try {
    redis = await connect(libraries, options.queue, false);
  } catch (error) {
    if (error instanceof RedisUnreachable) return `${unknown}; the queue cannot tell: ${error.problem}`;
    throw error;
  }
  const queue = openQueue(libraries, redis);
  let held;
  try {
    held = await queuedChunks(redis, queue, options.run, missing);
  } finally {
    await queue.close();
    redis.disconnect();
  }
  const holds = new Set([...held.queued, ...held.active]);
  const rest = missing.filter((k) => !holds.has(k));
  // A chunk that was finishing while the parts were read has its part now: it was in progress.
  const partsNow = await Promise.all(rest.map((k) => isDone(options.results, k)));
  const lost = rest.filter((_, i) => !partsNow[i]);
  const finished = rest.length - lost.length;
  const running = held.queued.length + held.active.length + finished;
  const lostText =
    `${lost.length === 1 ? 'chunk' : 'chunks'} ${listChunks(lost)} ${lost.length === 1 ? 'is' : 'are'} ` +
    `neither queued nor in progress (lost, or failed for good): submit --resume`;
  if (running === 0) return lostText;
  return (
    `still running: ${chunks(held.queued.length)} queued, ${held.active.length + finished} in progress` +
    (lost.length > 0 ? `; ${lostText}` : '; collect once refract batch status says complete')
  );
}

const chunks = (n: number) => `${n} ${n === 1 ? 'chunk' : 'chunks'}`;

/** Opens the temporary output beside `out` (renamed onto it once everything checks out). */
async function openOutput(out: string): Promise<{ path: string; handle: FileHandle }> {
  const path = join(dirname(out), `.${basename(out)}.${uniqueSuffix()}`);
  try {
    return { path, handle: await open(path, 'w') };
  } catch (error) {
    throw new InputError(
      '--out',
      `cannot write beside ${out} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

export async function collect(options: CollectOptions): Promise<CollectReport> {
  if (options.queue !== undefined) queueUrl(options.queue);
  const manifest = await readManifest(options.results);
  if (manifest.run !== options.run) {
    throw new InputError('--run', `${options.results} holds run ${manifest.run}, not ${options.run}`);
  }
  await checkInput(manifest);
  const chunks = await readChunkTable(options.results, manifest);
  const done = await doneChunks(options.results);
  const missing = chunks.flatMap((_, k) => (done.has(k) ? [] : [k]));
  if (missing.length > 0) {
    const records = missing.reduce((n, k) => n + chunks[k].count, 0);
    throw new IncompleteRun(
      `run ${options.run}: ${missing.length} of ${chunks.length} chunks have no result part (${records} records): ` +
        (await whyMissing(options, missing)),
    );
  }
  // Never onto the input, whatever its name; the output's folder is created if need be.
  prepareOutPath(options.out, { path: manifest.input.path });
  if (!options.overwrite) refuseOverwrite(options.out, 'add --overwrite to replace it');
  const { path: temporary, handle } = await openOutput(options.out);
  const summary = new SummaryAccumulator();
  const judgeAgainst = judgingCatalog(manifest.request.catalogPath);
  const recordOptions = { parseCatalog: new RecordCatalogs({ base: recordBase(manifest) }).parse };
  const broken: { chunk: number; reason: string }[] = [];
  let total = 0;
  try {
    for (let k = 0; k < chunks.length; k++) {
      try {
        const bytes = await checkPart(
          options,
          manifest.input.path,
          k,
          chunks[k],
          summary,
          judgeAgainst,
          recordOptions,
        );
        await handle.write(bytes);
        total += bytes.length;
      } catch (error) {
        broken.push({ chunk: k, reason: (error as Error).message });
      }
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (broken.length > 0) {
    await rm(temporary, { force: true });
    const shown = broken.slice(0, LISTED).map((b) => `chunk ${b.chunk}: ${b.reason}`);
    throw new IncompleteRun(
      `run ${options.run}: ${broken.length} chunks do not check out (chunks ${listChunks(broken.map((b) => b.chunk))}); ` +
        `nothing written (remove those parts/ folders and submit --resume to redo them). ${shown.join('; ')}`,
    );
  }
  await rename(temporary, options.out);
  await syncPath(dirname(options.out));
  const result = summary.result();
  return { summary: result, records: result.records, chunks: chunks.length, bytes: total };
}
