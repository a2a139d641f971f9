/**
 * `status`: where a run stands, from the queue alone (any machine can ask): chunks waiting, active, done and
 * failed, records done, the rate since the first chunk started, an ETA, and the failed chunks with their
 * errors. Done counts come from the run's done bitmap, so a chunk delivered twice counts once. A run's
 * counts start afresh when it is resubmitted (`--resume`), seeded from the result store.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { InputError } from '../model/errors.ts';
import { progressText } from '../batch/progress.ts';
import {
  connect,
  isConnectionError,
  loadQueueLibraries,
  openQueue,
  redactedUrl,
  RedisUnreachable,
  runKeys,
} from './redis.ts';
import { ConnectionWatch } from './connection-watch.ts';
import { CHANGED_INPUT } from './manifest.ts';

export interface RunStatus {
  readonly run: string;
  readonly results: string;
  readonly input: string;
  readonly records: number;
  readonly chunks: number;
  readonly waiting: number;
  readonly active: number;
  readonly done: number;
  readonly failed: number;
  readonly recordsDone: number;
  /** Records per second since the first chunk of this submission started (resumed records excluded). */
  readonly rate: number;
  /** Seconds left at that rate (null: unknown or finished). */
  readonly etaSeconds: number | null;
  readonly complete: boolean;
  /**
   * Nothing more will happen without a person: every chunk is done or failed for good, and some failed
   * (`submit --resume` enqueues them again once the cause is fixed).
   */
  readonly stopped: boolean;
  readonly failures: readonly { readonly chunk: number; readonly reason: string }[];
  /** The whole queue (every run): jobs waiting (and delayed for a retry), active, failed. */
  readonly queue: {
    readonly waiting: number;
    readonly active: number;
    readonly delayed: number;
    readonly failed: number;
  };
}

/** The queue does not know the run (never submitted, or lost with a Redis restart without persistence). */
export class UnknownRun extends InputError {
  constructor(run: string) {
    super('--run', `no run ${run} on this queue: submit it (after a Redis restart: submit --resume)`);
    this.name = 'UnknownRun';
  }
}

/** Failed chunks listed with their errors (all are counted). */
const MAX_FAILURES = 20;

/**
 * The run's failed chunks: those its workers marked (final attempt failed), and those BullMQ failed itself
 * (stalled more than `--max-stalled` times, which no worker is told of), from its bounded failed list.
 */
async function failedChunks(redis: Redis, queue: Queue, run: string): Promise<Map<number, string>> {
  const failed = new Map<number, string>();
  const prefix = `${run}.`;
  for (const job of await queue.getFailed(0, -1)) {
    if (job.id?.startsWith(prefix)) failed.set(Number(job.id.slice(prefix.length)), job.failedReason);
  }
  const marked = await redis.hgetall(runKeys(run).failed);
  for (const [chunk, reason] of Object.entries(marked)) failed.set(Number(chunk), reason);
  return failed;
}

async function readStatus(redis: Redis, queue: Queue, run: string): Promise<RunStatus> {
  const k = runKeys(run);
  const [meta, done, active, failed, counts] = await Promise.all([
    redis.hgetall(k.meta),
    redis.bitcount(k.done),
    redis.zcard(k.active),
    failedChunks(redis, queue, run),
    queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
  ]);
  if (!meta.results) throw new UnknownRun(run);
  const num = (key: string) => Number(meta[key] ?? 0);
  const chunks = num('chunks');
  const records = num('records');
  const recordsDone = num('doneRecords');
  const startedAt = num('startedAt');
  const end = recordsDone >= records && meta.lastDoneAt ? num('lastDoneAt') : Date.now();
  const seconds = startedAt > 0 ? Math.max(0.001, (end - startedAt) / 1000) : 0;
  const rate = seconds > 0 ? (recordsDone - num('resumedRecords')) / seconds : 0;
  const failures = [...failed]
    .sort((a, b) => a[0] - b[0])
    .slice(0, MAX_FAILURES)
    .map(([chunk, reason]) => ({ chunk, reason }));
  return {
    run,
    results: meta.results,
    input: meta.input,
    records,
    chunks,
    waiting: Math.max(0, chunks - done - active - failed.size),
    active,
    done,
    failed: failed.size,
    recordsDone,
    rate,
    etaSeconds: rate > 0 && recordsDone < records ? (records - recordsDone) / rate : null,
    complete: done >= chunks,
    stopped: done < chunks && failed.size > 0 && done + failed.size >= chunks && active === 0,
    failures,
    queue: {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    },
  };
}

