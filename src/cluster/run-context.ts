/**
 * What a `work` process keeps per run it serves: the run's manifest (read from the shared result
 * directory, its files checked against their hashes once) and a pool of batch worker threads loaded with
 * the run's fix request. Runs are few; contexts beyond `limit` are shut down when idle, least recently used
 * first.
 */
import { InputError } from '../model/errors.ts';
import { createBatchPool, type BatchPool } from '../batch/run.ts';
import { checkFiles, costHash, readManifest, recordBase, type Manifest } from './manifest.ts';
import type { ChunkJob } from './job-data.ts';

/** A job that can never succeed as it stands (retrying it only wastes the attempts). */
export class PermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentError';
  }
}

export interface RunContext {
  readonly manifest: Manifest;
  readonly pool: BatchPool;
  inFlight: number;
  lastUsed: number;
}

export class RunContexts {
  readonly #contexts = new Map<string, Promise<RunContext>>();

  constructor(
    private readonly workers: number,
    private readonly limit: number,
    /** Told when a run's worker threads fail to start on this machine. */
    private readonly onBroken: (run: string, reason: string) => void,
  ) {}

  /** The context of the job's run, created on its first chunk; the caller calls `release` when done. */
  async acquire(job: ChunkJob): Promise<RunContext> {
    const key = `${job.results}\u0000${job.run}`;
    let pending = this.#contexts.get(key);
    if (!pending) {
      pending = this.#open(job);
      this.#contexts.set(key, pending);
      // A context that could not be opened is tried again with the next chunk (the file may be back).
      pending.catch(() => this.#contexts.delete(key));
    }
    const context = await pending;
    context.inFlight++;
    context.lastUsed = Date.now();
    await this.#evict();
    return context;
  }

  release(context: RunContext): void {
    context.inFlight--;
    context.lastUsed = Date.now();
  }

  async close(): Promise<void> {
    const contexts = await Promise.allSettled([...this.#contexts.values()]);
    this.#contexts.clear();
    await Promise.all(contexts.flatMap((c) => (c.status === 'fulfilled' ? [c.value.pool.terminate()] : [])));
  }

  async #open(job: ChunkJob): Promise<RunContext> {
    let manifest: Manifest;
    try {
      manifest = await readManifest(job.results);
      if (manifest.run !== job.run) {
        throw new InputError('--results', `${job.results} holds run ${manifest.run}, not ${job.run}`);
      }
      if (manifest.input.path !== job.input) {
        throw new InputError('input', `run ${job.run} reads ${manifest.input.path}, the job ${job.input}`);
      }
      await checkFiles(manifest);
      if (costHash(manifest.request) !== manifest.costSha256) {
        throw new InputError(
          '--cost-model',
          `the cost model differs from the one run ${job.run} was submitted with`,
        );
      }
    } catch (error) {
      if (error instanceof InputError) throw new PermanentError(error.message);
      throw error;
    }
    const pool = createBatchPool(
      {
        request: manifest.request,
        stepByStep: manifest.stepByStep,
        recordTimeoutMs: manifest.recordTimeoutMs,
        recordBase: recordBase(manifest),
      },
      this.workers,
      (reason) => this.onBroken(job.run, reason),
    );
    return { manifest, pool, inFlight: 0, lastUsed: Date.now() };
  }

  async #evict(): Promise<void> {
    if (this.#contexts.size <= this.limit) return;
    const settled = await Promise.all(
      [...this.#contexts].map(async ([key, pending]) => ({
        key,
        context: await pending.catch(() => undefined),
      })),
    );
    const idle = settled
      .filter((x) => x.context && x.context.inFlight === 0)
      .sort((a, b) => a.context!.lastUsed - b.context!.lastUsed);
    for (const { key, context } of idle.slice(0, this.#contexts.size - this.limit)) {
      this.#contexts.delete(key);
      await context!.pool.terminate();
    }
  }
}
