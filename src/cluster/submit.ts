/**
 * `submit`: cuts the input into chunks, writes the manifest and chunk table into the result directory, and
 * enqueues one BullMQ job per chunk not yet done, in bulk. A job carries a reference to its records (file,
 * byte range, first line and record number, count), never the records. `resume` continues a run whose
 * result directory exists: the settings must be those it was submitted with, and only chunks without a
 * complete part that the queue does not hold (queued, or in progress on a worker) are enqueued again (the
 * queue may have lost everything, a Redis restart say, or nothing: the run is still being worked).
 */
import { mkdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { InputError } from '../model/errors.ts';
import type { ApiRequest } from '../api/request.ts';
import { scanChunks, type ChunkRef } from './chunks.ts';
import {
  absoluteRequest,
  checkInput,
  costHash,
  differences,
  hasManifest,
  hashRequestFiles,
  inputStamp,
  readChunkTable,
  readManifest,
  writeRun,
  type Manifest,
} from './manifest.ts';
import { connect, jobId, loadQueueLibraries, openQueue, resetRun, runKeys } from './redis.ts';
import { doneChunks } from './store.ts';
import { queuedChunks } from './queued.ts';
import { unreadable } from './files.ts';
import type { ChunkJob } from './job-data.ts';

export interface SubmitOptions {
  readonly file: string;
  readonly url: string;
  readonly run: string;
  readonly results: string;
  readonly chunkSize: number;
  readonly resume: boolean;
  /** The fix request of the repair flags, as `refract batch` builds it. */
  readonly request: ApiRequest;
  readonly stepByStep: boolean;
  readonly recordTimeoutMs: number;
  /** Tries per chunk before it counts as failed (a worker crash or a stall counts too). */
  readonly attempts: number;
}

export interface SubmitReport {
  readonly records: number;
  readonly chunks: number;
  readonly enqueued: number;
  readonly done: number;
  /** Chunks left alone on resume: the queue still holds them (queued, or in progress). */
  readonly held: number;
  readonly manifest: Manifest;
}

/** Jobs per `addBulk` call: one round trip each, small enough not to stall Redis. */
const BULK = 1_000;

export const RUN_NAME = /^[A-Za-z0-9_-]{1,64}$/;

async function inputFile(file: string): Promise<string> {
  if (file === '-')
    throw new InputError(
      'input',
      'standard input cannot be a distributed run: workers read the input file by byte range (give its path)',
    );
  const path = resolve(file);
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw unreadable('input', file, error);
  }
  if (!info.isFile())
    throw new InputError('input', `${file} is not a file (a distributed batch reads it by byte range)`);
  return path;
}

async function manifestFor(
  options: SubmitOptions,
  input: string,
  records: number,
  chunks: number,
): Promise<Manifest> {
  const request = absoluteRequest(options.request);
  return {
    format: 'refract-batch-run/1',
    run: options.run,
    input: await inputStamp(input),
    chunkSize: options.chunkSize,
    records,
    chunks,
    request,
    stepByStep: options.stepByStep,
    recordTimeoutMs: options.recordTimeoutMs,
    files: await hashRequestFiles(request),
    costSha256: costHash(request),
    submitted: new Date().toISOString(),
  };
}

/** The manifest and chunks of the run in `results`: a new one, or (resume) the one there, checked. */
async function prepare(
  options: SubmitOptions,
  input: string,
): Promise<{ manifest: Manifest; chunks: ChunkRef[] }> {
  const results = options.results;
  if (hasManifest(results)) {
    const prior = await readManifest(results);
    if (!options.resume) {
      throw new InputError(
        '--results',
        `${results} already holds run ${prior.run}: pass --resume to continue it, or choose another directory`,
      );
    }
    await checkInput(prior);
    const next = await manifestFor(options, input, prior.records, prior.chunks);
    const changed = differences(prior, next);
    if (changed.length > 0) {
      throw new InputError(
        '--resume',
        `run ${prior.run} in ${results} was submitted with other settings (${changed.join(', ')}): ` +
          `continue it with the same ones, or submit a new run`,
      );
    }
    return { manifest: prior, chunks: await readChunkTable(results, prior) };
  }
  if (options.resume)
    throw new InputError('--resume', `${results} holds no run to resume (no manifest.json)`);
  const table = await scanChunks(input, options.chunkSize);
  if (table.records === 0) throw new InputError('input', `${options.file} holds no records`);
  const manifest = await manifestFor(options, input, table.records, table.chunks.length);
  // The input must not change while it is cut: compare against the stamp taken before the scan.
  await checkInput(manifest);
  await mkdir(results, { recursive: true });
  await writeRun(results, manifest, table);
  return { manifest, chunks: [...table.chunks] };
}

