/**
 * Step-by-step checking, as an agent runtime meets a plan: call k runs with the memory that calls 1..k-1
 * left, before any later call exists. Call k is valid when the prefix ending at k has no error at step k,
 * so a reference to a label defined only later is an unknown label here (not a forward reference).
 */
import type { Catalog, Issue, Sequence } from '../model/types.ts';
import type { ValidateOptions } from '../model/options.ts';
import { validate } from '../validate/validate.ts';
import { numbered, stepNumber } from '../model/numbers.ts';

export interface StepCheck {
  /** The step's number (1-based, as in every output). */
  readonly step: number;
  readonly valid: boolean;
  /** The issues of this step when it runs (errors and warnings), numbered as every output numbers steps. */
  readonly issues: readonly Issue[];
}

export interface StepByStep {
  /** The number (1-based) of the first call that cannot run, or null when every call can. */
  readonly firstFailingStep: number | null;
  readonly steps: readonly StepCheck[];
}

/** Checks every call of `sequence` against the memory its predecessors leave (plus `options.memory`). */
export function checkStepByStep(
  sequence: Sequence,
  catalog: Catalog,
  options: ValidateOptions = {},
): StepByStep {
  const steps: StepCheck[] = [];
  let firstFailingStep: number | null = null;
  for (let k = 0; k < sequence.length; k++) {
    const issues = validate(sequence.slice(0, k + 1), catalog, options).issues.filter((x) => x.step === k);
    const valid = !issues.some((x) => x.severity === 'error');
    if (!valid && firstFailingStep === null) firstFailingStep = stepNumber(k);
    steps.push({ step: stepNumber(k), valid, issues: issues.map(numbered) });
  }
  return { firstFailingStep, steps };
}
