/**
 * Shapes shared by the batch run, its workers and its summary. Everything a worker receives or sends is
 * structured-clonable.
 */
import type { RecordSource } from '../read/records.ts';
import type { IssueTag } from '../model/types.ts';
import type { Status } from '../model/constants.ts';
import type { ApiRequest } from '../api/request.ts';
import type { ScoreDigest } from './scores.ts';

/** The digest of one result that the summary needs (computed where the result is made, or re-read). */
export interface Outcome {
  readonly id: string;
  readonly status: Status;
  /** Valid, or repaired into a sequence without `ask`/`confirm` steps. */
  readonly success: boolean;
  /** Steps of the input sequence (0 when it could not be read). */
  readonly inputLength: number;
  /** Steps of the result sequence (0 when there is none). */
  readonly outputLength: number;
  readonly edits: number;
  /** The repair's edits by kind (absent or empty when nothing was edited). */
  readonly editKinds?: Readonly<Record<string, number>>;
  /** The parameter of each `ask` step of the result sequence. */
  readonly askedSlots?: readonly string[];
  /** The repair's confidence, when the line carries one (a calibrated cost model). */
  readonly confidence?: number;
  /** The verdict against the record's gold, when it has one. */
  readonly score?: ScoreDigest;
  readonly timeMs: number;
  /** Why the record got no repair (`error`, `timeout`, `exhausted`), as its line says. */
  readonly reason?: string;
  /** The input's issues, each with the API of its step when that step exists. */
  readonly issues: readonly {
    readonly tag: IssueTag;
    readonly severity: 'error' | 'warning';
    readonly api?: string;
  }[];
}

/**
 * A fault to inject into the workers, to exercise retirement and retry (tests): the record `id` fails in
 * the given way on its first `times` attempts. `throw` = uncaught exception, `exit` = the worker exits,
 * `hang` = a busy loop (caught by the watchdog), `abort` = a WebAssembly abort inside the repair.
 */
export interface InjectedFault {
  readonly id: string;
  readonly mode: 'throw' | 'exit' | 'hang' | 'abort';
  readonly times: number;
}

/** What every worker is started with: it loads the catalog and options once from these. */
export interface WorkerSetup {
  /** The fix request every record is repaired with (`catalogPath`, cost model, …), plain data. */
  readonly request: ApiRequest;
  readonly stepByStep: boolean;
  readonly faults?: readonly InjectedFault[];
  /** The record watchdog in ms: each repair gets a deadline within it (compiling and solving). */
  readonly recordTimeoutMs?: number;
  /** The directory a record's catalog named by path is read from (see `BatchOptions.recordBase`). */
  readonly recordBase?: string;
}

/** One record of a task: its position in the input and its source (usually still JSON text). */
export interface TaskRecord {
  readonly seq: number;
  readonly source: RecordSource;
}

/**
 * Records sent to a worker in one message (many per message: one message per record would cost more than
 * a valid record's check). `attempt` counts the failed attempts of a task of one record; a task of several
 * records that fails is sent again one record per task, at the same attempt.
 */
export interface Task {
  readonly attempt: number;
  readonly records: readonly TaskRecord[];
}

/** A finished record: its JSON line (without newline) and its digest. */
export interface Done {
  readonly seq: number;
  readonly line: string;
  readonly outcome: Outcome;
}

/** What a worker answers for a task: one result per record, in order, and its time on the task. */
export interface WorkerResult {
  readonly results: readonly Omit<Done, 'seq'>[];
  readonly ms: number;
}
