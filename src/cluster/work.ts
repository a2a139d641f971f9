/**
 * `work`: a BullMQ worker that takes chunk jobs from the shared queue, `chunksInFlight` at a time, and runs
 * each through the run's pool of batch worker threads. Any number of `work` processes may run on any number
 * of machines. Stopping (the signal) lets the chunks in flight finish; a worker killed outright leaves its
 * chunks locked until the lock expires, after which BullMQ's stall check hands them to another worker (its
 * half-written part stays under `tmp/`, never in place).
 */
import type { Job } from 'bullmq';
import { InputError } from '../model/errors.ts';
import { parseChunkJob } from './job-data.ts';
import { processChunk, type ChunkOutcome } from './process-chunk.ts';
import { connect, loadQueueLibraries, markFailed, QUEUE_NAME, redactedUrl } from './redis.ts';
import { ConnectionWatch, LockWatch } from './connection-watch.ts';
import { PermanentError, RunContexts } from './run-context.ts';

export interface WorkOptions {
  readonly url: string;
  /** Batch worker threads per run (the cores of this machine, usually). */
  readonly workers: number;
  /** Chunks worked on at once: more than one keeps the threads busy while a chunk ends and the next starts. */
  readonly chunksInFlight: number;
  /** How long a job's lock lasts without renewal: a killed worker's chunks wait this long (plus a stall check). */
  readonly lockMs: number;
  /** How often the worker looks for chunks whose lock expired. */
  readonly stallMs: number;
  /** Times a chunk may be found stalled before it fails for good. */
  readonly maxStalled: number;
  /** Stop after this long without a chunk to work on (default: never). */
  readonly idleExitMs?: number;
  /** Abort: stop taking chunks and let those in flight finish. */
  readonly signal?: AbortSignal;
  readonly log: (line: string) => void;
}

export interface WorkReport {
  /** Chunks whose part this worker wrote. */
  readonly written: number;
  readonly records: number;
  /** Chunks another attempt had written first (delivered twice) or that were done before they arrived. */
  readonly duplicates: number;
  readonly failed: number;
}

