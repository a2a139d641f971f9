/**
 * Argument healing before the optimiser: `heal(input, catalog)` repairs malformed argument JSON, unpacks
 * stringified JSON and coerces numeric/boolean strings, recording each fix as a `HealEdit`.
 */
import { parseSequence } from '../read/sequence.ts';
import type { Catalog, Sequence } from '../model/types.ts';
import { healToolCalls } from './toolcalls.ts';
import type { Healed, HealOptions } from './types.ts';
import { healValues } from './values.ts';
import { COST_DIGITS, round } from '../model/numbers.ts';

/**
 * Heals a sequence or raw tool calls (any form `parseSequence` reads: OpenAI tool calls, an assistant
 * message, NESTFUL steps, text). Throws an `InputError` for input that stays unreadable after repair.
 */
/** `held`: labels the run already holds (memory items, executed calls), which no unlabelled call gets. */
export function heal(
  input: Sequence | unknown,
  catalog: Catalog,
  options: HealOptions & { readonly held?: readonly string[] } = {},
): Healed {
  const raw = healToolCalls(input, options);
  const parsed = parseSequence(raw.calls, { resultName: options.resultName, held: options.held });
  const values = healValues(parsed, catalog, options);
  const edits = [...raw.edits, ...values.edits];
  return { sequence: values.sequence, edits, cost: totalCost(edits) };
}

export function totalCost(edits: readonly { readonly cost: number }[]): number {
  return round(
    edits.reduce((sum, e) => sum + e.cost, 0),
    COST_DIGITS,
  );
}

export { healToolCalls, type HealedCalls } from './toolcalls.ts';
export { healValues } from './values.ts';
export { repairArgumentText } from './json.ts';
export * from './types.ts';
