/**
 * The summary of a batch, built by streaming accumulators: memory stays bounded whatever the number of
 * records (latencies go through a fixed-size reservoir, exact up to its size; API names are capped).
 */
import type { RecordItem } from '../read/records.ts';
import type { Catalog, IssueTag } from '../model/types.ts';
import type { Status } from '../model/constants.ts';
import { mulberry32, type Rng } from '../model/prng.ts';
import type { Outcome } from './types.ts';
import { EditStats, type EditStatsSummary } from './edit-stats.ts';
import { scoreDigest, ScoreStats, type ScoresSummary } from './scores.ts';
import { ASK, isRepairStatus } from '../model/constants.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';

export interface BatchSummary {
  readonly records: number;
  readonly statuses: Readonly<Record<Status, number>>;
  /** Share of records that are valid or repaired into an executable sequence. */
  readonly successRate: number;
  /**
   * Over repaired records: total repaired length / total input length (null when none was repaired).
   * Above 1 the repairs made plans longer (inserted calls, `ask` steps), below 1 shorter.
   */
  readonly lengthRatio: number | null;
  /** Repair time per record in ms (records that reached the repair); null when none did. */
  readonly latencyMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  } | null;
  /** Error tags of the input sequences, most frequent first. */
  readonly issueTags: Readonly<Record<string, number>>;
  readonly warningTags: Readonly<Record<string, number>>;
  /** The APIs whose calls carry the most errors, and which. */
  readonly failingApis: readonly {
    readonly api: string;
    readonly errors: number;
    readonly tags: Readonly<Record<string, number>>;
  }[];
  /** The records that needed the most edits. */
  readonly mostEdits: readonly { readonly id: string; readonly edits: number }[];
  /** Why records got no repair (FAILED statuses): the most frequent reasons, with the first record of each. */
  readonly failures: readonly FailureReason[];
}

/** The statuses of a record that got no repair, whose line says why (`reason`). */
export const FAILED: readonly Status[] = ['error', 'timeout', 'exhausted'];

/** One reason records got no repair: their status, the reason, how many, and the first record's id. */
export interface FailureReason {
  readonly status: Status;
  readonly reason: string;
  readonly records: number;
  readonly first: string;
}

/**
 * The lower edges of the confidence bands a batch summary counts repairs in: `[0, 0.5)`, `[0.5, 0.8)`,
 * `[0.8, 0.9)`, `[0.9, 0.99)`, `[0.99, 1]`. Finer towards 1, where most repairs are and where a threshold is
 * usually set (docs/batch.md).
 */
export const CONFIDENCE_BANDS = [0, 0.5, 0.8, 0.9, 0.99] as const;

/** `[0.5, 0.8)`: the name of band `i` of CONFIDENCE_BANDS (the last one closed). */
export function bandName(i: number): string {
  const upper = CONFIDENCE_BANDS[i + 1];
  return upper === undefined ? `[${CONFIDENCE_BANDS[i]}, 1]` : `[${CONFIDENCE_BANDS[i]}, ${upper})`;
}

/** What the confidences of a batch's repairs say. */
export interface ConfidenceSummary {
  /** Repairs (repaired, uncertain, partial) that carry a confidence. */
  readonly repairs: number;
  /** Those repairs per confidence band (CONFIDENCE_BANDS), every band listed. */
  readonly bands: Readonly<Record<string, number>>;
  /** The expected number of wrong repairs among them: the sum of (1 - confidence). */
  readonly expectedWrong: number;
}

export type Summary = BatchSummary &
  EditStatsSummary & {
    /** Verdicts against the records' gold plans, overall and per kind; absent when no record had one. */
    readonly scores?: ScoresSummary;
    /** Absent when no repair carried a confidence (a cost model without calibration). */
    readonly confidence?: ConfidenceSummary;
  };

export interface SummaryOptions {
  /** Latency samples kept (percentiles are exact up to this many records). Default 65,536. */
  readonly reservoir?: number;
  /** Distinct API names tracked before the rest are pooled under `(other)`. Default 5,000. */
  readonly maxApis?: number;
  /** Length of the top lists. Default 10. */
  readonly top?: number;
  /** Distinct failure reasons tracked before the rest are pooled under `(other reasons)`. Default 1,000. */
  readonly maxReasons?: number;
}

const OTHER_API = '(other)';
const OTHER_REASON = '(other reasons)';

/**
 * A reason as one kind of failure: where in the input it was found (`line 21: `, `position 45`) is the
 * record's, so that one slip on a thousand lines is one reason counted a thousand times, not a thousand
 * reasons of one record each (the record's own line keeps the place).
 */
