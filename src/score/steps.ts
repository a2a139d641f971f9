/**
 * What the judges of a repair share: which steps are calls and which are pseudo-steps (`ask`, `confirm`),
 * which step a reference points at, whether an argument is one whole reference, and the literal values a
 * sequence holds. Everything works on output sequences only, never on the model that produced them.
 */
import { canonicalJson } from '../model/canonical.ts';
import { ASK, isPseudoStep } from '../model/constants.ts';
import type { Json, Reference, Sequence, Step } from '../model/types.ts';
import { findReferences } from '../read/references.ts';
import { isLiteral } from '../validate/validate.ts';

/** A step of a sequence with its index there. */
export interface Indexed {
  readonly index: number;
  readonly step: Step;
}

/** The calls of a sequence (the answer step included), without `ask`/`confirm` pseudo-steps. */
export function callsOf(sequence: Sequence): Indexed[] {
  return sequence.flatMap((step, index) => (isPseudoStep(step) ? [] : [{ index, step }]));
}

/** The labels of the `ask` pseudo-steps of a sequence, in order, with the slot each asks for. */
export function asksOf(sequence: Sequence): { label: string; slot: string; index: number }[] {
  return sequence.flatMap((step, index) =>
    step.name === ASK && step.label !== undefined
      ? [{ label: step.label, slot: String(step.arguments.slot ?? step.label), index }]
      : [],
  );
}

/** The reference when `value` is exactly one reference (`"$var1.skyId$"`), else null. */
export function wholeReference(value: Json): Reference | null {
  if (typeof value !== 'string') return null;
  const found = findReferences(value);
  return found.length === 1 && found[0].start === 0 && found[0].end === value.length ? found[0].ref : null;
}

/**
 * The index of the step a reference made at step `at` points at: the last earlier step with that label;
 * null for a label no earlier step defines (a memory item, or a dangling reference).
 */
export function producerIndex(sequence: Sequence, at: number, label: string): number | null {
  for (let i = at - 1; i >= 0; i--) if (sequence[i].label === label) return i;
  return null;
}

/** Every literal value in a sequence's arguments, whole or nested in lists and objects (canonical JSON). */
export function literalValues(sequence: Sequence): Set<string> {
  const out = new Set<string>();
  const walk = (value: Json): void => {
    if (isLiteral(value)) out.add(canonicalJson(value));
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object')
      Object.values(value).forEach((v) => walk(v as Json));
  };
  for (const step of sequence) {
    if (isPseudoStep(step)) continue;
    Object.values(step.arguments).forEach(walk);
  }
  return out;
}

/** Whole literal argument values of the calls of a sequence, as a multiset (canonical JSON → count). */
export function literalArguments(sequence: Sequence): Map<string, number> {
  const out = new Map<string, number>();
  for (const { step } of callsOf(sequence)) {
    for (const value of Object.values(step.arguments)) {
      if (!isLiteral(value)) continue;
      const key = canonicalJson(value);
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}
