/** Names and value lists every layer shares: pseudo-steps, modes, strictness levels, solver names. */
import type { Catalog } from './types.ts';

/** The answer pseudo-step's default name: its references are checked; it is never renamed or deleted. */
export const DEFAULT_RESULT_NAME = 'var_result';
/** Whether step `i` of `steps` is the answer pseudo-step: the last step, of the answer's name. */
export function isAnswerStep(
  steps: readonly { readonly name: string }[],
  i: number,
  resultName = DEFAULT_RESULT_NAME,
): boolean {
  return i === steps.length - 1 && steps[i].name === resultName;
}
/** The pseudo-step a repair writes for a value the user must give: `ask(slot="date")`. */
export const ASK = 'ask';
/** The pseudo-step defensive mode writes for a value the repair invented. */
export const CONFIRM = 'confirm';

/** True for an `ask` or `confirm` pseudo-step: a value a person must give or confirm. */
export function isPseudoStep(step: { readonly name: string }): boolean {
  return step.name === ASK || step.name === CONFIRM;
}

/**
 * True for an `ask` or `confirm` step the catalog has no API of. A catalog may define an API `ask`: its
 * steps are calls, everywhere the catalog is known. `apis` is the catalog or an index of its API names
 * (a `Set` or `Map`; pass one where steps are tested in a loop).
 */
export function isPseudoStepIn(
  step: { readonly name: string },
  apis: Catalog | { has(name: string): boolean },
): boolean {
  if (!isPseudoStep(step)) return false;
  return 'has' in apis ? !apis.has(step.name) : !apis.apis.some((api) => api.name === step.name);
}

/** `sound`: executability only; `valid`: and the goals; `optimal`: the cheapest sequence meeting the goals. */
export const MODES = ['sound', 'valid', 'optimal'] as const;
export type Mode = (typeof MODES)[number];

/** Literal type/enum checks: none, warnings, or errors. */
export const STRICTNESS = ['off', 'warn', 'strict'] as const;
export type Strictness = (typeof STRICTNESS)[number];

/**
 * A repair's status: nothing to repair, repaired, repaired but some input call could not be kept (no
 * catalog API is close to its name; the result lists them in `dropped`), repaired but less likely right than
 * `minConfidence` asks (`uncertain`: the repair is in the result, flagged), over the tries limit, out of time
 * (perhaps with a repair), failed.
 */
export const STATUSES = [
  'valid',
  'repaired',
  'partial',
  'uncertain',
  'exhausted',
  'timeout',
  'error',
] as const;
export type Status = (typeof STATUSES)[number];

/**
 * A repair that is returned but not to be run as it is: held back below `minConfidence` (uncertain, or a
 * partial repair, whose status says more), or over `maxTries` (exhausted). The hook, the loop and `pick`
 * treat them alike.
 */
export function isHeldBack(
  result: { readonly status: Status; readonly confidence?: number },
  minConfidence?: number,
): boolean {
  if (result.status === 'uncertain' || result.status === 'exhausted') return true;
  // A partial repair keeps its status below the threshold, and is held back all the same.
  return minConfidence !== undefined && result.confidence !== undefined && result.confidence < minConfidence;
}

/** The statuses of a repair a confidence describes: repaired, held back as uncertain, or repaired in part. */
export function isRepairStatus(status: Status): boolean {
  return status === 'repaired' || status === 'uncertain' || status === 'partial';
}

export const SOLVER_NAMES = ['highs', 'lp-solver', 'portfolio'] as const;
export type SolverName = (typeof SOLVER_NAMES)[number];

/**
 * The backend used when none is named: `portfolio`, lp-solver on small models and HiGHS above a size. The
 * tie-break terms order every pair of different repairs, so each backend returns the same repair (checked on
 * every record of both corruption recipes); lp-solver is the faster one on the small models most plans give.
 */
export const DEFAULT_SOLVER: SolverName = 'portfolio';

export function isSolverName(name: string): name is SolverName {
  return (SOLVER_NAMES as readonly string[]).includes(name);
}
