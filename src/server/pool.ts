/**
 * A small, generic pool of worker threads, one job per worker at a time. A job that outlives its time
 * limit gets its worker terminated and replaced; a worker that dies mid-job is replaced too. Either way
 * the job's promise rejects with a `PoolError` naming the reason, and the other workers carry on.
 *
 * Workers run TypeScript: each is started from `boot.mjs`, which registers tsx and imports `entry`.
 * The entry calls `serveJobs` (pool-worker.ts).
 */
import { Worker } from 'node:worker_threads';

export type PoolErrorKind = 'timeout' | 'crash' | 'closed' | 'failed';

export class PoolError extends Error {
  readonly kind: PoolErrorKind;
  constructor(kind: PoolErrorKind, message: string) {
    super(message);
    this.name = 'PoolError';
    this.kind = kind;
  }
}

/** One worker as the submitter sees it. `memo` lives as long as the worker: what it was already sent. */
export interface PoolSlot {
  readonly id: number;
  readonly memo: Map<string, unknown>;
}

export interface WorkerPoolOptions {
  /** The worker's TypeScript (or JavaScript) module; it must call `serveJobs`. */
  readonly entry: URL;
  /** Number of workers (at least 1). */
  readonly size: number;
  /** Passed to every worker (`jobData()` in pool-worker.ts). */
  readonly data?: unknown;
  /** Told each time a worker is replaced, with the reason. */
  readonly onReplace?: (slot: number, reason: string) => void;
}

export interface SubmitOptions {
  /** Time limit from submission (queueing included); none by default. */
  readonly timeoutMs?: number;
}

/** The job message: a value, or a function of the worker it will run on (to send what it lacks). */
export type JobInput<In> = In | ((slot: PoolSlot) => In);

interface Pending {
  readonly input: (slot: PoolSlot) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: PoolError) => void;
  timer?: NodeJS.Timeout;
  done: boolean;
  member?: Member;
}

interface Member extends PoolSlot {
  worker: Worker;
  job?: Pending;
  /** The worker has loaded its entry and takes jobs. */
  ready: boolean;
  /** Set once this member is being replaced or shut down: its events no longer matter. */
  retired: boolean;
}

const BOOT = new URL('./boot.mjs', import.meta.url);

/** Workers that die before they are ready, in a row, after which the pool stops starting new ones. */
const BOOT_FAILURES = 3;

export class WorkerPool<In, Out> {
  private readonly members: Member[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private replaced = 0;
  private bootFailures = 0;
  private broken?: string;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, Math.floor(options.size));
    for (let i = 0; i < size; i++) this.members.push(this.spawn());
  }

  get size(): number {
    return this.members.length;
  }

  /** Workers ready and busy, jobs waiting, workers replaced so far. */
  stats(): { size: number; ready: number; busy: number; queued: number; replaced: number } {
    const ready = this.members.filter((m) => m.ready).length;
    const busy = this.members.filter((m) => m.job).length;
    return { size: this.members.length, ready, busy, queued: this.queue.length, replaced: this.replaced };
  }

  submit(input: JobInput<In>, options: SubmitOptions = {}): Promise<Out> {
    if (this.closed) return Promise.reject(new PoolError('closed', 'the worker pool is shut down'));
    if (this.broken) return Promise.reject(new PoolError('failed', this.broken));
    return new Promise<Out>((resolve, reject) => {
      const job: Pending = {
        input: typeof input === 'function' ? (input as (slot: PoolSlot) => In) : () => input,
        resolve: resolve as (value: unknown) => void,
        reject,
        done: false,
      };
      const ms = options.timeoutMs;
      if (ms !== undefined && Number.isFinite(ms) && ms > 0) {
        job.timer = setTimeout(() => this.expire(job, ms), ms);
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Terminates one worker and starts a fresh one in its place; its job (if any) fails with `reason`. */
  replace(slot: PoolSlot, reason: string, kind: PoolErrorKind = 'crash'): void {
    const at = this.members.findIndex((m) => m.id === slot.id);
    if (at === -1) return;
    const member = this.members[at];
    member.retired = true;
    if (member.job) this.settle(member.job, new PoolError(kind, reason));
    void member.worker.terminate();
    this.options.onReplace?.(member.id, reason);
    if (!member.ready && ++this.bootFailures >= BOOT_FAILURES) {
      // A worker that cannot start would be restarted forever: give up and say why.
      this.broken = `workers fail to start (${reason})`;
      for (const job of this.queue.splice(0)) this.settle(job, new PoolError('failed', this.broken));
    }
    if (this.closed || this.broken) {
      this.members.splice(at, 1);
      return;
    }
    this.members[at] = this.spawn();
    this.replaced++;
    this.dispatch();
  }

  /** Fails queued jobs, lets no new ones in and terminates every worker (running jobs fail as `closed`). */
  async terminate(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      this.settle(job, new PoolError('closed', 'the worker pool is shut down'));
    const members = this.members.splice(0);
    for (const m of members) {
      m.retired = true;
      if (m.job) this.settle(m.job, new PoolError('closed', 'the worker pool is shut down'));
    }
    await Promise.all(members.map((m) => m.worker.terminate()));
  }

  private spawn(): Member {
    const worker = new Worker(BOOT, {
      workerData: { entry: this.options.entry.href, data: this.options.data },
    });
    const member: Member = { id: this.nextId++, memo: new Map(), worker, ready: false, retired: false };
    worker.on('message', (message: { ready?: true; ok?: boolean; value?: unknown; error?: string }) => {
      if (message.ready) {
        member.ready = true;
        this.bootFailures = 0;
        this.dispatch();
        return;
      }
      const job = member.job;
      if (member.retired || !job) return;
      member.job = undefined;
      if (message.ok) this.settle(job, undefined, message.value);
      else this.settle(job, new PoolError('failed', message.error ?? 'the job failed'));
      this.dispatch();
    });
    // An uncaught error ends the worker; 'exit' follows and replaces it.
    let failure: string | undefined;
    worker.on('error', (error) => {
      failure = `worker failed: ${error.message}`;
    });
    worker.on('exit', (code) => {
      if (member.retired) return;
      this.replace(member, failure ?? `worker exited with code ${code}`);
    });
    worker.unref();
    return member;
  }

  private dispatch(): void {
    for (const member of this.members) {
      if (this.queue.length === 0) return;
      if (member.job || member.retired || !member.ready) continue;
      const job = this.queue.shift()!;
      member.job = job;
      job.member = member;
      let message: unknown;
      try {
        message = job.input(member);
        member.worker.postMessage(message);
      } catch (error) {
        member.job = undefined;
        this.settle(job, new PoolError('failed', `cannot send the job: ${(error as Error).message}`));
      }
    }
  }

  private expire(job: Pending, ms: number): void {
    if (job.done) return;
    const reason = `the job exceeded the time limit of ${ms / 1000} s`;
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.settle(job, new PoolError('timeout', `${reason} while waiting for a worker`));
    } else if (job.member) {
      // The worker may be stuck in a solver call that never yields: only terminating it frees the thread.
      this.replace(job.member, `${reason}; its worker was replaced`, 'timeout');
    }
  }

  private settle(job: Pending, error: PoolError | undefined, value?: unknown): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (job.member?.job === job) job.member.job = undefined;
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
