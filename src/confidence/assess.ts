/**
 * A repair's confidence: the second solve (the chosen decisions cut), the evidence, the calibration.
 * The solve is the caller's (the repair's backend and deadline).
 */
import type { Plan } from '../compile/plan.ts';
import type { Calibration } from '../model/calibration.ts';
import type { MilpModel, Solution } from '../model/milp.ts';
import type { Edit } from '../model/types.ts';
import { excludeFlow } from './alternative.ts';
import { confidenceOf } from './confidence.ts';
import { repairEvidence, type Alternative, type EvidenceVector } from './evidence.ts';

export interface Assessment {
  readonly evidence: EvidenceVector;
  /** Absent without a calibration. */
  readonly confidence?: number;
}

export async function assessRepair(
  model: MilpModel,
  plan: Plan,
  values: readonly number[],
  edits: readonly Edit[],
  solve: (model: MilpModel) => Promise<Solution>,
  calibration: Calibration | undefined,
  weights: Readonly<Record<string, number>>,
): Promise<Assessment> {
  const second = await solve(excludeFlow(model, plan, values));
  const alternative: Alternative =
    second.status === 'infeasible'
      ? { found: 'none' }
      : second.values && second.status === 'optimal'
        ? { found: 'repair', values: second.values }
        : { found: 'unknown' };
  const evidence = repairEvidence(plan, values, edits, alternative, weights);
  return calibration ? { evidence, confidence: confidenceOf(calibration, evidence) } : { evidence };
}
