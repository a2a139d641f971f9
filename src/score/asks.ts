/**
 * What each `ask` of a repair stands for, read from the gold at the place the ask is used: a literal the
 * input does not hold (a fair question: nothing else could have given it), a literal the input holds
 * (the repair should have reused it), a value the gold computes by a reference (an opaque id a person
 * cannot know: the repair should have wired or inserted its producer), or nothing the gold can say (the
 * call or parameter has no counterpart in the gold). Two asks that stand for the same gold output, or
 * for the same gold literal under the same slot, are one question asked twice. Two slots whose gold
 * literals merely coincide (a check-in and a check-out on one day, a rate and a term both 5) are two
 * questions: nothing in the input says their answers agree.
 */
import { canonicalJson } from '../model/canonical.ts';
import type { Sequence } from '../model/types.ts';
import { alignCalls } from './align.ts';
import { asksOf, callsOf, literalValues, producerIndex, wholeReference } from './steps.ts';
import { isPseudoStep } from '../model/constants.ts';
import { isLiteral } from '../validate/validate.ts';

export type AskMeaning = 'unknown-literal' | 'known-literal' | 'computed' | 'unmatched';

export interface AskReading {
  /** The ask's label in the repair (`destinationEntityId`, `query_2`). */
  readonly label: string;
  /** The parameter it was asked for. */
  readonly slot: string;
  readonly meaning: AskMeaning;
  /** True when an earlier ask of the repair stands for the same gold output, or the same literal and slot. */
  readonly duplicate: boolean;
}

/** The first place (call index, parameter) where the repair passes the ask's value as a whole argument. */
function firstUse(repaired: Sequence, label: string): { at: number; param: string } | null {
  for (const { index, step } of callsOf(repaired)) {
    for (const [param, value] of Object.entries(step.arguments)) {
      const ref = wholeReference(value);
      if (ref === null || ref.label !== label || ref.path.length > 0) continue;
      const producer = producerIndex(repaired, index, label);
      if (producer !== null && isPseudoStep(repaired[producer])) return { at: index, param };
    }
  }
  return null;
}

/** Reads every ask of `repaired` against `gold`; `input` decides which literals were knowable. */
export function readAsks(input: Sequence, gold: Sequence, repaired: Sequence): AskReading[] {
  const pairs = alignCalls(repaired, gold);
  const known = literalValues(input);
  const seen = new Set<string>();
  return asksOf(repaired).map(({ label, slot }) => {
    const use = firstUse(repaired, label);
    const j = use === null ? undefined : pairs.get(use.at);
    let meaning: AskMeaning = 'unmatched';
    let key = `unmatched:${label}`;
    if (
      use !== null &&
      j !== undefined &&
      Object.prototype.hasOwnProperty.call(gold[j].arguments, use.param)
    ) {
      const value = gold[j].arguments[use.param];
      if (isLiteral(value)) {
        key = `literal:${slot}:${canonicalJson(value)}`;
        meaning = known.has(canonicalJson(value)) ? 'known-literal' : 'unknown-literal';
      } else {
        const ref = wholeReference(value);
        const producer = ref === null ? null : producerIndex(gold, j, ref.label);
        key =
          ref === null
            ? `text:${j}:${use.param}`
            : `output:${producer ?? ref.label}${ref.raw.slice(1 + ref.label.length)}`;
        meaning = 'computed';
      }
    }
    const duplicate = seen.has(key);
    seen.add(key);
    return { label, slot, meaning, duplicate };
  });
}
