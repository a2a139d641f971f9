/** The worker side of `WorkerPool`: jobs are handled one at a time, in the order received. */
import { parentPort, workerData } from 'node:worker_threads';

/** The `data` the pool was created with. */
export function jobData<T>(): T {
  return (workerData as { data: T }).data;
}

/** Thrown by a handler when the worker itself is no longer fit to run jobs (a solver fault): the pool replaces it. */
export class WorkerFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerFault';
  }
}

/** A job as the pool sends it, and the worker's answer. */
export interface JobRequest {
  readonly id: number;
  readonly input: unknown;
}

/** Tells the worker to stop job `cancel` (its handler's signal aborts; a job not yet started is skipped). */
export interface CancelRequest {
  readonly cancel: number;
}

/** Tells the pool that job `progress` is still making progress: its run time limit starts again. */
export interface ProgressReport {
  readonly progress: number;
}

/** What a handler gets besides its input. */
export interface JobContext {
  /** Aborted when the pool cancels the job (the client went away): stop at the next convenient point. */
  readonly signal: AbortSignal;
  /**
   * Starts the job's run time limit again: a job that works through several items calls it as it starts
   * each one, so that the limit bounds one item rather than their sum.
   */
  readonly progress: () => void;
}

export type JobReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string; readonly fault: boolean };

/**
 * Tells the pool the worker is ready, then answers every job with the handler's value, strictly one after
 * another (the pool times the oldest job a worker holds). A thrown error is reported as a failed job, a
 * `WorkerFault` as a fault that retires the worker; results that can be expected (bad input, say) should be
 * part of the value instead.
 */
export function serveJobs<In, Out>(handler: (input: In, context: JobContext) => Out | Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs must run in a worker thread');
  // Jobs received and not yet answered, by id: a cancel finds its job here.
  const live = new Map<number, AbortController>();
  const answer = async ({ id, input }: JobRequest, controller: AbortController): Promise<void> => {
    let reply: JobReply;
    try {
      if (controller.signal.aborted) throw new Error('cancelled before it started');
      const progress = () => port.postMessage({ progress: id } satisfies ProgressReport);
      reply = { id, ok: true, value: await handler(input as In, { signal: controller.signal, progress }) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { id, ok: false, error: message, fault: error instanceof WorkerFault };
    }
    live.delete(id);
    port.postMessage(reply);
  };
  let queue = Promise.resolve();
  port.on('message', (message: JobRequest | CancelRequest) => {
    if ('cancel' in message) {
      live.get(message.cancel)?.abort();
      return;
    }
    const controller = new AbortController();
    live.set(message.id, controller);
    queue = queue.then(() => answer(message, controller));
  });
  port.postMessage({ ready: true });
}
