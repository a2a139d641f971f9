/**
 * A repair's confidence: the second solve (the chosen decisions cut), the evidence, the calibration.
 * The solve is the caller's (the repair's backend and deadline).
 */
import type { Plan } from '../compile/plan.ts';
import { EVIDENCE, type Calibration } from '../model/calibration.ts';
import type { MilpModel, Solution } from '../model/milp.ts';
import type { Edit } from '../model/types.ts';
import { excludeFlow } from './alternative.ts';
import { confidenceOf } from './confidence.ts';
import { repairEvidence, type Alternative, type EvidenceVector } from './evidence.ts';

export interface Assessment {
  readonly evidence: EvidenceVector;
  /** Absent without a calibration. */
  readonly confidence?: number;
  /**
   * Why the second solve found no next-best repair to measure the gap to, when that is not the model's
   * answer (a time limit, a backend fault): the confidence then reads no gap, and another run may.
   */
  readonly unsettled?: string;
}

/** Whether a calibration reads more than the named evidence (edit kinds, feature totals). */
const readsDetail = (calibration: Calibration) => calibration.evidence.some((name) => !(name in EVIDENCE));

export async function assessRepair(
  model: MilpModel,
  plan: Plan,
  values: readonly number[],
  edits: readonly Edit[],
  solve: (model: MilpModel) => Promise<Solution>,
  calibration: Calibration | undefined,
  weights: Readonly<Record<string, number>>,
  /** Whether the caller reads the evidence itself (every part of it is worked out). */
  wanted = true,
): Promise<Assessment> {
  const second = await solve(excludeFlow(model, plan, values));
  const alternative: Alternative =
    second.status === 'infeasible'
      ? { found: 'none' }
      : second.values && second.status === 'optimal'
        ? { found: 'repair', values: second.values }
        : { found: 'unknown' };
  const detail = wanted || calibration === undefined || readsDetail(calibration);
  const evidence = repairEvidence(plan, values, edits, alternative, weights, detail);
  const unsettled =
    alternative.found !== 'unknown'
      ? {}
      : {
          unsettled: `the solve for the next-best repair ${second.status === 'timeout' ? 'ran out of time' : `failed (${second.status})`}: the confidence reads no cost gap`,
        };
  return calibration
    ? { evidence, confidence: confidenceOf(calibration, evidence), ...unsettled }
    : { evidence, ...unsettled };
}
