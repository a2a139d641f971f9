/**
 * A batch worker thread: loads the catalog and the request's settings once, then repairs the records it is
 * sent, many per message, one after another in the order received. Records arrive as JSON text and are
 * parsed here; the catalogs they carry are parsed once per distinct catalog. A solver fault is thrown as a
 * `WorkerFault`, for the pool to retire the worker (the run then sends the task's records again one by one).
 * The build bundles this module and everything it imports (the solvers' packages aside, loaded on first
 * solve) into one file, `dist/src/batch/worker.js` (`npm run build:worker`): each worker then reads one
 * module instead of some 200, which halves the time it takes to be ready.
 */
import { loadCatalog } from '../read/catalog.ts';
import { sourceRecord, type RecordItem } from '../read/records.ts';
import { requestSettings } from '../api/call.ts';
import { jobData, serveJobs, WorkerFault } from '../workers/serve.ts';
import { RecordCatalogs } from './catalogs.ts';
import { runJob, type JobContext } from './job.ts';
import type { InjectedFault, Task, WorkerResult, WorkerSetup } from './types.ts';

const setup = jobData<WorkerSetup>();
const catalog = setup.request.catalogPath ? loadCatalog(setup.request.catalogPath) : undefined;
const settings = requestSettings('fix', setup.request, { files: true });
const context: JobContext = { catalog, settings, stepByStep: setup.stepByStep };
const catalogs = new RecordCatalogs({ base: setup.recordBase });

/**
 * What a repair leaves of the record watchdog, so it ends as a `timeout` line before the watchdog: a fifth of
 * it, and at least a second (half of it when shorter), since a loaded machine can stall a worker that long.
 */
const recordDeadlineSlack = (budgetMs: number): number =>
  Math.max(budgetMs * 0.2, Math.min(1000, budgetMs / 2));

/**
 * A record that starts this long after the task (or the last report) reports progress, which starts the
 * task's watchdog again: the watchdog bounds each record, give or take this, and fast records cost no
 * message.
 */
const PROGRESS_AFTER_MS = 100;

/** Fails the way a test asked for, on the first `times` attempts at one record. */
function injectFault(
  faults: readonly InjectedFault[],
  record: RecordItem,
  attempt: number,
): Promise<never> | undefined {
  const fault = faults.find((f) => f.id === record.id && attempt < f.times);
  if (!fault) return undefined;
  switch (fault.mode) {
    case 'throw':
      process.nextTick(() => {
        throw new Error(`injected fault on record ${fault.id}`);
      });
      // Never settles: the uncaught exception ends the worker.
      return new Promise<never>(() => {});
    case 'exit':
      process.exit(70);
      return undefined;
    case 'hang':
      for (;;);
    case 'abort':
      throw new WorkerFault('RuntimeError: Aborted() (injected)');
  }
}

serveJobs(async (task: Task, { progress }): Promise<WorkerResult> => {
  const start = performance.now();
  let reported = start;
  const results: WorkerResult['results'][number][] = [];
  for (const { source } of task.records) {
    const now = performance.now();
    if (now - reported >= PROGRESS_AFTER_MS) {
      progress();
      reported = now;
    }
    const record = sourceRecord(source, {
      parseCatalog: catalogs.parse,
      keepUnparsed: setup.request.heal === true,
    });
    const injected = setup.faults && injectFault(setup.faults, record, task.attempt);
    if (injected) return injected;
    const budget = setup.recordTimeoutMs;
    const deadline = budget === undefined ? undefined : Date.now() + budget - recordDeadlineSlack(budget);
    const settings = { ...context.settings, options: { ...context.settings.options, deadline } };
    const result = await runJob(record, { ...context, settings });
    if (result.kind === 'fault') throw new WorkerFault(result.reason);
    results.push({ line: result.line, outcome: result.outcome });
  }
  return { results, ms: performance.now() - start };
});
