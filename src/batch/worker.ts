/**
 * A batch worker thread: loads the catalog and the request's settings once, then repairs the records it
 * is sent, one at a time and in the order received. A solver fault is thrown as a `WorkerFault`, for the pool to retire the
 * worker.
 */
import { loadCatalog } from '../read/catalog.ts';
import { requestSettings } from '../api/call.ts';
import { jobData, serveJobs, WorkerFault } from '../workers/serve.ts';
import { runJob, type JobContext } from './job.ts';
import type { InjectedFault, Task, WorkerResult, WorkerSetup } from './types.ts';

const setup = jobData<WorkerSetup>();
const catalog = setup.request.catalogPath ? loadCatalog(setup.request.catalogPath) : undefined;
const settings = requestSettings('fix', setup.request, { files: true });
const context: JobContext = { catalog, settings, stepByStep: setup.stepByStep };

/** Share of the record watchdog a repair may use, so it ends as a `timeout` line before the watchdog. */
const RECORD_SHARE = 0.8;

/** Fails the way a test asked for, on the first `times` attempts at one record. */
function injectFault(faults: readonly InjectedFault[], task: Task): Promise<never> | undefined {
  const fault = faults.find((f) => f.id === task.record.id && task.attempt < f.times);
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

serveJobs(async (task: Task): Promise<WorkerResult> => {
  const injected = setup.faults && injectFault(setup.faults, task);
  if (injected) return injected;
  const budget = setup.recordTimeoutMs;
  const deadline = budget === undefined ? undefined : Date.now() + budget * RECORD_SHARE;
  const settings = { ...context.settings, options: { ...context.settings.options, deadline } };
  const result = await runJob(task.record, { ...context, settings });
  if (result.kind === 'fault') throw new WorkerFault(result.reason);
  return { line: result.line, outcome: result.outcome };
});
