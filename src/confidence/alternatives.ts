/**
 * The confidence of the alternatives (`fixes`: fix 2, 3, …): each read against fix 1, the repair, by the
 * calibration's `alternatives` score (src/model/calibration.ts, ALTERNATIVE_EVIDENCE). An alternative that
 * makes fix 1's data flow is as likely right as fix 1 (`sameFlow`); the others are scored.
 */
import type { Plan } from '../compile/plan.ts';
import type { AlternativeEvidenceName, Calibration, ScoreCalibration } from '../model/calibration.ts';
import type { Fix } from '../model/options.ts';
import type { Edit } from '../model/types.ts';
import { choicePoints, decisionVars } from './alternative.ts';
import { confidenceOf } from './confidence.ts';
import { pointCost, type EvidenceVector } from './evidence.ts';

/** One fix as the solve gave it: its point and its edits. */
export interface FixPoint {
  readonly values: readonly number[];
  readonly edits: readonly Edit[];
}

/** Bounds of a probability read as a logit: a confidence of 0 or 1 is not infinitely sure. */
const LOGIT_FLOOR = 0.001;

export function logit(p: number): number {
  const q = Math.min(1 - LOGIT_FLOOR, Math.max(LOGIT_FLOOR, p));
  return Math.log(q / (1 - q));
}

/**
 * The evidence of every fix after the first, without `firstLogit` (it needs fix 1's confidence, which a fit
 * computes itself); `confidenceOfFixes` adds it.
 */
export function alternativesEvidence(plan: Plan, fixes: readonly FixPoint[]): EvidenceVector[] {
  const decisions = decisionVars(plan);
  const points = choicePoints(plan);
  const chosen = (values: readonly number[]) => new Set(decisions.filter((v) => values[v] > 0.5));
  const first = fixes[0];
  const firstChosen = chosen(first.values);
  const firstCost = pointCost(plan, first.values);
  return fixes.slice(1).map((fix, i) => {
    const mine = chosen(fix.values);
    let shared = 0;
    for (const v of mine) if (firstChosen.has(v)) shared++;
    const union = firstChosen.size + mine.size - shared;
    let flowChanges = 0;
    let askChanges = 0;
    for (const point of points) {
      const a = point.find((o) => first.values[o.v] > 0.5);
      const b = point.find((o) => fix.values[o.v] > 0.5);
      if (a?.key === b?.key) continue;
      if (a?.ask || b?.ask) askChanges++;
      else flowChanges++;
    }
    const evidence: Record<Exclude<AlternativeEvidenceName, 'firstLogit'>, number> = {
      sameFlow: flowChanges === 0 && askChanges === 0 ? 1 : 0,
      sharedDecisions: union === 0 ? 1 : shared / union,
      logDeficit: Math.log1p(Math.max(0, pointCost(plan, fix.values) - firstCost)),
      flowChanges,
      askChanges,
      rank: i + 2,
      fixEdits: fix.edits.filter((e) => e.kind !== 'slotFill' && e.kind !== 'confirm').length,
      fixAsks: fix.edits.filter((e) => e.kind === 'slotFill').length,
    };
    return evidence;
  });
}

/**
 * True when the alternative makes fix 1's choices: the same data flow under other labels, right exactly when
 * fix 1 is (the benchmark's 1,576 such alternatives agree with fix 1 every time), so it takes fix 1's confidence
 * and the calibration is fitted on the others.
 */
export function sameFlow(evidence: EvidenceVector): boolean {
  return evidence.sameFlow === 1;
}

/** Each alternative's evidence with fix 1's confidence, and its confidence under the calibration. */
export function confidenceOfFixes(
  calibration: ScoreCalibration,
  first: number,
  evidence: readonly EvidenceVector[],
): { evidence: EvidenceVector; confidence: number }[] {
  return evidence.map((e) => {
    const full = { ...e, firstLogit: logit(first) };
    return { evidence: full, confidence: sameFlow(full) ? first : confidenceOf(calibration, full) };
  });
}

/**
 * The fixes with their confidence (fix 1's is the repair's; the others' under the calibration's
 * `alternatives`, when it has one) and, with `confidenceEvidence`, the alternatives' evidence.
 */
export function fixesWithConfidence(
  plan: Plan,
  fixes: readonly Fix[],
  points: readonly FixPoint[],
  calibration: Calibration | undefined,
  confidence: number | undefined,
  withEvidence: boolean | undefined,
): Fix[] {
  const out = [...fixes];
  if (confidence !== undefined) out[0] = { ...out[0], confidence };
  if (fixes.length < 2) return out;
  const evidence = alternativesEvidence(plan, points);
  const scored =
    calibration?.alternatives && confidence !== undefined
      ? confidenceOfFixes(calibration.alternatives, confidence, evidence)
      : undefined;
  evidence.forEach((e, i) => {
    out[i + 1] = {
      ...out[i + 1],
      ...(scored ? { confidence: scored[i].confidence } : {}),
      ...(withEvidence ? { evidence: scored?.[i].evidence ?? e } : {}),
    };
  });
  return out;
}