/** Removes the run's failed jobs, whose ids would otherwise keep the same chunks from being enqueued. */
async function clearFailed(queue: Queue, run: string): Promise<void> {
  const prefix = `${run}.`;
  for (const job of await queue.getFailed(0, -1)) {
    if (job.id?.startsWith(prefix)) await job.remove();
  }
}

export async function submit(options: SubmitOptions): Promise<SubmitReport> {
  if (!RUN_NAME.test(options.run)) {
    throw new InputError(
      '--run',
      `expected 1-64 letters, digits, _ or -, received ${JSON.stringify(options.run)}`,
    );
  }
  const input = await inputFile(options.file);
  const results = resolve(options.results);
  const libraries = await loadQueueLibraries();
  // Reach Redis before writing anything: a wrong URL leaves no half-submitted run behind.
  const redis: Redis = await connect(libraries, options.url, false);
  const queue = openQueue(libraries, redis);
  try {
    await refuseKnownRun(redis, options.run, results, options.resume);
    const { manifest, chunks } = await prepare({ ...options, results }, input);
    // The queue is asked before the parts are read: a chunk in progress now is then either held by the
    // queue still or has its part, and is never enqueued a second time.
    const inQueue = options.resume
      ? await queuedChunks(
          redis,
          queue,
          manifest.run,
          chunks.map((_, k) => k),
        )
      : { queued: [], active: [] };
    const done = await doneChunks(results);
    const held = new Set([...inQueue.queued, ...inQueue.active].filter((chunk) => !done.has(chunk)));
    const resumedRecords = chunks.reduce((n, c, k) => n + (done.has(k) ? c.count : 0), 0);
    await resetRun(
      redis,
      manifest.run,
      {
        results,
        input,
        chunks: chunks.length,
        records: manifest.records,
        chunkSize: manifest.chunkSize,
        submittedAt: Date.now(),
        resumedRecords,
      },
      [...done],
      inQueue.active.filter((chunk) => !done.has(chunk)),
    );
    await clearFailed(queue, manifest.run);
    const pending = chunks.flatMap((ref, chunk) =>
      done.has(chunk) || held.has(chunk) ? [] : [{ ref, chunk }],
    );
    for (let at = 0; at < pending.length; at += BULK) {
      await queue.addBulk(
        pending.slice(at, at + BULK).map(({ ref, chunk }) => {
          const data: ChunkJob = { run: manifest.run, results, input, chunk, ...ref };
          return {
            name: 'chunk',
            data,
            opts: {
              jobId: jobId(manifest.run, chunk),
              attempts: options.attempts,
              backoff: { type: 'exponential', delay: 1_000 },
              removeOnComplete: true,
              removeOnFail: { count: 10_000 },
            },
          };
        }),
      );
    }
    return {
      records: manifest.records,
      chunks: chunks.length,
      enqueued: pending.length,
      done: done.size,
      held: held.size,
      manifest,
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/**
 * A run name stands for one submission while the queue knows it: a new submit under a known name is
 * refused (jobs of the earlier one may still wait under the same ids, and BullMQ would keep those instead
 * of the new ones), and so is a resume into another result directory.
 */
async function refuseKnownRun(redis: Redis, run: string, results: string, resume: boolean): Promise<void> {
  const known = await redis.hget(runKeys(run).meta, 'results');
  if (known === null) return;
  if (!resume) {
    throw new InputError(
      '--run',
      `run ${run} is already on this queue (results in ${known}): continue it with --resume, or choose another name`,
    );
  }
  if (known !== results) {
    throw new InputError('--run', `run ${run} is on this queue with results in ${known}, not ${results}`);
  }
}
