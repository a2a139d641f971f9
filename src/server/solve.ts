/**
 * The main thread's side of solving: jobs go to the worker pool with their catalog by reference; a
 * worker is sent a catalog's data only the first time it needs that version. The pool's record of what
 * each worker holds (`slot.memo`) mirrors the worker's cache, evictions included; the cache is bounded in
 * catalogs and in bytes. Each job carries its request's deadline and is cancelled when its client goes.
 */
import { availableParallelism } from 'node:os';
import type { Catalog } from '../model/types.ts';
import type { ResolvedCatalog } from './catalogs.ts';
import type { Job, JobMessage, JobResult } from './jobs.ts';
import { packageModule, PoolError, WorkerPool, type PoolSlot } from '../workers/pool.ts';
import type { WorkerData } from './worker.ts';
import type { RequestWork } from './admission.ts';

/** Catalogs one worker keeps; the least recently used goes first. */
export const WORKER_CATALOGS = 32;
/** Bytes of catalog JSON one worker keeps (the catalog in use always stays). */
export const WORKER_CATALOG_BYTES = 64 * 1024 * 1024;

/** What `slot.memo` holds per catalog key. */
interface Held {
  readonly version: number;
  readonly bytes: number;
}

export interface SolvePoolOptions {
  readonly workers?: number;
  /** Time limit of one job, queueing included. */
  readonly timeoutMs: number;
  readonly testHooks?: boolean;
  readonly onReplace?: (slot: number, reason: string) => void;
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/** The message for `job` on `slot`, updating the slot's record of the worker's catalogs. */
export function jobMessage(slot: PoolSlot, job: Job, resolved: ResolvedCatalog): JobMessage {
  const { key, version } = resolved.ref;
  const memo = slot.memo as Map<string, Held>;
  const held = memo.get(key);
  memo.delete(key);
  memo.set(key, { version, bytes: resolved.bytes ?? 0 });
  let bytes = 0;
  for (const h of memo.values()) bytes += h.bytes;
  const drop: string[] = [];
  while (memo.size > 1 && (memo.size > WORKER_CATALOGS || bytes > WORKER_CATALOG_BYTES)) {
    const oldest = memo.keys().next().value!;
    bytes -= memo.get(oldest)!.bytes;
    memo.delete(oldest);
    drop.push(oldest);
  }
  const catalogData: Catalog | undefined = held?.version === version ? undefined : resolved.catalog;
  return {
    job,
    catalog: resolved.ref,
    ...(catalogData ? { catalogData } : {}),
    ...(drop.length ? { drop } : {}),
  };
}

export class SolvePool {
  private readonly pool: WorkerPool<JobMessage, JobResult>;

  constructor(private readonly options: SolvePoolOptions) {
    const data: WorkerData = { testHooks: options.testHooks ?? false };
    this.pool = new WorkerPool<JobMessage, JobResult>({
      entry: packageModule('src/server/worker'),
      size: options.workers ?? defaultWorkers(),
      data,
      unref: true,
      onReplace: options.onReplace,
    });
  }

  /**
   * Runs a job; with the request's `work`, the job aims at the request's deadline, is cut off at its hard
   * deadline, is cancelled when the client goes away, and holds the request's slot until it has ended.
   */
  run(job: Job, catalog: ResolvedCatalog, work?: RequestWork): Promise<JobResult> {
    if (!work) {
      return this.pool.submit((slot) => jobMessage(slot, job, catalog), {
        timeoutMs: this.options.timeoutMs,
      });
    }
    const timed: Job = { ...job, options: { ...job.options, deadline: work.workDeadline } };
    const timeoutMs = Math.max(1, work.deadline - Date.now());
    const running = this.pool
      .submit((slot) => jobMessage(slot, timed, catalog), { timeoutMs, signal: work.signal })
      .catch((error: unknown) => {
        // The pool counts from submission; the client's limit counts from arrival: name that one.
        if (!(error instanceof PoolError) || error.kind !== 'timeout') throw error;
        const limit = `the request exceeded its time limit of ${this.options.timeoutMs / 1000} s`;
        throw new PoolError(
          'timeout',
          error.message.replace(/^the job exceeded the time limit of [\d.]+ s/, limit),
        );
      });
    return work.hold(running);
  }

  stats() {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.terminate();
  }
}
