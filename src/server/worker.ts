/**
 * A solve worker of the server: keeps the catalogs it was sent (by key and version, mirrored by the main
 * thread) and runs jobs. One solver instance per worker: the shared backends are per thread.
 */
import type { Catalog } from '../model/types.ts';
import { runJob, type JobMessage } from './jobs.ts';
import { jobData, serveJobs } from '../workers/serve.ts';

export interface WorkerData {
  /**
   * Test hooks: a job whose id is `test:block:<ms>` blocks the thread, `test:exit:<code>` ends it,
   * `test:sleep:<ms>` waits that long before its repair unless it is cancelled first.
   */
  readonly testHooks?: boolean;
}

const catalogs = new Map<string, { version: number; catalog: Catalog }>();
const { testHooks } = jobData<WorkerData>() ?? {};

async function applyTestHook(id: string | undefined, signal: AbortSignal): Promise<void> {
  const match = id === undefined ? null : /^test:(block|exit|sleep):(\d+)$/.exec(id);
  if (!match) return;
  const n = Number(match[2]);
  // A blocked thread stands for a solver stuck in WASM: no timer of its own can stop it.
  if (match[1] === 'block') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n);
  else if (match[1] === 'sleep') {
    // A long solve that looks at its signal, as the compile loops do.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, n);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  } else process.exit(n);
}

serveJobs(async (message: JobMessage, { signal }) => {
  for (const key of message.drop ?? []) catalogs.delete(key);
  const { key, version } = message.catalog;
  if (message.catalogData) catalogs.set(key, { version, catalog: message.catalogData });
  const cached = catalogs.get(key);
  if (!cached || cached.version !== version) throw new Error(`catalog ${key} v${version} was never sent`);
  if (testHooks) await applyTestHook(message.job.id, signal);
  return runJob({ ...message.job, options: { ...message.job.options, signal } }, cached.catalog);
});
