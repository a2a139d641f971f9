/**
 * A generic pool of worker threads. Each worker may hold up to `depth` jobs at once (sent ahead so it
 * never waits for the next message); it runs them one after another. A job that outlives its time limit
 * gets its worker terminated and replaced; a worker that dies or reports a fault mid-job is replaced too.
 * Either way the job's promise rejects with a `PoolError` naming the reason, jobs sent ahead to that worker
 * go back to the head of the queue, and the other workers carry on. Retrying is left to the caller.
 *
 * A compiled entry (`.js`, the built package) is the worker's script itself; a TypeScript entry (running
 * from the sources, under vitest or tsx) is started from `boot.mjs`, which registers tsx (a development
 * dependency) and imports it. The entry calls `serveJobs` (serve.ts); `packageModule` names it so that the
 * same line works in both.
 */
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../read/package-files.ts';
import type { CancelRequest, JobReply, JobRequest, ProgressReport } from './serve.ts';

/**
 * `timeout`: over a time limit; `crash`: the worker died; `fault`: the worker reported a `WorkerFault`;
 * `failed`: the job threw (the worker lives on); `broken`: workers fail to start; `closed`: shut down;
 * `cancelled`: the submitter's signal aborted it.
 */
export type PoolErrorKind = 'timeout' | 'crash' | 'fault' | 'failed' | 'broken' | 'closed' | 'cancelled';

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
  /** Passed to every worker (`jobData()` in serve.ts). */
  readonly data?: unknown;
  /** Jobs sent to one worker at once (default 1). */
  readonly depth?: number;
  /** Workers in a row that die before they are ready, after which the pool gives up (default 3). */
  readonly bootFailures?: number;
  /** Let the process exit while workers are alive (default false). */
  readonly unref?: boolean;
  /** Told each time a worker is replaced, with the reason. */
  readonly onReplace?: (slot: number, reason: string) => void;
  /** Told once if the pool gives up because workers fail to start, with the last reason. */
  readonly onBroken?: (reason: string) => void;
}

export interface SubmitOptions {
  /** Time limit from submission (queueing included); none by default. */
  readonly timeoutMs?: number;
  /**
   * Time limit from when the job reaches the head of its worker's queue (it is running), started again by
   * each progress report of its handler (`JobContext.progress`); none by default.
   */
  readonly runTimeoutMs?: number;
  /** Queue the job ahead of those waiting (a retry, say). */
  readonly first?: boolean;
  /**
   * Cancels the job: a queued one leaves the queue at once; a sent one is told to stop (`serveJobs` hands
   * the handler an aborted signal) and the promise rejects as `cancelled` when the worker answers, so the
   * submitter knows when the worker is free again.
   */
  readonly signal?: AbortSignal;
}

/** The job message: a value, or a function of the worker it will run on (to send what it lacks). */
export type JobInput<In> = In | ((slot: PoolSlot) => In);

interface Pending {
  readonly id: number;
  readonly input: (slot: PoolSlot) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: PoolError) => void;
  readonly runTimeoutMs?: number;
  timer?: NodeJS.Timeout;
  done: boolean;
  member?: Member;
  /** Set when the submitter cancelled the job after it was sent. */
  cancelled?: boolean;
}

interface Member extends PoolSlot {
  worker: Worker;
  /** Jobs sent to the worker, oldest (running) first; a settled one stays until the worker answers it. */
  jobs: Pending[];
  /** Time limit of the running job. */
  timer?: NodeJS.Timeout;
  /** The worker has loaded its entry and takes jobs. */
  ready: boolean;
  /** Set once this member is being replaced or shut down: its events no longer matter. */
  retired: boolean;
}

/** Starts a TypeScript entry under tsx (only from the sources, where this file sits beside it). */
const BOOT = new URL('./boot.mjs', import.meta.url);

/** This code runs from its TypeScript sources (tests, `tsx`), not from the build. */
const FROM_SOURCES = extname(new URL(import.meta.url).pathname) === '.ts';

/**
 * A module of this package by its source path (`src/batch/worker`): the TypeScript source when this code
 * runs from the sources, its compiled form under `dist/` otherwise. Found from the package's root, not
 * from the caller's folder: the bundled command line (`dist/cli/`) runs this code from elsewhere.
 */
