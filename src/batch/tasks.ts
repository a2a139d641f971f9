/**
 * How many records go to a worker in one message. Each message costs about the same whatever it holds, so
 * cheap records (valid ones: a check, no solve) travel by the hundred and costly ones a few at a time: a
 * task stays short, so the watchdog, the retry after a fault and the balance between the workers at the end
 * of the input all keep working at about the scale of one record.
 */

export interface TaskSizerOptions {
  /** Time a task should take in a worker, in ms (default 40). */
  readonly targetMs?: number;
  /** Most records in one task (default 256). */
  readonly max?: number;
  /** Records per task before any task has come back (default 16). */
  readonly initial?: number;
}

/** Weight of the newest task in the running mean of the time per record. */
const SMOOTHING = 0.25;

export class TaskSizer {
  readonly #targetMs: number;
  readonly #max: number;
  readonly #initial: number;
  #msPerRecord: number | undefined;

  constructor(options: TaskSizerOptions = {}) {
    this.#targetMs = options.targetMs ?? 40;
    this.#max = Math.max(1, Math.floor(options.max ?? 256));
    this.#initial = Math.min(this.#max, Math.max(1, Math.floor(options.initial ?? 16)));
  }

  /** Records to put in the next task. */
  get size(): number {
    const per = this.#msPerRecord;
    if (per === undefined) return this.#initial;
    if (per <= 0) return this.#max;
    return Math.min(this.#max, Math.max(1, Math.round(this.#targetMs / per)));
  }

  /** Learns from a finished task: `records` done in `ms` of worker time. */
  observe(records: number, ms: number): void {
    if (records <= 0 || !Number.isFinite(ms) || ms < 0) return;
    const per = ms / records;
    this.#msPerRecord =
      this.#msPerRecord === undefined ? per : this.#msPerRecord + SMOOTHING * (per - this.#msPerRecord);
  }
}
