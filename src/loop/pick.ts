/**
 * Several samples for one request: drop the invalid ones; among the valid ones take the most common by
 * data-flow signature; if none is valid, repair each and take the cheapest repair (one held back as uncertain
 * or exhausted only when every repair is).
 */
import type { Catalog, Sequence } from '../model/types.ts';
import type { RepairOptions, RepairResult, ValidateOptions } from '../model/options.ts';
import { repair } from '../repair/repair.ts';
import { signature } from '../score/flow.ts';
import { validate } from '../validate/validate.ts';
import { errorMessage } from '../model/errors.ts';
import { isHeldBack } from '../model/constants.ts';

export interface CandidateReport {
  readonly index: number;
  readonly valid: boolean;
  /** Error-severity issues. */
  readonly errors: number;
  readonly signature: string;
  /** Repair cost (only when no candidate was valid). */
  readonly cost?: number;
  /** The repair's status and confidence (only when no candidate was valid; confidence unless skipped). */
  readonly status?: RepairResult['status'];
  readonly confidence?: number;
  /** Why the candidate could not be repaired. */
  readonly reason?: string;
}

export interface PickResult {
  /** Index of the winning candidate; null when none is valid and none could be repaired. */
  readonly index: number | null;
  /** The winner: the candidate itself, or its repair. */
  readonly sequence: Sequence | null;
  /** `majority` (most common valid signature) or `cheapest-repair`; `none` when nothing won. */
  readonly by: 'majority' | 'cheapest-repair' | 'none';
  readonly reason: string;
  /** How many valid candidates share the winner's signature. */
  readonly votes?: number;
  readonly repair?: RepairResult;
  readonly candidates: readonly CandidateReport[];
}

export interface PickOptions {
  readonly validate?: ValidateOptions;
  readonly repair?: RepairOptions;
}

/** Picks one sequence among candidates for the same request. */
export async function pick(
  candidates: readonly Sequence[],
  catalog: Catalog,
  options: PickOptions = {},
): Promise<PickResult> {
  if (candidates.length === 0) throw new RangeError('pick needs at least one candidate');
  // A repair returned but not to be run as it is: below `minConfidence`, or over `maxTries`.
  const heldBack = (x: RepairResult) => isHeldBack(x, options.repair?.minConfidence);
  const reports: CandidateReport[] = candidates.map((c, index) => {
    const errors = validate(c, catalog, options.validate).issues.filter((i) => i.severity === 'error').length;
    return { index, valid: errors === 0, errors, signature: signature(c) };
  });
  const valid = reports.filter((r) => r.valid);
  if (valid.length > 0) {
    const votes = new Map<string, number>();
    for (const r of valid) votes.set(r.signature, (votes.get(r.signature) ?? 0) + 1);
    // Most votes; ties go to the signature that appeared first.
    const winner = valid.reduce((best, r) =>
      votes.get(r.signature)! > votes.get(best.signature)! ? r : best,
    );
    const n = votes.get(winner.signature)!;
    return {
      index: winner.index,
      sequence: candidates[winner.index],
      by: 'majority',
      votes: n,
      reason: `${valid.length} of ${candidates.length} candidates valid; candidate ${winner.index} has the most common data flow (${n} of ${valid.length})`,
      candidates: reports,
    };
  }
  const repaired: CandidateReport[] = [];
  let best: { index: number; result: RepairResult } | undefined;
  for (const r of reports) {
    try {
      const result = await repair(candidates[r.index], catalog, { ...options.validate, ...options.repair });
      if (result.determination === null) {
        repaired.push({ ...r, reason: result.reason ?? result.status });
        continue;
      }
      repaired.push({
        ...r,
        cost: result.cost,
        status: result.status,
        ...(result.confidence !== undefined ? { confidence: result.confidence } : {}),
      });
      // A repair held back (below minConfidence, over maxTries) wins only where no other repair does.
      const rank = (x: RepairResult) => [heldBack(x) ? 1 : 0, x.cost];
      const [h, c] = rank(result);
      const [bh, bc] = best ? rank(best.result) : [Infinity, Infinity];
      if (h < bh || (h === bh && c < bc)) best = { index: r.index, result };
    } catch (error) {
      repaired.push({ ...r, reason: errorMessage(error) });
    }
  }
  if (!best) {
    return {
      index: null,
      sequence: null,
      by: 'none',
      reason: 'no candidate is valid and none could be repaired',
      candidates: repaired,
    };
  }
  return {
    index: best.index,
    sequence: best.result.sequence,
    by: 'cheapest-repair',
    repair: best.result,
    reason:
      `no candidate is valid; candidate ${best.index} has the cheapest repair (cost ${best.result.cost})` +
      (heldBack(best.result) ? `, ${best.result.status}: ${best.result.reason ?? ''}`.trimEnd() : ''),
    candidates: repaired,
  };
}
