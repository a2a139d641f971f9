/**
 * A solve worker of the server: keeps the catalogs it was sent (by key and version, mirrored by the main
 * thread) and runs jobs. One solver instance per worker: the shared backends are per thread.
 */
import type { Catalog } from '../model/types.ts';
import { runJob, type JobMessage } from './jobs.ts';
import { jobData, serveJobs } from '../workers/serve.ts';

export interface WorkerData {
  /** Test hooks: a job whose id is `test:block:<ms>` blocks the thread, `test:exit:<code>` ends it. */
  readonly testHooks?: boolean;
}

const catalogs = new Map<string, { version: number; catalog: Catalog }>();
const { testHooks } = jobData<WorkerData>() ?? {};

function applyTestHook(id: string | undefined): void {
  const match = id === undefined ? null : /^test:(block|exit):(\d+)$/.exec(id);
  if (!match) return;
  const n = Number(match[2]);
  // A blocked thread stands for a solver stuck in WASM: no timer of its own can stop it.
  if (match[1] === 'block') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n);
  else process.exit(n);
}

serveJobs(async (message: JobMessage) => {
  for (const key of message.drop ?? []) catalogs.delete(key);
  const { key, version } = message.catalog;
  if (message.catalogData) catalogs.set(key, { version, catalog: message.catalogData });
  const cached = catalogs.get(key);
  if (!cached || cached.version !== version) throw new Error(`catalog ${key} v${version} was never sent`);
  if (testHooks) applyTestHook(message.job.id);
  return runJob(message.job, cached.catalog);
});
