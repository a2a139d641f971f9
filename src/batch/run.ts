/**
 * A batch run: records stream in as text, go through the worker pool many to a message (parsed there),
 * come back into input order and are appended to the output. Memory is bounded by a window: reading waits
 * while `window` records (or 64 MiB of input) are unwritten, and while the output has more than a few
 * batches queued.
 */
import { readRecordSources, sourceRecord, type RecordSource } from '../read/records.ts';
import { InputError } from '../model/errors.ts';
import type { ApiRequest } from '../api/request.ts';
import { PoolError } from '../workers/pool.ts';
import { createBatchPool, TASKS_AHEAD, type BatchPool } from './pool.ts';
import { judgingCatalog, RecordCatalogs } from './catalogs.ts';
import { countRecords } from './count.ts';
import { errorDone } from './lines.ts';
import type { ReadFile } from './out-path.ts';
import { checkOut, firstSource, openSink } from './opening.ts';
import { settingsStamp, stampLocalRun } from './settings-stamp.ts';
import type { Progress } from './progress.ts';
import { ReorderBuffer } from './reorder.ts';
import { outcomeOf, SummaryAccumulator, type Summary } from './summary.ts';
import { TaskSizer } from './tasks.ts';
import type { Done, InjectedFault, Task, TaskRecord } from './types.ts';

export { createBatchPool, type BatchPool } from './pool.ts';

export interface BatchOptions {
  /** The records file or stream; or `records`, already read (a slice of a file, say). */
  readonly input?: NodeJS.ReadableStream;
  readonly records?: AsyncIterable<RecordSource>;
  /** The input's file, when it is one (lets the progress count records for an ETA). */
  readonly inputPath?: string;
  /** Output file; without it, results go to `output` (default standard output). */
  readonly out?: string;
  readonly output?: NodeJS.WritableStream;
  /** The fix request every record is repaired with, resolved once in every worker (`catalogPath`, …). */
  readonly request: ApiRequest;
  /**
   * The directory a record's catalog given as a path (`"catalog": "tools.json"`) is read from: the input
   * file's. Without it a record carries its catalog itself. A caller's `pool` must have been started with
   * the same.
   */
  readonly recordBase?: string;
  readonly workers: number;
  /** Skip the records `out` already holds and append the rest. */
  readonly resume?: boolean;
  /** Replace what `out` holds (without it or `resume`, a non-empty `out` is refused). */
  readonly overwrite?: boolean;
  /** The other files the run reads (`--catalog`, `--memory`, …): `out` must be none of them. */
  readonly reads?: readonly ReadFile[];
  readonly stepByStep?: boolean;
  /** Per-record watchdog in ms (default 60 s). */
  readonly recordTimeoutMs?: number;
  readonly progress?: Progress;
  /** Abort = stop reading, abandon the records in flight, write what is finished in order. */
  readonly signal?: AbortSignal;
  /** Records that may be unwritten at once (default 1,024 per worker). */
  readonly window?: number;
  /**
   * Keep the run's settings beside `out` (`OUT.settings.json`) and, with `resume`, refuse settings other
   * than those stamped there (`refract batch`; a distributed run keeps them in its manifest).
   */
  readonly stampSettings?: boolean;
  /** Faults to inject into the workers (tests of the retry path). */
  readonly faults?: readonly InjectedFault[];
  /**
   * Workers started by the caller (`createBatchPool`, with the same flags), kept across runs: the run
   * neither starts nor shuts down workers of its own.
   */
  readonly pool?: BatchPool;
}

export interface BatchReport {
  readonly summary: Summary;
  /** Records processed by this run. */
  readonly processed: number;
  /** Records skipped because the output already held them. */
  readonly resumed: number;
  readonly interrupted: boolean;
  /** Workers retired (crash, solver fault, watchdog) and replaced. */
  readonly restarts: number;
}

/** Output bytes that may be queued before reading waits for the disk. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/** Input bytes of the records read and not yet written, before reading waits (large records: few at once). */
const MAX_UNWRITTEN_INPUT = 64 * 1024 * 1024;

/** Input bytes in one task: records carrying large catalogs travel a few at a time. */
const MAX_TASK_BYTES = 1024 * 1024;

const inputBytes = (record: TaskRecord) => ('text' in record.source ? record.source.text.length : 0);

/** Attempts at a record whose worker crashes, faults or overruns the watchdog. */
const ATTEMPTS = 2;

