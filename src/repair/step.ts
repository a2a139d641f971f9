/**
 * One call at a time, as an agent runtime executes them: check (and correct) call k against the memory that
 * calls 1..k-1 left behind. Executed calls become memory items shaped like their APIs' declared outputs.
 */
import type { Catalog, Sequence, Step } from '../model/types.ts';
import { memoryFromCalls } from '../validate/executed-memory.ts';
import { repair } from './repair.ts';
import { pseudoStepsOf } from './pseudo.ts';
import type { RepairOptions, RepairResult } from '../model/options.ts';

export { memoryFromCalls };

export interface StepCheck {
  /** True when the call is executable as given. */
  readonly valid: boolean;
  /** The call to execute: the original, or the corrected one when the repair needs nothing from a person. */
  readonly corrected: Step | null;
  /** Pseudo-steps (ask/confirm) a person or the agent must answer first. */
  readonly pending: readonly Step[];
  readonly repair: RepairResult;
}

/** Checks one call against memory and the calls already executed, and proposes the corrected call. */
export async function checkStep(
  call: Step,
  catalog: Catalog,
  options: RepairOptions & { readonly executed?: Sequence } = {},
): Promise<StepCheck> {
  const memory = { ...memoryFromCalls(options.executed ?? [], catalog), ...(options.memory ?? {}) };
  const result = await repair([call], catalog, { ...options, memory });
  const isPseudo = pseudoStepsOf(result, catalog);
  const pending = result.sequence.filter(isPseudo);
  const calls = result.sequence.filter((s) => !isPseudo(s));
  const corrected = result.status === 'valid' ? call : calls.length > 0 ? calls[calls.length - 1] : null;
  return { valid: result.status === 'valid', corrected, pending, repair: result };
}
