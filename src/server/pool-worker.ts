/** The worker side of `WorkerPool`: one job at a time; the handler's value is posted back. */
import { parentPort, workerData } from 'node:worker_threads';

/** The `data` the pool was created with. */
export function jobData<T>(): T {
  return (workerData as { data: T }).data;
}

/**
 * Tells the pool the worker is ready, then answers every job message with the handler's value. A thrown error is reported as a failed job; results
 * that can be expected (bad input, say) should be part of the value instead.
 */
export function serveJobs<In, Out>(handler: (input: In) => Out | Promise<Out>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs must run in a worker thread');
  port.on('message', async (input: In) => {
    try {
      port.postMessage({ ok: true, value: await handler(input) });
    } catch (error) {
      port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.postMessage({ ready: true });
}