/** Runs whose worker threads fail to start on this machine stop it: retrying here would fail every chunk. */
class BrokenWorkers extends InputError {
  constructor(reason: string) {
    super('--workers', `batch worker threads fail to start on this machine: ${reason}`);
  }
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A chunk's job id (`plans.12`) as the log names it: `run plans chunk 12`. */
function chunkName(id: string): string {
  const dot = id.lastIndexOf('.');
  return dot < 0 ? `job ${id}` : `run ${id.slice(0, dot)} chunk ${id.slice(dot + 1)}`;
}

export async function work(options: WorkOptions): Promise<WorkReport> {
  const libraries = await loadQueueLibraries();
  const redis = await connect(libraries, options.url, true);
  // Every error of the connection, the worker's and the idle check's queue goes through the watch: one line
  // per lost and regained connection (an unheard queue error would be printed with its stack by BullMQ).
  const connection = new ConnectionWatch(options.url, options.log).follow(redis);
  const locks = new LockWatch(options.lockMs, options.url, options.log, (id) => chunkName(id));
  let broken: BrokenWorkers | undefined;
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const contexts = new RunContexts(options.workers, options.chunksInFlight + 1, (run, reason) => {
    broken ??= new BrokenWorkers(`run ${run}: ${reason}`);
    stop();
  });
  const counts = { written: 0, records: 0, duplicates: 0, failed: 0 };
  let inFlight = 0;
  // Idle: nothing in flight since the queue was last found empty or the last chunk ended, whichever is
  // later; start-up (before the queue was first found empty) is not idle time. BullMQ says "drained" once
  // per emptying, possibly while a chunk is still in flight, so the mark is kept, not cleared by a new chunk.
  let emptySince: number | undefined;
  let lastActivity = 0;

  const processor = async (job: Job): Promise<ChunkOutcome> => {
    inFlight++;
    if (job.id) locks.taken(job.id);
    try {
      const data = parseChunkJob(job.data);
      if (typeof data === 'string') throw new libraries.bullmq.UnrecoverableError(data);
      const context = await contexts.acquire(data).catch((error: unknown) => {
        throw error instanceof PermanentError
          ? new libraries.bullmq.UnrecoverableError(error.message)
          : error;
      });
      try {
        const outcome = await processChunk(data, context, redis);
        if (outcome === 'written') {
          counts.written++;
          counts.records += data.count;
        } else counts.duplicates++;
        return outcome;
      } catch (error) {
        if (error instanceof PermanentError) throw new libraries.bullmq.UnrecoverableError(error.message);
        throw error;
      } finally {
        contexts.release(context);
      }
    } finally {
      if (job.id) locks.released(job.id);
      inFlight--;
      lastActivity = Date.now();
    }
  };

  const worker = new libraries.bullmq.Worker(QUEUE_NAME, processor, {
    connection: redis,
    concurrency: options.chunksInFlight,
    lockDuration: options.lockMs,
    stalledInterval: options.stallMs,
    maxStalledCount: options.maxStalled,
    autorun: false,
  });
  worker.on('failed', (job: Job | undefined, error: Error) => {
    if (!job) return;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    const parsed = parseChunkJob(job.data);
    const where = typeof parsed === 'string' ? `job ${job.id}` : `run ${parsed.run} chunk ${parsed.chunk}`;
    options.log(`${where} failed${final ? '' : ' (it will be retried)'}: ${error.message}`);
    if (!final || typeof parsed === 'string') return;
    counts.failed++;
    markFailed(redis, parsed.run, parsed.chunk, error.message).catch(() => {});
  });
  worker.on('error', (error: Error) => {
    // A refused renewal is told by 'lockRenewalFailed', naming the chunk, and that is all: BullMQ's errors
    // about the renewal say it again. A chunk can also finish after its lock expired and before a renewal
    // was refused: finishing it without its lock is then the first news of the loss, told the same way.
    const lock = /^(?:could not renew lock for job |Missing (?:lock|key) for job )([^\s.]+\.\d+)/.exec(
      error.message,
    );
    if (!lock) return connection.error(error);
    if (!error.message.startsWith('could not')) locks.refused([lock[1]]);
  });
  worker.on('locksRenewed', ({ jobIds }: { jobIds: string[] }) => locks.renewed(jobIds));
  worker.on('lockRenewalFailed', (jobIds: string[]) => locks.refused(jobIds));
  worker.on('drained', () => (emptySince = Date.now()));
  worker.on('stalled', (id: string) =>
    options.log(`job ${id} stalled (its worker stopped renewing its lock): it is worked on again`),
  );
  worker.once('ready', () =>
    options.log(
      `worker ready on ${redactedUrl(options.url)}: ${plural(options.workers, 'thread')}, ` +
        `${plural(options.chunksInFlight, 'chunk')} in flight`,
    ),
  );

  const onAbort = () => stop();
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) stop();
  // Before stopping for idleness, the queue is asked for chunks waiting out a retry's backoff.
  const queue = new libraries.bullmq.Queue(QUEUE_NAME, { connection: redis });
  queue.on('error', (error: Error) => connection.error(error));
  const lockCheck = setInterval(() => locks.check(), Math.min(1_000, options.lockMs / 4));
  let asking = false;
  const idle =
    options.idleExitMs === undefined
      ? undefined
      : setInterval(() => {
          const since = emptySince === undefined ? undefined : Math.max(emptySince, lastActivity);
          if (asking || inFlight > 0 || since === undefined || Date.now() - since < options.idleExitMs!)
            return;
          asking = true;
          queue
            .getJobCounts('waiting', 'delayed', 'prioritized')
            .then((counts) => {
              if (Object.values(counts).some((n) => n > 0)) emptySince = Date.now();
              else stop();
            })
            .catch(() => {})
            .finally(() => (asking = false));
        }, 100);
  const running = worker.run();
  try {
    await Promise.race([stopped, running]);
  } finally {
    clearInterval(idle);
    clearInterval(lockCheck);
    options.signal?.removeEventListener('abort', onAbort);
    // close() waits for the chunks in flight; they commit their parts and are acknowledged.
    await worker.close();
    await running.catch(() => {});
    await contexts.close();
    connection.stop();
    await queue.close();
    redis.disconnect();
  }
  if (broken) throw broken;
  return counts;
}
