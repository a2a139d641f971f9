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

export type JobReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string; readonly fault: boolean };

/**
 * Tells the pool the worker is ready, then answers every job with the handler's value, strictly one after
 * another (the pool times the oldest job a worker holds). A thrown error is reported as a failed job, a
 * `WorkerFault` as a fault that retires the worker; results that can be expected (bad input, say) should be
 * part of the value instead.
 */
export function serveJobs<In, Out>(handler: (input: In) => Out | Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs must run in a worker thread');
  const answer = async ({ id, input }: JobRequest): Promise<void> => {
    let reply: JobReply;
    try {
      reply = { id, ok: true, value: await handler(input as In) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { id, ok: false, error: message, fault: error instanceof WorkerFault };
    }
    port.postMessage(reply);
  };
  let queue = Promise.resolve();
  port.on('message', (request: JobRequest) => {
    queue = queue.then(() => answer(request));
  });
  port.postMessage({ ready: true });
}
