/**
 * A pool of worker threads, each with its own solver and catalog. A worker that crashes, reports a solver
 * fault or overruns the per-record watchdog is retired and replaced; the record it was on is retried once,
 * then written as an `error` result. Records queued behind it are re-sent without losing an attempt.
 */
import { Worker } from 'node:worker_threads';
import { errorDone } from './lines.ts';
import type { Done, FromWorker, Task, ToWorker, WorkerSetup } from './types.ts';

export interface PoolOptions {
  readonly size: number;
  readonly setup: WorkerSetup;
  /** Watchdog per record, in ms, counted from when the record reaches the head of its worker's queue. */
  readonly recordTimeoutMs: number;
  /** Records sent ahead to one worker, so it never waits for the next message (default 2). */
  readonly depth?: number;
  readonly onDone: (done: Done) => void;
  /** A worker could not even start: the run cannot go on. */
  readonly onFatal: (error: Error) => void;
}

const ATTEMPTS = 2;
const BOOT = new URL('./worker-boot.mjs', import.meta.url);

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  retired: boolean;
  /** Tasks sent to the worker, oldest (running) first. */
  readonly tasks: Task[];
  timer?: ReturnType<typeof setTimeout>;
}

export class WorkerPool {
  readonly #options: PoolOptions;
  readonly #depth: number;
  readonly #slots: Slot[] = [];
  /** Tasks waiting for a worker, in input order (retries go first). */
  readonly #pending: Task[] = [];
  #closed = false;
  #restarts = 0;

  constructor(options: PoolOptions) {
    this.#options = options;
    this.#depth = options.depth ?? 2;
    for (let i = 0; i < options.size; i++) this.#slots.push(this.#spawn());
  }

  /** Tasks not finished yet (queued or in a worker). */
  get inFlight(): number {
    return this.#pending.length + this.#slots.reduce((n, s) => n + s.tasks.length, 0);
  }

  /** Workers retired and replaced so far. */
  get restarts(): number {
    return this.#restarts;
  }

  submit(task: Task): void {
    this.#pending.push(task);
    this.#dispatch();
  }

  /** Stops every worker; unfinished tasks are dropped. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#pending.length = 0;
    await Promise.all(this.#slots.map((slot) => this.#stop(slot)));
  }

  #spawn(): Slot {
    const worker = new Worker(BOOT, { workerData: this.#options.setup });
    const slot: Slot = { worker, ready: false, retired: false, tasks: [] };
    worker.on('message', (message: FromWorker) => this.#onMessage(slot, message));
    worker.on('error', (error) => this.#fail(slot, `worker crashed: ${error.message}`));
    worker.on('exit', (code) => this.#fail(slot, `worker exited with code ${code}`));
    return slot;
  }

  #onMessage(slot: Slot, message: FromWorker): void {
    if (slot.retired) return;
    if (message.type === 'ready') {
      slot.ready = true;
      this.#dispatch();
      return;
    }
    const task = slot.tasks[0];
    if (!task || task.seq !== message.seq) {
      this.#fail(slot, `internal: worker answered record ${message.seq} out of turn`);
      return;
    }
    if (message.type === 'fault') {
      this.#fail(slot, message.reason);
      return;
    }
    slot.tasks.shift();
    this.#arm(slot);
    this.#options.onDone({ seq: message.seq, line: message.line, outcome: message.outcome });
    this.#dispatch();
  }

  /** Retires a worker: its running task loses an attempt, the others go back to the queue. */
  #fail(slot: Slot, reason: string): void {
    if (slot.retired || this.#closed) return;
    void this.#stop(slot);
    if (!slot.ready) {
      this.#options.onFatal(new Error(`a batch worker failed to start: ${reason}`));
      return;
    }
    const [running, ...queued] = slot.tasks;
    const retry: Task[] = [];
    if (running) {
      if (running.attempt + 1 < ATTEMPTS) retry.push({ ...running, attempt: running.attempt + 1 });
      else {
        const done = errorDone(running.record, `failed ${ATTEMPTS} times: ${reason}`);
        this.#options.onDone({ seq: running.seq, ...done });
      }
    }
    this.#pending.unshift(...retry, ...queued);
    this.#slots[this.#slots.indexOf(slot)] = this.#spawn();
    this.#restarts++;
    this.#dispatch();
  }

  async #stop(slot: Slot): Promise<void> {
    slot.retired = true;
    clearTimeout(slot.timer);
    await slot.worker.terminate();
  }

  /** Starts the watchdog for the task now at the head of a worker's queue. */
  #arm(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    const head = slot.tasks[0];
    if (!head) return;
    const ms = this.#options.recordTimeoutMs;
    slot.timer = setTimeout(() => {
      if (slot.tasks[0] === head)
        this.#fail(slot, `record took longer than the ${ms / 1000} s record timeout`);
    }, ms);
  }

  #dispatch(): void {
    while (this.#pending.length > 0 && !this.#closed) {
      let best: Slot | undefined;
      for (const slot of this.#slots) {
        if (!slot.ready || slot.retired || slot.tasks.length >= this.#depth) continue;
        if (!best || slot.tasks.length < best.tasks.length) best = slot;
      }
      if (!best) return;
      const task = this.#pending.shift()!;
      best.tasks.push(task);
      if (best.tasks.length === 1) this.#arm(best);
      best.worker.postMessage({ type: 'task', task } satisfies ToWorker);
    }
  }
}
