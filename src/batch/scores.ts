/**
 * Scored batches: when records carry the plan they should have been (`gold`), each result is judged
 * against it by `src/score` and the batch summary adds the verdicts up, overall and per mistake kind
 * (records with two or more `kinds` are grouped as `2 mistakes`, `3 mistakes`, …). Detection counts the
 * corrupted records (input without the gold's data flow) the run did not pass as valid; a record whose
 * input already has the gold's data flow and was still changed is a false alarm. Counts only, so the
 * summary stays bounded and resumed results add up the same way.
 */
import type { RecordItem } from '../read/records.ts';
import type { Sequence } from '../model/types.ts';
import {
  mergeScoreSummaries,
  sameDataFlow,
  scoreRepair,
  summariseVerdicts,
  type ScoreSummary,
} from '../score/index.ts';

/** One record's verdict, as the summary needs it (structured-clonable: it crosses the worker boundary). */
export interface ScoreDigest {
  /** The record's kind group (`param_name`, `2 mistakes`, `(unlabelled)`). */
  readonly kind: string;
  /** The input lacks the gold's data flow. */
  readonly corrupted: boolean;
  /** The run did not return the input as valid. */
  readonly detected: boolean;
  /** A sequence came back (valid or repaired): every repair is validated again before it is returned. */
  readonly valid: boolean;
  /** The verdict as a one-record score summary (restored, restored modulo asks, asks, …). */
  readonly verdict: ScoreSummary;
}

/** Counts of one group of scored records. */
export interface GroupScores extends ScoreSummary {
  /** Records whose input lacks the gold's data flow, and of those, the ones not passed as valid. */
  readonly corrupted: number;
  readonly detected: number;
  /** Records whose input has the gold's data flow, and of those, the ones changed anyway. */
  readonly clean: number;
  readonly falseAlarms: number;
  /** Records that got a valid sequence back. */
  readonly valid: number;
}

export interface ScoresSummary {
  readonly overall: GroupScores;
  /** Per kind group, most records first. */
  readonly byKind: Readonly<Record<string, GroupScores>>;
}

const OTHER = '(other)';

/** `["param_name"]` → `param_name`; two or more kinds → `2 mistakes`; none → `(unlabelled)`. */
export function kindGroupOf(kinds: readonly string[] | undefined): string {
  if (!kinds || kinds.length === 0) return '(unlabelled)';
  return kinds.length === 1 ? kinds[0] : `${kinds.length} mistakes`;
}

/** The verdict of a result line on a record with gold; undefined for a record without one. */
export function scoreDigest(
  record: RecordItem | undefined,
  status: string,
  output: unknown,
): ScoreDigest | undefined {
  if (!record?.gold || !record.sequence) return undefined;
  const answered = (status === 'valid' || status === 'repaired') && Array.isArray(output);
  const verdict = scoreRepair({
    input: record.sequence,
    gold: record.gold,
    repaired: answered ? (output as Sequence) : null,
  });
  return {
    kind: kindGroupOf(record.kinds),
    corrupted: !sameDataFlow(record.sequence, record.gold),
    detected: status !== 'valid',
    valid: answered,
    verdict: summariseVerdicts([verdict]),
  };
}

interface Counts {
  corrupted: number;
  detected: number;
  clean: number;
  falseAlarms: number;
  valid: number;
  verdict: ScoreSummary;
}

function empty(): Counts {
  return { corrupted: 0, detected: 0, clean: 0, falseAlarms: 0, valid: 0, verdict: mergeScoreSummaries([]) };
}

function addTo(counts: Counts, d: ScoreDigest): void {
  if (d.corrupted) {
    counts.corrupted++;
    if (d.detected) counts.detected++;
  } else {
    counts.clean++;
    if (d.detected) counts.falseAlarms++;
  }
  if (d.valid) counts.valid++;
  counts.verdict = mergeScoreSummaries([counts.verdict, d.verdict]);
}

function group(c: Counts): GroupScores {
  const { verdict, ...rest } = c;
  return { ...verdict, ...rest };
}

export class ScoreStats {
  readonly #overall = empty();
  readonly #kinds = new Map<string, Counts>();
  readonly #maxKinds: number;

  constructor(maxKinds = 200) {
    this.#maxKinds = maxKinds;
  }

  add(digest: ScoreDigest | undefined): void {
    if (!digest) return;
    addTo(this.#overall, digest);
    const key = this.#kinds.has(digest.kind) || this.#kinds.size < this.#maxKinds ? digest.kind : OTHER;
    let counts = this.#kinds.get(key);
    if (!counts) this.#kinds.set(key, (counts = empty()));
    addTo(counts, digest);
  }

  /** Null when no record carried a gold. */
  result(): ScoresSummary | null {
    if (this.#overall.verdict.n === 0) return null;
    const kinds = [...this.#kinds].sort((a, b) => b[1].verdict.n - a[1].verdict.n || (a[0] < b[0] ? -1 : 1));
    return {
      overall: group(this.#overall),
      byKind: Object.fromEntries(kinds.map(([k, c]) => [k, group(c)])),
    };
  }
}
