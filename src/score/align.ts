/**
 * Pairs the calls of a repair with the calls of the gold when the two differ, so that a judge can ask
 * "what did the gold pass here?" for one argument of one call. Calls pair only with calls of the same API;
 * among those, the pairs that agree on most arguments go first (a reference agrees with a reference to the
 * same field of a call of the same API), then the pairs closest in position. Greedy and deterministic.
 */
import { canonicalJson } from '../model/canonical.ts';
import type { Json, Sequence } from '../model/types.ts';
import { mapReferences } from '../read/references.ts';
import { callsOf, producerIndex } from './steps.ts';

/** An argument value with each reference written as the producer's API name and path (`$@Api.skyId$`). */
function looseValue(sequence: Sequence, at: number, value: Json): string {
  return canonicalJson(
    mapReferences(value, (ref) => {
      const producer = producerIndex(sequence, at, ref.label);
      const head = producer === null ? ref.label : `@${sequence[producer].name}`;
      return `$${head}${ref.raw.slice(1 + ref.label.length)}`;
    }),
  );
}

function agreement(a: Sequence, i: number, b: Sequence, j: number): number {
  const x = a[i].arguments;
  const y = b[j].arguments;
  let score = 0;
  for (const param of Object.keys(x)) {
    if (!Object.prototype.hasOwnProperty.call(y, param)) continue;
    score += 1;
    if (looseValue(a, i, x[param]) === looseValue(b, j, y[param])) score += 2;
  }
  return score;
}

/** Pairs of step indexes (in `a` → in `b`) of calls with the same API; pseudo-steps are never paired. */
export function alignCalls(a: Sequence, b: Sequence): Map<number, number> {
  const candidates: { i: number; j: number; score: number }[] = [];
  for (const { index: i } of callsOf(a)) {
    for (const { index: j } of callsOf(b)) {
      if (a[i].name === b[j].name) candidates.push({ i, j, score: agreement(a, i, b, j) });
    }
  }
  candidates.sort(
    (p, q) => q.score - p.score || Math.abs(p.i - p.j) - Math.abs(q.i - q.j) || p.i - q.i || p.j - q.j,
  );
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  for (const { i, j } of candidates) {
    if (pairs.has(i) || taken.has(j)) continue;
    pairs.set(i, j);
    taken.add(j);
  }
  return pairs;
}
