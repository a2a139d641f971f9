/**
 * The main thread's side of solving: jobs go to the worker pool with their catalog by reference; a
 * worker is sent a catalog's data only the first time it needs that version. The pool's record of what
 * each worker holds (`slot.memo`) mirrors the worker's cache, evictions included.
 */
import { availableParallelism } from 'node:os';
import type { Catalog } from '../model/types.ts';
import type { ResolvedCatalog } from './catalogs.ts';
import type { Job, JobMessage, JobResult } from './jobs.ts';
import { moduleBeside, WorkerPool, type PoolSlot } from '../workers/pool.ts';
import type { WorkerData } from './worker.ts';

/** Catalogs one worker keeps; the least recently used goes first. */
export const WORKER_CATALOGS = 32;

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
  const held = slot.memo.get(key);
  slot.memo.delete(key);
  slot.memo.set(key, version);
  const drop: string[] = [];
  while (slot.memo.size > WORKER_CATALOGS) {
    const oldest = slot.memo.keys().next().value!;
    slot.memo.delete(oldest);
    drop.push(oldest);
  }
  const catalogData: Catalog | undefined = held === version ? undefined : resolved.catalog;
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
      entry: moduleBeside(import.meta.url, './worker'),
      size: options.workers ?? defaultWorkers(),
      data,
      unref: true,
      onReplace: options.onReplace,
    });
  }

  run(job: Job, catalog: ResolvedCatalog): Promise<JobResult> {
    return this.pool.submit((slot) => jobMessage(slot, job, catalog), { timeoutMs: this.options.timeoutMs });
  }

  stats() {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.terminate();
  }
}
