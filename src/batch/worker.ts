/**
 * A batch worker thread: loads the catalog and options once, then repairs the records it is sent, one at a
 * time and in the order received, answering each with a `done` or `fault` message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRepairOptionsWithoutCatalog } from '../cli/common.ts';
import { runJob, type JobContext } from './job.ts';
import type { FromWorker, InjectedFault, Task, ToWorker, WorkerSetup } from './types.ts';

const port = parentPort;
if (!port) throw new Error('src/batch/worker.ts runs as a worker thread');

const setup = workerData as WorkerSetup;
const { catalog, options } = loadRepairOptionsWithoutCatalog(setup.flags);
const context: JobContext = { catalog, options, stepByStep: setup.stepByStep };

function send(message: FromWorker): void {
  port!.postMessage(message);
}

/** Fails the way a test asked for, on the first `times` attempts at one record. */
function injectFault(faults: readonly InjectedFault[], task: Task): boolean {
  const fault = faults.find((f) => f.id === task.record.id && task.attempt < f.times);
  if (!fault) return false;
  switch (fault.mode) {
    case 'throw':
      process.nextTick(() => {
        throw new Error(`injected fault on record ${fault.id}`);
      });
      return true;
    case 'exit':
      process.exit(70);
      return true;
    case 'hang':
      for (;;);
    case 'abort':
      send({ type: 'fault', seq: task.seq, reason: 'RuntimeError: Aborted() (injected)' });
      return true;
  }
}

async function handle(task: Task): Promise<void> {
  if (setup.faults && injectFault(setup.faults, task)) return;
  const result = await runJob(task.record, context);
  if (result.kind === 'fault') send({ type: 'fault', seq: task.seq, reason: result.reason });
  else send({ type: 'done', seq: task.seq, line: result.line, outcome: result.outcome });
}

// Records are handled strictly one after another: the pool's watchdog times the oldest one.
let queue = Promise.resolve();
port.on('message', (message: ToWorker) => {
  queue = queue.then(() => handle(message.task));
});
send({ type: 'ready' });
