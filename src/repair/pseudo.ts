/**
 * Pseudo-steps in a repair's input. A sequence a repair returned holds `ask`/`confirm` pseudo-steps (values
 * only the user can give); read back (`refract fix` on its own output), they stay as they are: nothing is
 * dropped and nothing is asked twice. The optimiser works on the calls alone, each asked label standing as
 * a memory item whose whole value is known; the pseudo-steps then go back before the first step that reads
 * them, and the edits' steps are moved back to the input's numbering. A catalog API named `ask` or `confirm`
 * is a call like any other; the pseudo-steps of a repair's output are told by `pseudoStepsOf`.
 */
import type { Catalog, Edit, Json, Memory, Sequence, Step } from '../model/types.ts';
import type { Decoded } from '../decode/decode.ts';
import { isPseudoStep, isPseudoStepIn } from '../model/constants.ts';
import { canonicalJson } from '../model/canonical.ts';
import { stepReferences } from '../read/references.ts';
import { apiByName } from '../validate/validate.ts';

/** A sequence with its pseudo-steps set aside. */
export interface SetAside {
  /** The input's calls, without its pseudo-steps. */
  readonly calls: Sequence;
  /** The pseudo-steps, with their input index. */
  readonly pseudo: readonly { readonly index: number; readonly step: Step }[];
  /** The repair's memory plus one item per asked label. */
  readonly memory: Memory;
  /** Input index of each step of `calls`. */
  readonly index: readonly number[];
  /** The input's length (an insertion at the end of `calls` goes before it). */
  readonly length: number;
}

/** The input's pseudo-steps set aside, or null when it has none (the common case: nothing is copied). */
export function setAside(sequence: Sequence, catalog: Catalog, memory: Memory = {}): SetAside | null {
  const apis = apiByName(catalog);
  const isPseudo = (s: Step) => isPseudoStepIn(s, apis);
  if (!sequence.some(isPseudo)) return null;
  const calls: Step[] = [];
  const index: number[] = [];
  const pseudo: { index: number; step: Step }[] = [];
  const asked: Record<string, Json> = {};
  sequence.forEach((step, i) => {
    if (!isPseudo(step)) {
      calls.push(step);
      index.push(i);
      return;
    }
    pseudo.push({ index: i, step });
    if (step.label !== undefined) asked[step.label] = null;
  });
  return { calls, pseudo, memory: { ...memory, ...asked }, index, length: sequence.length };
}

/** Whether `step` reads what pseudo-step `p` stands for: its answer's label, or the value it confirms. */
function reads(step: Step, p: Step): boolean {
  if (p.label !== undefined) return stepReferences(step.arguments).some((site) => site.ref.label === p.label);
  return Object.entries(p.arguments).some(
    ([param, value]) =>
      Object.prototype.hasOwnProperty.call(step.arguments, param) &&
      canonicalJson(step.arguments[param]) === canonicalJson(value),
  );
}

/**
 * Where pseudo-step `at` goes in the repaired calls: before the first step that reads it, else before the
 * repaired step of the next labelled input call, else before the answer step (the last step), else last.
 */
function anchor(aside: SetAside, at: number, repaired: Sequence, resultName: string): number {
  const p = aside.pseudo[at];
  const reader = repaired.findIndex((s) => reads(s, p.step));
  if (reader >= 0) return reader;
  const next = aside.calls.find((s, k) => aside.index[k] > p.index && s.label !== undefined);
  const same = next ? repaired.findIndex((s) => s.label === next.label) : -1;
  if (same >= 0) return same;
  const last = repaired.length - 1;
  return last >= 0 && repaired[last].name === resultName ? last : repaired.length;
}

/** A step index of the calls as an input index (one past the last call: the input's end). */
function inputStep(aside: SetAside, k: number): number {
  return k < aside.index.length ? aside.index[k] : aside.length;
}

/** The repair of the calls as a repair of the whole input: pseudo-steps back in, steps renumbered. */
export function putBack(aside: SetAside, decoded: Decoded, resultName: string): Decoded {
  const before = new Map<number, Step[]>();
  aside.pseudo.forEach((p, at) => {
    const k = anchor(aside, at, decoded.sequence, resultName);
    before.set(k, [...(before.get(k) ?? []), p.step]);
  });
  const sequence: Step[] = [];
  decoded.sequence.forEach((step, k) => sequence.push(...(before.get(k) ?? []), step));
  sequence.push(...(before.get(decoded.sequence.length) ?? []));
  // Edit details name steps by number (`delete step 3`, `before step 4`): the same renumbering.
  const detail = (text: string) =>
    text.replace(/\bstep (\d+)/g, (_, n: string) => `step ${inputStep(aside, Number(n) - 1) + 1}`);
  return {
    ...decoded,
    sequence,
    edits: decoded.edits.map((e) => ({ ...e, step: inputStep(aside, e.step), detail: detail(e.detail) })),
    dropped: decoded.dropped.map((d) => ({ ...d, step: inputStep(aside, d.step) })),
  };
}

/**
 * The test for a pseudo-step in a repair's output: an `ask`/`confirm` step the catalog has no API of. When
 * the catalog has such an API and the repair itself asked or confirmed (a `slotFill` or `confirm` edit), a
 * step of that name is read as the repair's question, by name: its own pseudo-steps bear the API's name and
 * nothing else tells them apart. A repair that asked nothing leaves a catalog API `ask` a call.
 */
export function pseudoStepsOf(
  repair: { readonly edits: readonly Edit[] },
  catalog: Catalog,
): (step: Step) => boolean {
  const asked = repair.edits.some((e) => e.kind === 'slotFill' || e.kind === 'confirm');
  const apis = apiByName(catalog);
  return asked ? isPseudoStep : (step) => isPseudoStepIn(step, apis);
}
