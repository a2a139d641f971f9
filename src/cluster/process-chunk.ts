/**
 * One chunk job, start to finish: refuse a changed input, skip a chunk whose part exists, repair the
 * chunk's records through the run's batch worker threads (the same run, retry and result lines as a
 * single-machine batch), commit the part, and count the chunk done. The main thread only reads, writes and
 * coordinates, so the queue's lock on the job keeps being renewed while records are repaired.
 */
import type { Redis } from 'ioredis';
import { InputError } from '../model/errors.ts';
import { runBatch } from '../batch/run.ts';
import { checkInput, recordBase } from './manifest.ts';
import { RecordCatalogs } from '../batch/catalogs.ts';
import { ChunkMismatch, chunkRecords } from './chunk-records.ts';
import type { ChunkJob } from './job-data.ts';
import { markActive, markDone } from './redis.ts';
import { PermanentError, type RunContext } from './run-context.ts';
import { commitPart, isDone } from './store.ts';

export type ChunkOutcome = 'written' | 'duplicate' | 'already-done';

export async function processChunk(job: ChunkJob, context: RunContext, redis: Redis): Promise<ChunkOutcome> {
  const { manifest, pool } = context;
  try {
    await checkInput(manifest);
  } catch (error) {
    if (error instanceof InputError) throw new PermanentError(error.message);
    throw error;
  }
  if (await isDone(job.results, job.chunk)) {
    await markDone(redis, job.run, job.chunk, job.count);
    return 'already-done';
  }
  await markActive(redis, job.run, job.chunk);
  let outcome: ChunkOutcome;
  try {
    const { written } = await commitPart(job.results, job.chunk, async (linesPath) => {
      const base = recordBase(manifest);
      const report = await runBatch({
        records: chunkRecords(job.input, job, { parseCatalog: new RecordCatalogs({ base }).parse }),
        recordBase: base,
        out: linesPath,
        request: manifest.request,
        workers: pool.size,
        pool,
        stepByStep: manifest.stepByStep,
        recordTimeoutMs: manifest.recordTimeoutMs,
      });
      if (report.summary.records !== job.count) {
        throw new Error(
          `internal: chunk ${job.chunk} gave ${report.summary.records} results for ${job.count} records`,
        );
      }
      return { run: job.run, chunk: job.chunk, records: job.count, summary: report.summary };
    });
    outcome = written ? 'written' : 'duplicate';
  } catch (error) {
    if (error instanceof ChunkMismatch) throw new PermanentError(error.message);
    throw error;
  }
  await markDone(redis, job.run, job.chunk, job.count);
  return outcome;
}
