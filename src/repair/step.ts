/**
 * One call at a time, as an agent runtime executes them: check (and correct) call k against the memory that
 * calls 1..k-1 left behind. Executed calls become memory items shaped like their APIs' declared outputs.
 */
import type { Catalog, Json, Memory, Sequence, Step } from '../model/types.ts';
import { apiByName } from '../validate/validate.ts';
import { ownValue, setOwn } from '../model/objects.ts';
import { repair } from './repair.ts';
import { pseudoStepsOf } from './pseudo.ts';
import type { RepairOptions, RepairResult } from '../model/options.ts';

/** A placeholder value at every declared output path of each executed call (values are unknown here). */
export function memoryFromCalls(executed: Sequence, catalog: Catalog): Memory {
  const apis = apiByName(catalog);
  const memory: Record<string, Json> = {};
  for (const step of executed) {
    if (step.label === undefined) continue;
    const root: Record<string, Json> = {};
    for (const field of apis.get(step.name)?.outputs ?? []) place(root, field.path.split('.'));
    setOwn(memory, step.label, root);
  }
  return memory;
}

/** Writes a placeholder at a normalised path (`author[].id` -> author: [{ id: null }]). */
function place(root: Record<string, Json>, keys: string[]): void {
  let node: Record<string, Json> = root;
  keys.forEach((raw, i) => {
    const list = raw.endsWith('[]');
    const key = list ? raw.slice(0, raw.indexOf('[')) : raw;
    const last = i === keys.length - 1;
    const existing = ownValue(node, key);
    if (list) {
      const items = Array.isArray(existing) ? (existing as Json[]) : [];
      if (items.length === 0) items.push({});
      setOwn(node, key, items);
      if (!last) node = items[0] as Record<string, Json>;
    } else if (last) {
      if (existing === undefined) setOwn(node, key, null);
    } else {
      if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) setOwn(node, key, {});
      node = ownValue(node, key) as Record<string, Json>;
    }
  });
}

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