export async function runStatus(url: string, run: string): Promise<RunStatus> {
  const libraries = await loadQueueLibraries();
  const redis = await connect(libraries, url, false);
  const queue = openQueue(libraries, redis);
  try {
    return await readStatus(redis, queue, run);
  } catch (error) {
    if (isConnectionError(error)) throw new RedisUnreachable(url, error as Error);
    throw error;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

export interface WatchOptions {
  readonly url: string;
  readonly run: string;
  readonly everyMs: number;
  /** Each status read before the run is complete. */
  readonly show: (status: RunStatus) => void;
  /** One line per change: Redis lost and back, the run gone from the queue and back. */
  readonly log: (line: string) => void;
}

/**
 * Reads the run's status every `everyMs` until it is complete, and returns the last one. The first read
 * must succeed (a wrong URL or run name fails at once); afterwards, a Redis that cannot be reached is
 * waited for (a restart), and so is a run the queue lost (a restart without persistence, until it is
 * resubmitted).
 */
export async function watchStatus(options: WatchOptions): Promise<RunStatus> {
  const { url, run } = options;
  const connection = new ConnectionWatch(url, options.log);
  let gone = false;
  let status = await runStatus(url, run);
  while (!status.complete && !status.stopped) {
    options.show(status);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs));
    try {
      const next = await runStatus(url, run);
      connection.up();
      if (gone) options.log(`run ${run} is on the queue again`);
      gone = false;
      status = next;
    } catch (error) {
      if (error instanceof RedisUnreachable) connection.down();
      else if (error instanceof UnknownRun) {
        connection.up();
        if (!gone)
          options.log(
            `run ${run} is no longer on the queue at ${redactedUrl(url)} (Redis restarted without ` +
              `persistence?): waiting for it to be resubmitted (submit --resume)`,
          );
        gone = true;
      } else throw error;
    }
  }
  return status;
}

/** The progress line (with a bar on a terminal): `[####----] 45% 9000/20000 records 1234 rec/s ETA 0:09`. */
export function statusLine(s: RunStatus, bar: boolean): string {
  const failed = s.failed > 0 ? `, ${s.failed} ${s.failed === 1 ? 'chunk' : 'chunks'} failed` : '';
  return `run ${s.run}: ${progressText({ done: s.recordsDone, total: s.records, rate: s.rate }, bar)}${failed}`;
}

export function statusText(s: RunStatus, bar: boolean): string {
  const lines = [
    statusLine(s, bar),
    `chunks: ${s.waiting} waiting, ${s.active} active, ${s.done} done, ${s.failed} failed (of ${s.chunks})`,
    `results: ${s.results}`,
    `queue (all runs): ${s.queue.waiting} waiting, ${s.queue.delayed} delayed, ${s.queue.active} active, ${s.queue.failed} failed`,
  ];
  if (s.failures.length > 0) {
    lines.push('failed chunks:', ...s.failures.map((f) => `  chunk ${f.chunk}: ${f.reason}`));
    if (s.failed > s.failures.length) lines.push(`  … and ${s.failed - s.failures.length} more`);
    // A chunk of an input changed since it was submitted cannot be resumed: the input is another run.
    const changed = s.failures.every((f) => f.reason.includes(CHANGED_INPUT));
    lines.push(
      changed
        ? '(the input changed since it was submitted: submit it as a new run)'
        : '(fix the cause, then submit --resume to enqueue them again)',
    );
  }
  if (s.stopped) lines.push('stopped: no chunk is waiting or being worked on; the failed ones wait for you');
  if (s.complete)
    lines.push(
      `complete: collect the output with refract batch collect --run ${s.run} --results ${s.results}`,
    );
  return lines.join('\n');
}
