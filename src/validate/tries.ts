/**
 * Tries: how often one call runs, counting the calls already executed. A call is its API and its arguments,
 * with every reference read as the call that produced it (`$var5.skyId$` after a repeated airport search is
 * the same value as `$var1.skyId$` after the first), so a repeated pair of calls counts as repeated twice.
 */
import type { Json, Memory, Sequence, Step } from '../model/types.ts';
import { holdsNothing } from './outputs.ts';
import { canonicalJson } from '../model/canonical.ts';
import { formatReference, mapReferences } from '../read/references.ts';
import { stepNumber } from '../model/numbers.ts';
import type { TriesExceeded } from '../model/options.ts';

/**
 * The identity of each step of `executed` followed by `sequence`: its API and canonical arguments, with the
 * references resolved to the identity of the latest earlier step of that label (memory items stay names).
 * A step of `sequence` that `unique` tells (an `ask`: each one's answer is a value of its own) is the same as
 * no other, so two calls fed by two asks for one slot are two calls.
 */
export function callKeys(
  executed: Sequence,
  sequence: Sequence,
  unique: (step: Step, index: number) => boolean = () => false,
): string[] {
  const byLabel = new Map<string, string>();
  return [...executed, ...sequence].map((step, at) => {
    const args = mapReferences(step.arguments as Json, (ref) => {
      const producer = byLabel.get(ref.label);
      return producer === undefined ? ref.raw : formatReference(`{${producer}}`, ref.path);
    });
    const i = at - executed.length;
    const own = i >= 0 && unique(step, i) ? `#${i}` : '';
    const key = `${step.name}(${canonicalJson(args)})${own}`;
    if (step.label !== undefined) byLabel.set(step.label, key);
    return key;
  });
}

/**
 * The steps of `sequence` that restate an executed call under its own label (the same call, the same name: a
 * plan sent whole, the part already run included). Such a step names what the run holds; it takes nothing away.
 */
export function restatedSteps(sequence: Sequence, executed: Sequence): Set<number> {
  const out = new Set<number>();
  if (executed.length === 0) return out;
  const keys = callKeys(executed, sequence);
  sequence.forEach((step, i) => {
    if (step.label === undefined) return;
    const key = keys[executed.length + i];
    if (executed.some((call, e) => call.label === step.label && keys[e] === key)) out.add(i);
  });
  return out;
}

/** The steps of `sequence` that make a call run more than `maxTries` times; `skip` tells pseudo-steps. */
export function triesExceeded(
  sequence: Sequence,
  executed: Sequence,
  maxTries: number,
  skip: (step: Step, index: number) => boolean,
): TriesExceeded[] {
  const keys = callKeys(executed, sequence, skip);
  const ran = new Map<string, number>();
  keys.slice(0, executed.length).forEach((k) => ran.set(k, (ran.get(k) ?? 0) + 1));
  const done = new Map(ran);
  const over: TriesExceeded[] = [];
  sequence.forEach((step, i) => {
    if (skip(step, i)) return;
    const key = keys[executed.length + i];
    const tries = (ran.get(key) ?? 0) + 1;
    ran.set(key, tries);
    if (tries > maxTries) over.push({ step: i, name: step.name, tries, executed: done.get(key) ?? 0 });
  });
  return over;
}

/** Why a repair is `exhausted`: its first call over the limit. */
export function exhaustedReason(t: TriesExceeded, maxTries: number): string {
  return (
    `no repair keeps to maxTries ${maxTries}: ${t.name} with these arguments would run ${t.tries} times ` +
    `(${t.executed} executed already)`
  );
}

/** One line on a call over the limit. */
export function triesMessage(t: TriesExceeded, maxTries: number): string {
  return (
    `step ${stepNumber(t.step)} would be try ${t.tries} of ${t.name} with these arguments ` +
    `(${t.executed} executed already; maxTries ${maxTries})`
  );
}

/** Step index -> the label of the latest executed call it repeats whose result memory holds. */
export function executedRepeats(steps: Sequence, executed: Sequence, memory: Memory): Map<number, string> {
  const out = new Map<number, string>();
  if (executed.length === 0) return out;
  const keys = callKeys(executed, steps);
  const held = new Map<string, string>();
  executed.forEach((call, e) => {
    const label = call.label;
    if (label === undefined || !Object.prototype.hasOwnProperty.call(memory, label)) return;
    if (!holdsNothing(memory[label])) held.set(keys[e], label);
  });
  steps.forEach((_, i) => {
    const label = held.get(keys[executed.length + i]);
    if (label !== undefined) out.set(i, label);
  });
  return out;
}

/** The executed calls whose result memory holds under their label (an item that is not `{}`, `[]` or null). */
export function heldResults(executed: Sequence, memory: Memory): Step[] {
  return executed.filter(
    (call) =>
      call.label !== undefined &&
      Object.prototype.hasOwnProperty.call(memory, call.label) &&
      !holdsNothing(memory[call.label]),
  );
}