/** A task being filled is sent after this long without a new record (a slow pipe, a terminal). */
const IDLE_SEND_MS = 20;

export async function runBatch(options: BatchOptions): Promise<BatchReport> {
  try {
    return await batchRun(options);
  } catch (error) {
    // A refused or failed run stops its progress line too: its timer would keep the process alive.
    options.progress?.stop();
    throw error;
  }
}

async function batchRun(options: BatchOptions): Promise<BatchReport> {
  const { signal, progress } = options;
  const window = options.window ?? 1024 * options.workers;
  const sizer = new TaskSizer();
  const summary = new SummaryAccumulator();
  try {
    checkOut(options);
  } catch (error) {
    // Refused before a record is read: the input opened for the run is let go.
    (options.input as Partial<NodeJS.ReadStream> | undefined)?.destroy?.();
    throw error;
  }
  // Records the reading thread parses (a line holding a list, a resumed run's, a failed one's) read the
  // catalogs they name as the workers do.
  const recordOptions = {
    parseCatalog: new RecordCatalogs({ base: options.recordBase }).parse,
    keepUnparsed: options.request.heal === true,
  };
  const read = options.records ?? (options.input && readRecordSources(options.input, recordOptions));
  if (!read) throw new Error('internal: runBatch needs input or records');
  const sources = read[Symbol.asyncIterator]();
  // Nothing is opened for writing before the first record: an empty input writes nothing.
  const first = await firstSource(sources, signal);
  if (first === undefined || first.done) {
    progress?.stop();
    if (first?.done) throw new InputError('input', 'empty input: expected records');
    (options.input as Partial<NodeJS.ReadStream> | undefined)?.destroy?.();
    return { summary: summary.result(), processed: 0, resumed: 0, interrupted: true, restarts: 0 };
  }
  // A local output carries the settings it was written with, so that a resume with others is refused.
  if (options.out !== undefined && options.stampSettings) {
    const stamp = await settingsStamp(options.request, options.stepByStep === true);
    await stampLocalRun(options.out, stamp, options.resume === true);
  }
  const opened = await openSink(options);
  const sink = opened.sink;
  let prior = opened.prior;
  const judgeAgainst = judgingCatalog(options.request.catalogPath);
  let resumed = 0;
  let failure: unknown;
  let wake = () => {};
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const reorder = new ReorderBuffer<Done>((done) => {
    summary.add(done.outcome);
    try {
      sink.push(done.line);
    } catch (error) {
      failure ??= error;
    }
    progress?.update(reorder.emitted, resumed);
  });
  const deliver = (done: Done) => {
    reorder.put(done.seq, done);
    wake();
  };
  // Started on the first record that needs a worker: a resumed-to-the-end or refused run starts none.
  let pool: BatchPool | undefined;
  const workers = () =>
    options.pool ??
    (pool ??= createBatchPool(
      {
        request: options.request,
        stepByStep: options.stepByStep ?? false,
        faults: options.faults,
        recordTimeoutMs: options.recordTimeoutMs ?? 60_000,
        recordBase: options.recordBase,
      },
      options.workers,
      (reason) => {
        failure ??= new Error(`a batch worker failed to start: ${reason}`);
        wake();
      },
    ));
  const recordTimeoutMs = options.recordTimeoutMs ?? 60_000;
  let unwrittenInput = 0;
  const finish = (record: TaskRecord, result: Omit<Done, 'seq'>) => {
    unwrittenInput -= inputBytes(record);
    deliver({ seq: record.seq, ...result });
  };
  const fail = (record: TaskRecord, reason: string) =>
    finish(record, errorDone(sourceRecord(record.source, recordOptions), reason));
  /** Tasks sent and not yet answered. */
  let inFlight = 0;
  // The watchdog counts from when the task reaches the head of its worker's queue, and again from each
  // record that starts 100 ms or more into the task (the worker reports progress): it bounds one record.
  const send = (task: Task, first = false) => {
    inFlight++;
    workers()
      .submit(task, { runTimeoutMs: recordTimeoutMs, first })
      .finally(() => inFlight--)
      .then(
        ({ results, ms }) => {
          sizer.observe(results.length, ms);
          results.forEach((result, i) => finish(task.records[i], result));
        },
        (error: unknown) => {
          if (!(error instanceof PoolError)) {
            failure ??= error;
            wake();
            return;
          }
          // Shut down, or unable to start workers: the run cannot finish (it is ending already when its
          // own pool shuts down, and `onBroken` has told why when its own workers do not start).
          if (error.kind === 'closed' || error.kind === 'broken') {
            failure ??= error;
            wake();
            return;
          }
          if (task.records.length > 1) {
            // Which record failed is unknown: each goes again on its own, the failure not counted.
            for (const record of [...task.records].reverse())
              send({ attempt: task.attempt, records: [record] }, true);
            return;
          }
          if (task.attempt + 1 < ATTEMPTS) {
            send({ ...task, attempt: task.attempt + 1 }, true);
            return;
          }
          const reason =
            error.kind === 'timeout'
              ? `record took longer than the ${recordTimeoutMs / 1000} s record timeout`
              : error.message;
          fail(task.records[0], `failed ${ATTEMPTS} times: ${reason}`);
        },
      );
  };
  let filling: TaskRecord[] = [];
  let fillingBytes = 0;
  let idle: NodeJS.Timeout | undefined;
  const sendFilling = () => {
    clearTimeout(idle);
    idle = undefined;
    if (filling.length > 0) send({ attempt: 0, records: filling });
    filling = [];
    fillingBytes = 0;
  };
  // No new record for a while: the input is slow (a pipe, a terminal), unless the window is what stops it.
  const onIdle = () => {
    idle = undefined;
    if (full()) keepBusy();
    else sendFilling();
    wake();
  };
  const keepBusy = () => {
    if (inFlight < workers().size * TASKS_AHEAD) sendFilling();
  };
  const add = (record: TaskRecord) => {
    filling.push(record);
    fillingBytes += inputBytes(record);
    if (filling.length >= sizer.size || fillingBytes >= MAX_TASK_BYTES) sendFilling();
    else idle ??= setTimeout(onIdle, IDLE_SEND_MS);
  };
  let seq = 0;
  const full = () =>
    seq - reorder.emitted >= window ||
    unwrittenInput > MAX_UNWRITTEN_INPUT ||
    sink.pendingBytes > MAX_PENDING_BYTES;
  const stopped = () => signal?.aborted === true || failure !== undefined;
  const onAbort = () => wake();
  signal?.addEventListener('abort', onAbort);
  // The count is a second pass over the input, for the progress's ETA only.
  if (options.inputPath && progress && !progress.silent)
    void countRecords(options.inputPath).then((n) => progress.setTotal(n));

  try {
    let reading: Promise<IteratorResult<RecordSource>> | undefined = Promise.resolve(first);
    while (!stopped()) {
      // Raced with wake-ups so that an abort is seen even while the input is idle (a terminal, a pipe).
      reading ??= sources.next();
      const next = await Promise.race([reading, changed().then(() => undefined)]);
      if (next === undefined) continue;
      reading = undefined;
      if (next.done) break;
      const source: RecordSource = next.value;
      if (prior) {
        const line = await prior.next();
        if (line) {
          const record = sourceRecord(source, recordOptions);
          prior.expect(line, record.id);
          summary.add(outcomeOf(record, line.value, judgeAgainst(record)));
          progress?.update(0, ++resumed);
          continue;
        }
        prior.close();
        prior = undefined;
      }
      const record = { seq: seq++, source };
      unwrittenInput += inputBytes(record);
      if ('text' in source || (source.error === undefined && source.sequence)) add(record);
      else fail(record, source.error ?? 'the record has no sequence');
      // A full window sends the task being filled only when the workers would otherwise run out of tasks:
      // sent at each record, tasks would shrink to the few records each finished task lets in.
      if (full()) keepBusy();
      while (!stopped() && full()) {
        if (sink.pendingBytes > MAX_PENDING_BYTES) await sink.flush();
        else await changed();
        if (full()) keepBusy();
      }
    }
    sendFilling();
    if (prior && !stopped() && (await prior.next())) {
      throw new InputError('--resume', `${options.out} holds more results than the input has records`);
    }
    while (!stopped() && reorder.emitted < seq) await changed();
    if (failure !== undefined) throw failure;
    return {
      summary: summary.result(),
      processed: reorder.emitted,
      resumed,
      interrupted: signal?.aborted === true,
      restarts: pool?.stats().replaced ?? 0,
    };
  } finally {
    clearTimeout(idle);
    signal?.removeEventListener('abort', onAbort);
    prior?.close();
    await pool?.terminate();
    await sink.close();
    progress?.stop();
    if (signal?.aborted) (options.input as Partial<NodeJS.ReadStream> | undefined)?.destroy?.();
  }
}
