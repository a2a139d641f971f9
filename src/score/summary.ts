/**
 * Adds verdicts up: how many repairs restored the gold (exactly, modulo fair asks), how many showed each
 * way of missing the plan's intent, and how many asks a repair needs on average. Counts, not rates, so
 * summaries of parts add up to the summary of the whole (`mergeScoreSummaries`).
 */
import type { RepairVerdict } from './verdict.ts';

export interface ScoreSummary {
  /** Verdicts counted. */
  readonly n: number;
  /** Repairs that returned a sequence. */
  readonly answered: number;
  readonly restored: number;
  readonly restoredModuloAsks: number;
  /** Restored modulo asks and left-out arguments whose gold literal the input does not hold. */
  readonly restoredModuloUnknowns: number;
  /** Repairs with at least one role collapse where the gold had distinct sources. */
  readonly roleCollapse: number;
  /** Repairs with at least one duplicate ask. */
  readonly duplicateAsks: number;
  /** Repairs with at least one sibling copy. */
  readonly siblingCopies: number;
  /** Repairs that lost a literal the input and the gold both hold. */
  readonly lostLiterals: number;
  /** Repairs that dropped a call of the input. */
  readonly droppedCalls: number;
  /** Repairs with an ask that is not a fair one (known literal, computed value, or unmatched). */
  readonly unfairAsks: number;
  /** Total asks over the answered repairs. */
  readonly asks: number;
  /** Asks by what they stand for. */
  readonly asksForUnknownLiterals: number;
  readonly asksForKnownLiterals: number;
  readonly asksForComputedValues: number;
  readonly asksUnmatched: number;
}

const EMPTY: ScoreSummary = {
  n: 0,
  answered: 0,
  restored: 0,
  restoredModuloAsks: 0,
  restoredModuloUnknowns: 0,
  roleCollapse: 0,
  duplicateAsks: 0,
  siblingCopies: 0,
  lostLiterals: 0,
  droppedCalls: 0,
  unfairAsks: 0,
  asks: 0,
  asksForUnknownLiterals: 0,
  asksForKnownLiterals: 0,
  asksForComputedValues: 0,
  asksUnmatched: 0,
};

/** The summary of one verdict. */
function single(v: RepairVerdict): ScoreSummary {
  const b = (x: boolean) => (x ? 1 : 0);
  return {
    n: 1,
    answered: b(v.answered),
    restored: b(v.restored),
    restoredModuloAsks: b(v.restoredModuloAsks),
    restoredModuloUnknowns: b(v.restoredModuloUnknowns),
    roleCollapse: b(v.roleCollapses > 0),
    duplicateAsks: b(v.duplicateAsks > 0),
    siblingCopies: b(v.siblingCopies > 0),
    lostLiterals: b(v.lostLiterals > 0),
    droppedCalls: b(v.droppedCalls > 0),
    unfairAsks: b(v.asks > v.asksForUnknownLiterals),
    asks: v.asks,
    asksForUnknownLiterals: v.asksForUnknownLiterals,
    asksForKnownLiterals: v.asksForKnownLiterals,
    asksForComputedValues: v.asksForComputedValues,
    asksUnmatched: v.asksUnmatched,
  };
}

/** Sums summaries field by field. */
export function mergeScoreSummaries(parts: Iterable<ScoreSummary>): ScoreSummary {
  const out: Record<string, number> = { ...EMPTY };
  for (const part of parts) for (const key of Object.keys(EMPTY)) out[key] += part[key as keyof ScoreSummary];
  return out as unknown as ScoreSummary;
}

/** Adds up verdicts. */
export function summariseVerdicts(verdicts: Iterable<RepairVerdict>): ScoreSummary {
  return mergeScoreSummaries([...verdicts].map(single));
}

/** Mean asks per answered repair (NaN when none answered). */
export function asksPerRepair(summary: ScoreSummary): number {
  return summary.answered === 0 ? NaN : summary.asks / summary.answered;
}
