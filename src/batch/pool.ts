/**
 * The worker threads of a batch run: each loads the repair settings once, then repairs the records it is
 * sent, a few tasks ahead so that it never waits for the next message.
 */
import { packageModule, WorkerPool } from '../workers/pool.ts';
import type { Task, WorkerResult, WorkerSetup } from './types.ts';

export type BatchPool = WorkerPool<Task, WorkerResult>;

/** Tasks sent ahead to one worker, so it never waits for the next message. */
export const TASKS_AHEAD = 2;

/** Batch workers: each loads the repair flags once, then repairs the records it is sent. */
export function createBatchPool(
  setup: WorkerSetup,
  size: number,
  onBroken?: (reason: string) => void,
): BatchPool {
  return new WorkerPool<Task, WorkerResult>({
    entry: packageModule('src/batch/worker'),
    size,
    data: setup,
    depth: TASKS_AHEAD,
    // A worker that cannot start (a bad catalog, say) will not start the next time either.
    bootFailures: 1,
    onBroken,
  });
}
