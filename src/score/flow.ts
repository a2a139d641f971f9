/**
 * Data-flow identity of a sequence, in two strengths, the one definition of each. `signature`: label names
 * do not matter but step order does (labels renamed `#1`, `#2`, … in order of definition); `refract pick`
 * votes with it. `dataFlowSignature`, for "was the gold restored?": neither label names nor the order of
 * independent steps matter, so a repair that moves a consumer after its producer (instead of the producer
 * before its consumer) computes the same thing: every step is identified by its API, its literal arguments
 * and the identities of the steps its references point at, and the sequence is the multiset of its steps.
 * Which output feeds which input matters to both.
 */
import { createHash } from 'node:crypto';
import type { Json, Sequence } from '../model/types.ts';
import { mapReferences } from '../read/references.ts';
import { sortKeys } from '../model/canonical.ts';

/**
 * The step-ordered signature, a canonical form that ignores label names: labels are renamed `#1`, `#2`, … in order of first
 * definition (references follow; labels never defined, such as memory items, keep their name), and
 * arguments are sorted by name.
 */
export function signature(sequence: Sequence): string {
  const names = new Map<string, string>();
  for (const step of sequence) {
    if (step.label !== undefined && !names.has(step.label)) names.set(step.label, `#${names.size + 1}`);
  }
  const canonical = sequence.map((step) => {
    const args = mapReferences(
      sortKeys(step.arguments as Json),
      (ref) => `$${names.get(ref.label) ?? ref.label}${ref.raw.slice(1 + ref.label.length)}`,
    );
    const label = step.label !== undefined ? names.get(step.label) : undefined;
    return label !== undefined
      ? { name: step.name, label, arguments: args }
      : { name: step.name, arguments: args };
  });
  return JSON.stringify(canonical);
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}

/** Canonical identity of each step, in sequence order. */
export function stepIdentities(sequence: Sequence): string[] {
  const byLabel = new Map<string, string>();
  return sequence.map((step) => {
    // A reference to a label no earlier step defines (a memory item) keeps its name.
    const args = mapReferences(sortKeys(step.arguments as Json), (ref) => {
      const producer = byLabel.get(ref.label);
      return `$${producer === undefined ? ref.label : `@${producer}`}${ref.raw.slice(1 + ref.label.length)}`;
    });
    const id = digest(JSON.stringify([step.name, args]));
    if (step.label !== undefined) byLabel.set(step.label, id);
    return id;
  });
}

/** Order- and label-independent signature: equal for two sequences with the same data flow. */
export function dataFlowSignature(sequence: Sequence): string {
  return stepIdentities(sequence).sort().join(' ');
}

/** True when `candidate` computes what `gold` computes (same calls, same literals, same wiring). */
export function sameDataFlow(candidate: Sequence, gold: Sequence): boolean {
  return dataFlowSignature(candidate) === dataFlowSignature(gold);
}