export function reasonKind(reason: string): string {
  return reason
    .replace(/^line \d+(, column \d+)?: /, '')
    .replace(/\b(line|column|position|byte|offset|call|step) \d+/g, '$1 N')
    .replace(/\[\d+\]/g, '[N]')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/ to [\w.-]+ (are|is) not valid JSON/g, ' to … $1 not valid JSON');
}
/** A failure reason is kept to this many characters (the record's own line has it whole). */
const REASON_CHARS = 300;

function bump<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function sortedObject(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

export class SummaryAccumulator {
  readonly #reservoir: Float64Array;
  readonly #maxApis: number;
  readonly #top: number;
  readonly #maxReasons: number;
  readonly #rng: Rng = mulberry32(0x5eed);
  #records = 0;
  #timed = 0;
  #maxMs = 0;
  #success = 0;
  #repairedIn = 0;
  #repairedOut = 0;
  readonly #statuses = new Map<Status, number>();
  readonly #tags = new Map<string, number>();
  readonly #warnings = new Map<string, number>();
  readonly #apis = new Map<string, Map<IssueTag, number>>();
  #mostEdits: { id: string; edits: number }[] = [];
  /** Per `status reason`: the count and the first record (insertion order breaks ties in the top list). */
  readonly #failures = new Map<string, { status: Status; reason: string; records: number; first: string }>();
  readonly #edits: EditStats;
  readonly #scores = new ScoreStats();
  readonly #bands: number[] = CONFIDENCE_BANDS.map(() => 0);
  #confident = 0;
  #expectedWrong = 0;

  constructor(options: SummaryOptions = {}) {
    this.#reservoir = new Float64Array(options.reservoir ?? 65_536);
    this.#maxApis = options.maxApis ?? 5_000;
    this.#top = options.top ?? 10;
    this.#maxReasons = options.maxReasons ?? 1_000;
    this.#edits = new EditStats(this.#maxApis, this.#top);
  }

  add(outcome: Outcome): void {
    this.#records++;
    bump(this.#statuses, outcome.status);
    if (outcome.success) this.#success++;
    if (outcome.status === 'repaired' || outcome.status === 'uncertain') {
      this.#repairedIn += outcome.inputLength;
      this.#repairedOut += outcome.outputLength;
    }
    if (outcome.confidence !== undefined && isRepairStatus(outcome.status))
      this.#confidence(outcome.confidence);
    if (outcome.status !== 'error' || outcome.timeMs > 0) this.#sample(outcome.timeMs);
    for (const issue of outcome.issues) {
      if (issue.severity === 'warning') {
        bump(this.#warnings, issue.tag);
        continue;
      }
      bump(this.#tags, issue.tag);
      if (issue.api !== undefined) this.#apiTag(issue.api, issue.tag);
    }
    if (outcome.edits > 0) this.#rankEdits(outcome.id, outcome.edits);
    if (FAILED.includes(outcome.status)) this.#failure(outcome);
    this.#edits.add(outcome);
    this.#scores.add(outcome.score);
  }

  #confidence(confidence: number): void {
    this.#confident++;
    this.#expectedWrong += 1 - confidence;
    let band = CONFIDENCE_BANDS.length - 1;
    while (band > 0 && confidence < CONFIDENCE_BANDS[band]) band--;
    this.#bands[band]++;
  }

  /** Reservoir sampling (algorithm R): every latency has the same chance to be kept. */
  #sample(ms: number): void {
    this.#maxMs = Math.max(this.#maxMs, ms);
    const size = this.#reservoir.length;
    if (this.#timed < size) this.#reservoir[this.#timed] = ms;
    else {
      const j = Math.floor(this.#rng() * (this.#timed + 1));
      if (j < size) this.#reservoir[j] = ms;
    }
    this.#timed++;
  }

  #apiTag(api: string, tag: IssueTag): void {
    const key = this.#apis.has(api) || this.#apis.size < this.#maxApis ? api : OTHER_API;
    let tags = this.#apis.get(key);
    if (!tags) this.#apis.set(key, (tags = new Map()));
    bump(tags, tag);
  }

  #failure(outcome: Outcome): void {
    const status = outcome.status;
    const given = reasonKind(outcome.reason ?? '(no reason given)');
    let reason = given.length > REASON_CHARS ? `${given.slice(0, REASON_CHARS - 1)}…` : given;
    let key = `${status}\u0000${reason}`;
    if (!this.#failures.has(key) && this.#failures.size >= this.#maxReasons) {
      reason = OTHER_REASON;
      key = `${status}\u0000${reason}`;
    }
    const seen = this.#failures.get(key);
    if (seen) seen.records++;
    else this.#failures.set(key, { status, reason, records: 1, first: outcome.id });
  }

  /** Keeps the top list sorted by edits, earlier records first among equals. */
  #rankEdits(id: string, edits: number): void {
    const list = this.#mostEdits;
    if (list.length === this.#top && edits <= list[list.length - 1].edits) return;
    let at = list.length;
    while (at > 0 && list[at - 1].edits < edits) at--;
    list.splice(at, 0, { id, edits });
    if (list.length > this.#top) list.pop();
  }

  result(): Summary {
    const n = this.#records;
    const scores = this.#scores.result();
    const statuses = { valid: 0, repaired: 0, partial: 0, uncertain: 0, exhausted: 0, timeout: 0, error: 0 };
    for (const [status, count] of this.#statuses) statuses[status] = count;
    const kept = this.#reservoir.slice(0, Math.min(this.#timed, this.#reservoir.length)).sort();
    const failingApis = [...this.#apis]
      .map(([api, tags]) => ({
        api,
        errors: [...tags.values()].reduce((a, b) => a + b, 0),
        tags: sortedObject(tags),
      }))
      .sort((a, b) => b.errors - a.errors || (a.api < b.api ? -1 : 1))
      .slice(0, this.#top);
    return {
      records: n,
      statuses,
      successRate: n === 0 ? 0 : this.#success / n,
      lengthRatio: this.#repairedIn === 0 ? null : this.#repairedOut / this.#repairedIn,
      latencyMs:
        kept.length === 0
          ? null
          : {
              p50: percentile(kept, 0.5),
              p90: percentile(kept, 0.9),
              p99: percentile(kept, 0.99),
              max: this.#maxMs,
            },
      issueTags: sortedObject(this.#tags),
      warningTags: sortedObject(this.#warnings),
      failingApis,
      mostEdits: this.#mostEdits.map((x) => ({ ...x })),
      // A stable sort: among equal counts, the reason seen first comes first.
      failures: [...this.#failures.values()]
        .sort((a, b) => b.records - a.records)
        .slice(0, this.#top)
        .map((x) => ({ ...x })),
      ...this.#edits.result(),
      ...(scores ? { scores } : {}),
      ...(this.#confident > 0
        ? {
            confidence: {
              repairs: this.#confident,
              bands: Object.fromEntries(this.#bands.map((n, i) => [bandName(i), n])),
              expectedWrong: round(this.#expectedWrong, SHORT_DIGITS),
            },
          }
        : {}),
    };
  }
}

/**
 * The digest of a result line (as written, or re-read on resume) of `record`; a scored record is judged
 * against its own catalog, else `catalog` (the run's `--catalog`), too.
 */
export function outcomeOf(
  record: RecordItem | undefined,
  line: Readonly<Record<string, unknown>>,
  catalog?: Catalog,
): Outcome {
  const status = line.status as Status;
  const issues = Array.isArray(line.issues)
    ? (line.issues as { tag: IssueTag; severity: 'error' | 'warning'; step: number }[])
    : [];
  const steps = record?.sequence;
  const edits = Array.isArray(line.edits) ? (line.edits as { kind?: unknown }[]) : [];
  const editKinds: Record<string, number> = {};
  for (const edit of edits)
    if (typeof edit?.kind === 'string') editKinds[edit.kind] = (editKinds[edit.kind] ?? 0) + 1;
  const output = Array.isArray(line.sequence)
    ? (line.sequence as { name?: unknown; arguments?: unknown }[])
    : [];
  const askedSlots = output.flatMap((step) => {
    if (step?.name !== ASK) return [];
    const slot = (step.arguments as { slot?: unknown } | undefined)?.slot;
    return [typeof slot === 'string' ? slot : '(unnamed)'];
  });
  const confidence = typeof line.confidence === 'number' ? line.confidence : undefined;
  const reason = FAILED.includes(status) && typeof line.reason === 'string' ? line.reason : undefined;
  const score = scoreDigest(record, status, line.sequence, confidence, record?.catalog ?? catalog);
  return {
    id: String(line.id),
    status,
    success: status === 'valid' || (status === 'repaired' && line.isExecutable === true),
    inputLength: steps?.length ?? 0,
    outputLength: output.length,
    edits: edits.length,
    ...(Object.keys(editKinds).length ? { editKinds } : {}),
    ...(askedSlots.length ? { askedSlots } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(score ? { score } : {}),
    timeMs: typeof line.timeMs === 'number' ? line.timeMs : 0,
    ...(reason !== undefined ? { reason } : {}),
    issues: issues.map((x) => {
      // Result lines number steps from 1.
      const api = steps?.[x.step - 1]?.name;
      return { tag: x.tag, severity: x.severity, ...(api === undefined ? {} : { api }) };
    }),
  };
}
