/**
 * Scored batches: when records carry the plan they should have been (`gold`), each result is judged
 * against it by `src/score` and the batch summary adds the verdicts up, overall and per mistake kind
 * (records with two or more `kinds` are grouped as `2 mistakes`, `3 mistakes`, …). Detection counts the
 * corrupted records (input without the gold's data flow) the run did not pass as valid; a record whose
 * input already has the gold's data flow and was still changed is a false alarm. Counts only, so the
 * summary stays bounded and resumed results add up the same way.
 */
import type { RecordItem } from '../read/records.ts';
import type { Catalog, Sequence } from '../model/types.ts';
import {
  judgeWithCatalog,
  mergeScoreSummaries,
  sameDataFlow,
  scoreRepair,
  summariseVerdicts,
  type ScoreSummary,
} from '../score/index.ts';
import { isRepairStatus, type Status } from '../model/constants.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';
import {
  addToBins,
  emptyBins,
  reliabilityOfBins,
  type BinSums,
  type ReliabilityBin,
} from '../confidence/fit.ts';

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
  /**
   * A repair's confidence (repaired, uncertain or partial, with a calibrated cost model) and whether the
   * repair is right as the calibration is fitted: restored modulo unknowns, a partial repair never.
   */
  readonly calibration?: { readonly confidence: number; readonly right: boolean };
  /**
   * Judged against the record's catalog too (docs/scoring.md): calls the repair brought in of an API that
   * shares no content word with the plan (strangers), and wirings to an output with no evidence.
   */
  readonly catalogJudged?: { readonly strangerCalls: number; readonly unsupportedWirings: number };
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
  /** Answered records judged against their catalog, those with a stranger call, and unsupported wirings. */
  readonly catalogJudged: number;
  readonly strangerRepairs: number;
  readonly unsupportedWirings: number;
}

/** How well the repairs' confidences matched the verdicts (docs/scoring.md). */
export interface CalibrationScores {
  /** Scored repairs that carried a confidence. */
  readonly repairs: number;
  readonly meanConfidence: number;
  /** The share of them judged right (restored modulo unknowns). */
  readonly rightRate: number;
  /** Expected calibration error over ten equal-width bins (src/confidence/fit.ts). */
  readonly ece: number;
  /** The reliability diagram: the bins with repairs in them. */
  readonly bins: readonly ReliabilityBin[];
}

export interface ScoresSummary {
  readonly overall: GroupScores;
  /** Absent when no scored repair carried a confidence. */
  readonly calibration?: CalibrationScores;
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
  status: Status,
  output: unknown,
  confidence?: number,
  catalog?: Catalog,
): ScoreDigest | undefined {
  if (!record?.gold || !record.sequence) return undefined;
  // An uncertain repair is in the line like any other: it is judged, only flagged.
  const answered =
    (status === 'valid' || status === 'repaired' || status === 'uncertain') && Array.isArray(output);
  const input = {
    input: record.sequence,
    gold: record.gold,
    repaired: answered ? (output as Sequence) : null,
    executed: record.executed,
  };
  const verdict = scoreRepair(input);
  const judged = catalog && answered ? judgeWithCatalog({ ...input, catalog }) : undefined;
  return {
    kind: kindGroupOf(record.kinds),
    corrupted: !sameDataFlow(record.sequence, record.gold),
    detected: status !== 'valid',
    valid: answered,
    verdict: summariseVerdicts([verdict]),
    ...(confidence !== undefined && isRepairStatus(status)
      ? { calibration: { confidence, right: answered && verdict.restoredModuloUnknowns } }
      : {}),
    ...(judged
      ? {
          catalogJudged: {
            strangerCalls: judged.strangerCalls.length,
            unsupportedWirings: judged.unsupportedWirings.length,
          },
        }
      : {}),
  };
}

interface Counts {
  corrupted: number;
  detected: number;
  clean: number;
  falseAlarms: number;
  valid: number;
  catalogJudged: number;
  strangerRepairs: number;
  unsupportedWirings: number;
  verdict: ScoreSummary;
}

function empty(): Counts {
  return {
    corrupted: 0,
    detected: 0,
    clean: 0,
    falseAlarms: 0,
    valid: 0,
    catalogJudged: 0,
    strangerRepairs: 0,
    unsupportedWirings: 0,
    verdict: mergeScoreSummaries([]),
  };
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
  if (d.catalogJudged) {
    counts.catalogJudged++;
    if (d.catalogJudged.strangerCalls > 0) counts.strangerRepairs++;
    counts.unsupportedWirings += d.catalogJudged.unsupportedWirings;
  }
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
  readonly #bins: BinSums[] = emptyBins();

  constructor(maxKinds = 200) {
    this.#maxKinds = maxKinds;
  }

  add(digest: ScoreDigest | undefined): void {
    if (!digest) return;
    addTo(this.#overall, digest);
    if (digest.calibration) addToBins(this.#bins, digest.calibration);
    const key = this.#kinds.has(digest.kind) || this.#kinds.size < this.#maxKinds ? digest.kind : OTHER;
    let counts = this.#kinds.get(key);
    if (!counts) this.#kinds.set(key, (counts = empty()));
    addTo(counts, digest);
  }

  /** Null when no record carried a gold. */
  result(): ScoresSummary | null {
    if (this.#overall.verdict.n === 0) return null;
    const kinds = [...this.#kinds].sort((a, b) => b[1].verdict.n - a[1].verdict.n || (a[0] < b[0] ? -1 : 1));
    const calibration = this.#calibration();
    return {
      overall: group(this.#overall),
      ...(calibration ? { calibration } : {}),
      byKind: Object.fromEntries(kinds.map(([k, c]) => [k, group(c)])),
    };
  }

  #calibration(): CalibrationScores | undefined {
    const repairs = this.#bins.reduce((a, b) => a + b.n, 0);
    if (repairs === 0) return undefined;
    const { bins, ece } = reliabilityOfBins(this.#bins);
    const r = (x: number) => round(x, SHORT_DIGITS);
    return {
      repairs,
      meanConfidence: r(this.#bins.reduce((a, b) => a + b.confidence, 0) / repairs),
      rightRate: r(this.#bins.reduce((a, b) => a + b.right, 0) / repairs),
      ece: r(ece),
      bins: bins.map((b) => ({ ...b, meanConfidence: r(b.meanConfidence), rightRate: r(b.rightRate) })),
    };
  }
}
