/**
 * Two habits of a repair that lose the plan's intent without making it invalid. A role collapse: two
 * parameters of one call fed from the same output (one step's output, or one memory item) where the gold
 * feeds them from different ones: a flight from London to London. A sibling copy: a call given the same
 * literal for a parameter as another call of the same API, where the gold's calls pass different values:
 * two searches for "Paris" where one was for London.
 */
import { canonicalJson } from '../model/canonical.ts';
import type { Sequence, Step } from '../model/types.ts';
import { isLiteral } from '../validate/validate.ts';
import { alignCalls } from './align.ts';
import { callsOf, producerIndex, wholeReference } from './steps.ts';
import { isPseudoStep } from '../model/constants.ts';

/** Parameter → the output feeding it as one whole reference (`#3` for a step, `@item` for memory). */
function sources(sequence: Sequence, at: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const [param, value] of Object.entries(sequence[at].arguments)) {
    const ref = wholeReference(value);
    if (ref === null) continue;
    const producer = producerIndex(sequence, at, ref.label);
    if (producer !== null && isPseudoStep(sequence[producer])) continue; // an ask is the user's value
    out.set(param, producer === null ? `@${ref.label}` : `#${producer}`);
  }
  return out;
}

/** For the gold calls of an API: does some call feed `p` and `q` from one output, some from two? */
function goldFeeds(gold: Sequence, name: string, p: string, q: string): { shared: boolean; apart: boolean } {
  let shared = false;
  let apart = false;
  for (const { index, step } of callsOf(gold)) {
    if (step.name !== name) continue;
    const feeds = sources(gold, index);
    const [a, b] = [feeds.get(p), feeds.get(q)];
    if (a === undefined || b === undefined) continue;
    if (a === b) shared = true;
    else apart = true;
  }
  return { shared, apart };
}

/**
 * Pairs of parameters of one repaired call fed from one output where the gold's calls of that API feed
 * them from different outputs (and never from one).
 */
export function roleCollapses(
  gold: Sequence,
  repaired: Sequence,
): { step: number; params: [string, string] }[] {
  const found: { step: number; params: [string, string] }[] = [];
  for (const { index, step } of callsOf(repaired)) {
    const feeds = [...sources(repaired, index)];
    for (let x = 0; x < feeds.length; x++) {
      for (let y = x + 1; y < feeds.length; y++) {
        if (feeds[x][1] !== feeds[y][1]) continue;
        const gold_ = goldFeeds(gold, step.name, feeds[x][0], feeds[y][0]);
        if (gold_.apart && !gold_.shared) found.push({ step: index, params: [feeds[x][0], feeds[y][0]] });
      }
    }
  }
  return found;
}

function literalArg(step: Step, param: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(step.arguments, param)) return null;
  const value = step.arguments[param];
  return isLiteral(value) ? canonicalJson(value) : null;
}

/**
 * Pairs of repaired calls of one API passing one literal for a parameter where the gold calls they pair
 * with pass two different literals there.
 */
export function siblingCopies(
  gold: Sequence,
  repaired: Sequence,
): { steps: [number, number]; param: string }[] {
  const pairs = alignCalls(repaired, gold);
  const calls = callsOf(repaired);
  const found: { steps: [number, number]; param: string }[] = [];
  for (let x = 0; x < calls.length; x++) {
    for (let y = x + 1; y < calls.length; y++) {
      const [a, b] = [calls[x], calls[y]];
      if (a.step.name !== b.step.name) continue;
      const [ga, gb] = [pairs.get(a.index), pairs.get(b.index)];
      if (ga === undefined || gb === undefined) continue;
      for (const param of Object.keys(a.step.arguments)) {
        const value = literalArg(a.step, param);
        if (value === null || value !== literalArg(b.step, param)) continue;
        const [va, vb] = [literalArg(gold[ga], param), literalArg(gold[gb], param)];
        if (va !== null && vb !== null && va !== vb) found.push({ steps: [a.index, b.index], param });
      }
    }
  }
  return found;
}