export function packageModule(path: string): URL {
  return pathToFileURL(join(PACKAGE_ROOT, FROM_SOURCES ? `${path}.ts` : `dist/${path}.js`));
}

/** Removes a job's abort listener once it settles. */
const abortListeners = new WeakMap<Pending, () => void>();

const validMs = (ms: number | undefined): ms is number => ms !== undefined && Number.isFinite(ms) && ms > 0;
const limit = (ms: number) => `the job exceeded the time limit of ${ms / 1000} s`;

export class WorkerPool<In, Out> {
  private readonly members: Member[] = [];
  private readonly queue: Pending[] = [];
  private readonly open = new Set<Promise<unknown>>();
  private readonly depth: number;
  private nextId = 0;
  private nextJob = 0;
  private replaced = 0;
  private bootFailures = 0;
  private broken?: string;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.depth = Math.max(1, Math.floor(options.depth ?? 1));
    const size = Math.max(1, Math.floor(options.size));
    for (let i = 0; i < size; i++) this.members.push(this.spawn());
  }

  get size(): number {
    return this.members.length;
  }

  /** Workers ready and busy, jobs waiting, workers replaced so far. */
  stats(): { size: number; ready: number; busy: number; queued: number; replaced: number } {
    const ready = this.members.filter((m) => m.ready).length;
    const busy = this.members.filter((m) => m.jobs.length > 0).length;
    return { size: this.members.length, ready, busy, queued: this.queue.length, replaced: this.replaced };
  }

  submit(input: JobInput<In>, options: SubmitOptions = {}): Promise<Out> {
    if (this.closed) return Promise.reject(new PoolError('closed', 'the worker pool is shut down'));
    if (this.broken) return Promise.reject(new PoolError('broken', this.broken));
    const promise = new Promise<Out>((resolve, reject) => {
      const job: Pending = {
        id: this.nextJob++,
        input: typeof input === 'function' ? (input as (slot: PoolSlot) => In) : () => input,
        resolve: resolve as (value: unknown) => void,
        reject,
        runTimeoutMs: validMs(options.runTimeoutMs) ? options.runTimeoutMs : undefined,
        done: false,
      };
      const ms = options.timeoutMs;
      if (validMs(ms)) job.timer = setTimeout(() => this.expire(job, ms), ms);
      if (options.first) this.queue.unshift(job);
      else this.queue.push(job);
      const signal = options.signal;
      if (signal) {
        const onAbort = () => this.cancel(job);
        if (signal.aborted) queueMicrotask(onAbort);
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          const forget = () => signal.removeEventListener('abort', onAbort);
          abortListeners.set(job, forget);
        }
      }
    });
    this.open.add(promise);
    const forget = () => void this.open.delete(promise);
    promise.then(forget, forget);
    this.dispatch();
    return promise;
  }

  /** Terminates one worker and starts a fresh one in its place; its running job fails with `reason`. */
  replace(slot: PoolSlot, reason: string, kind: PoolErrorKind = 'crash'): void {
    const at = this.members.findIndex((m) => m.id === slot.id);
    if (at === -1) return;
    const member = this.members[at];
    member.retired = true;
    clearTimeout(member.timer);
    const [running, ...ahead] = member.jobs.splice(0);
    if (running) this.settle(running, new PoolError(kind, reason));
    // Jobs sent ahead never started: they go back to the head of the queue, in order.
    const requeued = ahead.filter((job) => !job.done);
    for (const job of requeued) job.member = undefined;
    this.queue.unshift(...requeued);
    void member.worker.terminate();
    this.options.onReplace?.(member.id, reason);
    if (!member.ready && ++this.bootFailures >= (this.options.bootFailures ?? 3)) {
      // A worker that cannot start would be restarted forever: give up and say why.
      this.broken = `workers fail to start (${reason})`;
      for (const job of this.queue.splice(0)) this.settle(job, new PoolError('broken', this.broken));
      this.options.onBroken?.(reason);
    }
    if (this.closed || this.broken) {
      this.members.splice(at, 1);
      return;
    }
    this.members[at] = this.spawn();
    this.replaced++;
    this.dispatch();
  }

  /** Lets no new jobs in, waits for those submitted to settle, then terminates every worker. */
  async drain(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.open]);
    await this.terminate();
  }

  /** Fails queued jobs, lets no new ones in and terminates every worker (running jobs fail as `closed`). */
  async terminate(): Promise<void> {
    this.closed = true;
    const closed = () => new PoolError('closed', 'the worker pool is shut down');
    for (const job of this.queue.splice(0)) this.settle(job, closed());
    const members = this.members.splice(0);
    for (const m of members) {
      m.retired = true;
      clearTimeout(m.timer);
      for (const job of m.jobs.splice(0)) this.settle(job, closed());
    }
    await Promise.all(members.map((m) => m.worker.terminate()));
  }

  private spawn(): Member {
    const { entry, data } = this.options;
    const typescript = /\.[mc]?ts$/.test(entry.pathname);
    const worker = new Worker(typescript ? BOOT : entry, { workerData: { entry: entry.href, data } });
    const member: Member = {
      id: this.nextId++,
      memo: new Map(),
      worker,
      jobs: [],
      ready: false,
      retired: false,
    };
    worker.on('message', (message: { ready: true } | ProgressReport | JobReply) => {
      if (member.retired) return;
      if ('ready' in message) {
        member.ready = true;
        this.bootFailures = 0;
        this.dispatch();
      } else if ('progress' in message) {
        // The running job started another item: its run time limit counts from now.
        if (member.jobs[0]?.id === message.progress) this.arm(member);
      } else this.answer(member, message);
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
    if (this.options.unref) worker.unref();
    return member;
  }

  private answer(member: Member, reply: JobReply): void {
    const job = member.jobs[0];
    if (!job || job.id !== reply.id) {
      this.replace(member, `internal: worker answered job ${reply.id} out of turn`);
      return;
    }
    if (!reply.ok && reply.fault) {
      this.replace(member, reply.error, 'fault');
      return;
    }
    member.jobs.shift();
    this.arm(member);
    if (job.cancelled) this.settle(job, new PoolError('cancelled', 'the job was cancelled while it ran'));
    else if (reply.ok) this.settle(job, undefined, reply.value);
    else this.settle(job, new PoolError('failed', reply.error || 'the job failed'));
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let best: Member | undefined;
      for (const m of this.members) {
        if (!m.ready || m.retired || m.jobs.length >= this.depth) continue;
        if (!best || m.jobs.length < best.jobs.length) best = m;
      }
      if (!best) return;
      const job = this.queue.shift()!;
      let request: JobRequest;
      try {
        request = { id: job.id, input: job.input(best) };
        best.worker.postMessage(request);
      } catch (error) {
        this.settle(job, new PoolError('failed', `cannot send the job: ${(error as Error).message}`));
        continue;
      }
      job.member = best;
      best.jobs.push(job);
      if (best.jobs.length === 1) this.arm(best);
    }
  }

  /** Starts the run time limit of the job now at the head of a worker's queue. */
  private arm(member: Member): void {
    clearTimeout(member.timer);
    member.timer = undefined;
    const head = member.jobs[0];
    const ms = head?.runTimeoutMs;
    if (ms === undefined) return;
    member.timer = setTimeout(() => {
      if (member.jobs[0] === head && !member.retired)
        this.replace(member, `${limit(ms)}; its worker was replaced`, 'timeout');
    }, ms);
  }

  /** A queued job leaves the queue; a sent one is told to stop and settles when its worker answers. */
  private cancel(job: Pending): void {
    if (job.done) return;
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.settle(job, new PoolError('cancelled', 'the job was cancelled before it started'));
      return;
    }
    const member = job.member;
    if (!member || member.retired) return;
    job.cancelled = true;
    const message: CancelRequest = { cancel: job.id };
    member.worker.postMessage(message);
  }

  private expire(job: Pending, ms: number): void {
    if (job.done) return;
    const queued = this.queue.indexOf(job);
    if (queued !== -1) this.queue.splice(queued, 1);
    const member = job.member;
    if (member && member.jobs[0] === job) {
      // The worker may be stuck in a solver call that never yields: only terminating it frees the thread.
      this.replace(member, `${limit(ms)}; its worker was replaced`, 'timeout');
    } else this.settle(job, new PoolError('timeout', `${limit(ms)} while waiting for a worker`));
  }

  private settle(job: Pending, error: PoolError | undefined, value?: unknown): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    abortListeners.get(job)?.();
    abortListeners.delete(job);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
