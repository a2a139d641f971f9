/**
 * Which of a run's chunks the queue holds at this moment: queued (waiting, delayed for a retry's backoff,
 * prioritized) or in progress (a worker holds it). `submit --resume` leaves those alone, and `collect`
 * tells a run still being worked from one that lost chunks. A job's key exists exactly while the queue
 * holds the job (completed jobs are removed at once; failed ones are kept, and say so), so only the chunks
 * with a key are asked their state.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobId } from './redis.ts';

export interface QueuedChunks {
  readonly queued: readonly number[];
  readonly active: readonly number[];
}

/** Chunks asked about per round trip. */
const BATCH = 1_000;

const QUEUED = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

export async function queuedChunks(
  redis: Redis,
  queue: Queue,
  run: string,
  chunks: readonly number[],
): Promise<QueuedChunks> {
  const queued: number[] = [];
  const active: number[] = [];
  for (let at = 0; at < chunks.length; at += BATCH) {
    const batch = chunks.slice(at, at + BATCH);
    const pipeline = redis.pipeline();
    for (const chunk of batch) pipeline.exists(queue.toKey(jobId(run, chunk)));
    const exists = (await pipeline.exec()) ?? [];
    const held = batch.filter((_, k) => exists[k]?.[1] === 1);
    const states = await Promise.all(held.map((chunk) => queue.getJobState(jobId(run, chunk))));
    held.forEach((chunk, k) => {
      if (states[k] === 'active') active.push(chunk);
      else if (QUEUED.has(states[k])) queued.push(chunk);
    });
  }
  return { queued, active };
}
