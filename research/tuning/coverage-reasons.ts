/**
 * Why the model does not hold a gold (candidate coverage's misses): the gold-constrained point read against the
 * gold, call by call and argument by argument, the first difference named. The point is the closest the model
 * comes to the gold (every decision the gold contradicts costs `GOLD_PENALTY`), so what it lacks is what the
 * candidates lack: an API no call may run, a link or a value no source offers, a value no edit kind writes.
 */
import { canonicalJson } from '../../src/model/canonical.ts';
import { ASK, isPseudoStep } from '../../src/model/constants.ts';
import type { Catalog, Json, Reference, Sequence, Step } from '../../src/model/types.ts';
import { normalisePath, referenceSites } from '../../src/read/references.ts';

export const MISS_REASONS = [
  'no model',
  'reference inside a value',
  'call not a candidate',
  'call not taken',
  'link missing',
  'value missing',
  'order or labels',
] as const;

/**
 * - `no model`: the record does not compile, or its gold-constrained solve finds no point;
 * - `reference inside a value`: a gold argument holds a reference within a larger value (`"5 * $var1.rate$"`,
 *   `["$var1.id$"]`), which no edit kind writes;
 * - `call not a candidate`: a gold call of an API no call of the model may run (a stand-in or insertion filter,
 *   or a bound, left it out);
 * - `call not taken`: its API is offered, yet the point has no such call (the gold's other choices rule it out);
 * - `link missing`: a gold argument is a reference, and the point passes something else (or asks);
 * - `value missing`: a gold literal the point does not pass (an ask for it counts as passing it);
 * - `order or labels`: the calls and arguments agree, the judge still says no (order, labels, the answer).
 */
export type MissReason = (typeof MISS_REASONS)[number];

export interface Miss {
  readonly reason: MissReason;
  /** The call or argument that shows it (`get_translation`, `text=$var1.lyrics$`). */
  readonly detail: string;
}

/** The references in a value: none, one that is the whole value, or some within a larger value. */
function referencesIn(value: Json | undefined): 'none' | 'whole' | 'inside' {
  if (value === undefined) return 'none';
  const sites = referenceSites('', value);
  if (sites.length === 0) return 'none';
  return sites.length === 1 && sites[0].whole && sites[0].at.length === 0 ? 'whole' : 'inside';
}

/** The reference a value is whole, if it is one. */
function wholeReference(value: Json | undefined): Reference | undefined {
  return referencesIn(value) === 'whole' ? referenceSites('', value!)[0].ref : undefined;
}

/** Equal values, whatever the order of an object's keys. */
const same = (a: Json | undefined, b: Json | undefined) =>
  a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b);

/**
 * A whole reference read by what it points at (`$var2.skyId$` as the producer's API and the path), so that
 * labels numbered otherwise do not count as a difference.
 */
function pointedAt(value: Json | undefined, steps: Sequence): Json | undefined {
  const ref = wholeReference(value);
  const producer = ref && steps.find((step) => step.label === ref.label);
  return producer ? `${producer.name}.${normalisePath(ref.path)}` : value;
}

/** The labels of the point's asks: a reference to one passes a value a person gives. */
function askLabels(point: Sequence): ReadonlySet<string> {
  return new Set(point.flatMap((step) => (step.name === ASK && step.label ? [step.label] : [])));
}

const asksFor = (value: Json | undefined, asks: ReadonlySet<string>) => {
  const ref = wholeReference(value);
  return ref !== undefined && ref.path.length === 0 && asks.has(ref.label);
};

/** The first difference between the gold and the gold-constrained point (`apis`: what the model may run). */
export function missReason(
  gold: Sequence,
  point: Sequence | undefined,
  apis: ReadonlySet<string> | undefined,
  catalog: Catalog,
): Miss {
  if (!point || !apis) return { reason: 'no model', detail: '' };
  const known = new Set(catalog.apis.map((api) => api.name));
  const calls = (steps: Sequence) => steps.filter((step) => !isPseudoStep(step) && known.has(step.name));
  const mine = calls(point);
  const used = new Set<Step>();
  const asks = askLabels(point);
  for (const step of calls(gold)) {
    for (const [param, value] of Object.entries(step.arguments))
      if (referencesIn(value) === 'inside')
        return { reason: 'reference inside a value', detail: `${step.name}(${param})` };
    const match = mine.find((m) => m.name === step.name && !used.has(m));
    if (!match)
      return { reason: apis.has(step.name) ? 'call not taken' : 'call not a candidate', detail: step.name };
    used.add(match);
    for (const [param, value] of Object.entries(step.arguments)) {
      const theirs = match.arguments[param];
      if (same(value, theirs) || same(pointedAt(value, gold), pointedAt(theirs, point))) continue;
      const reference = referencesIn(value) === 'whole';
      if (!reference && asksFor(theirs, asks)) continue;
      return {
        reason: reference ? 'link missing' : 'value missing',
        detail: `${step.name}(${param}=${JSON.stringify(value)}, not ${theirs === undefined ? 'passed' : JSON.stringify(theirs)})`,
      };
    }
  }
  return { reason: 'order or labels', detail: '' };
}
