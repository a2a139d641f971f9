/**
 * Data-flow identity of a sequence, for "was the gold restored?". `signature` in src/loop/pick.ts renames
 * labels in order of definition but keeps step order, so a repair that moves a consumer after its producer
 * (instead of the producer before its consumer) would not count as restored although it computes the same
 * thing. Here every step is identified by its API, its literal arguments and the identities of the steps
 * its references point at; the sequence is the multiset of its steps. Label names and the order of
 * independent steps do not matter; which output feeds which input does.
 */
import { createHash } from 'node:crypto';
import type { Json, Sequence } from '../model/types.ts';
import { mapReferences } from '../read/references.ts';
import { sortKeys } from '../model/canonical.ts';

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
