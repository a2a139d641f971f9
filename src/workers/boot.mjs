// Starts a pool worker: registers tsx so the worker can run TypeScript (a loader given in execArgv does
// not reach a worker's entry on Node 20), then imports the entry named by the pool.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
