/**
 * Why the model does not hold a gold (candidate coverage's misses): the gold-constrained point read against the
 * gold, call by call and argument by argument, the first difference named. The point is the closest the model
 * comes to the gold (every decision the gold contradicts costs `GOLD_PENALTY`), so what it lacks is what the
 * candidates lack: an API no call may run, a link or a value no source offers, a value no edit kind writes.
 */
import { ASK, isPseudoStep } from '../../src/model/constants.ts';
import type { Catalog, Json, Sequence, Step } from '../../src/model/types.ts';

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

const REFERENCE = /\$[^$]+\$/;
const WHOLE_REFERENCE = /^\$[^$]+\$$/;

function holdsReference(value: Json): boolean {
  if (typeof value === 'string') return REFERENCE.test(value);
  if (Array.isArray(value)) return value.some(holdsReference);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsReference);
  return false;
}

/** A reference within a larger value: a template, or an element of an array or object. */
function embedsReference(value: Json): boolean {
  return typeof value === 'string'
    ? REFERENCE.test(value) && !WHOLE_REFERENCE.test(value)
    : holdsReference(value);
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A whole reference read by what it points at (`$var2.skyId$` as the producer's API and the path), so that
 * labels numbered otherwise do not count as a difference.
 */
function pointedAt(value: Json | undefined, steps: Sequence): Json | undefined {
  if (typeof value !== 'string' || !WHOLE_REFERENCE.test(value)) return value;
  const [label, ...path] = value.slice(1, -1).split('.');
  const producer = steps.find((step) => step.label === label);
  return producer ? [producer.name, ...path].join('.') : value;
}

/** The labels of the point's asks: a reference to one passes a value a person gives. */
function askLabels(point: Sequence): ReadonlySet<string> {
  return new Set(point.flatMap((step) => (step.name === ASK && step.label ? [step.label] : [])));
}

const asksFor = (value: Json | undefined, asks: ReadonlySet<string>) =>
  typeof value === 'string' && WHOLE_REFERENCE.test(value) && asks.has(value.slice(1, -1));

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
      if (embedsReference(value))
        return { reason: 'reference inside a value', detail: `${step.name}(${param})` };
    const match = mine.find((m) => m.name === step.name && !used.has(m));
    if (!match)
      return { reason: apis.has(step.name) ? 'call not taken' : 'call not a candidate', detail: step.name };
    used.add(match);
    for (const [param, value] of Object.entries(step.arguments)) {
      const theirs = match.arguments[param];
      if (same(value, theirs) || same(pointedAt(value, gold), pointedAt(theirs, point))) continue;
      const reference = typeof value === 'string' && WHOLE_REFERENCE.test(value);
      if (!reference && asksFor(theirs, asks)) continue;
      return {
        reason: reference ? 'link missing' : 'value missing',
        detail: `${step.name}(${param}=${JSON.stringify(value)}, not ${theirs === undefined ? 'passed' : JSON.stringify(theirs)})`,
      };
    }
  }
  return { reason: 'order or labels', detail: '' };
}
