/**
 * The second corruption recipe: mistakes that break the data flow of a plan, written apart from the first
 * recipe (`mistakes.ts`) so that the benchmark does not only measure one author's idea of a mistake.
 * Each mistake takes a step list and returns the corrupted copy with a one-line note of what it did, or
 * null when the plan offers no place for it.
 *
 * - `deleted_step`: a call whose output a later call reads by field is gone (the field names are the
 *   evidence of which API it was).
 * - `wrong_field`: a reference reads a field its producer does not output: a generic name (`id`,
 *   `result`), a field another API of the catalog outputs, or a renamed variant of the right one (other
 *   case style, the consuming parameter's name, a prefix dropped or added, a plural).
 * - `missing_ref_param`: a required parameter whose value was a reference is left out.
 * - `missing_producer` (drawn on its own, never in a pair): a lookup is left out with the arguments it fed,
 *   as a planner that never thought of it writes the plan. Every argument it fed was a required parameter
 *   whose name shares a word with the field it read (`geoId` from `$var1.geoId$`: the parameter names what
 *   the lost call gave), and the answer did not show the lookup (its entries for it are left out of the
 *   gold too). The repair must put the lookup in: the only kind whose gold has a call the input lacks and
 *   no reference names.
 */
import type { ApiSpec, Json, PathSegment } from '../../src/model/types.ts';
import type { NestfulStep } from '../../src/read/sequence.ts';
import { findReferences, formatReference, referenceSites } from '../../src/read/references.ts';
import { apiProvides } from '../../src/validate/outputs.ts';
import { choose, shuffled, type Rng } from '../../src/model/prng.ts';
import { shareAWord } from '../../src/catalog/evidence.ts';
import { nameVariants, splitName } from './flow-names.ts';

export const FLOW_KINDS = ['deleted_step', 'wrong_field', 'missing_ref_param'] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];
/** The kind drawn on its own only, after the others (so their records stay as they were). */
export const PRODUCER_KIND = 'missing_producer';
/** Every single-mistake kind of the recipe, in table order. */
export const SINGLE_FLOW_KINDS: readonly string[] = [...FLOW_KINDS, PRODUCER_KIND];

export interface FlowContext {
  readonly apis: ReadonlyMap<string, ApiSpec>;
  readonly resultName: string;
  /** Leaf output names of every API of the catalog, by API. */
  readonly leaves: ReadonlyMap<string, readonly string[]>;
}

export interface Corruption {
  readonly steps: NestfulStep[];
  readonly note: string;
}

type FlowMistake = (rng: Rng, steps: readonly NestfulStep[], ctx: FlowContext) => Corruption | null;

/** A reference inside a step's arguments, with the step that defines its label. */
interface Site {
  readonly step: number;
  readonly param: string;
  readonly at: readonly PathSegment[];
  readonly raw: string;
  readonly label: string;
  readonly path: readonly PathSegment[];
  readonly producer: number | null;
  /** The reference is the argument's whole value. */
  readonly whole: boolean;
}

function sites(steps: readonly NestfulStep[]): Site[] {
  return steps.flatMap((step, i) =>
    Object.entries(step.arguments).flatMap(([param, value]) =>
      referenceSites(param, value).map((s) => {
        let producer: number | null = null;
        for (let j = i - 1; j >= 0 && producer === null; j--)
          if (steps[j].label === s.ref.label) producer = j;
        const { at, whole } = s;
        return { step: i, param, at, raw: s.ref.raw, label: s.ref.label, path: s.ref.path, producer, whole };
      }),
    ),
  );
}

function copy(steps: readonly NestfulStep[]): NestfulStep[] {
  return JSON.parse(JSON.stringify(steps)) as NestfulStep[];
}

/** Replaces the text `from` by `to` in the argument value of `param` at JSON path `at`. */
function replaceAt(value: Json, at: readonly PathSegment[], from: string, to: string): Json {
  if (at.length === 0) return typeof value === 'string' ? value.replace(from, to) : value;
  const [head, ...rest] = at;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, from, to) : v));
  const obj = value as Record<string, Json>;
  return { ...obj, [head]: replaceAt(obj[head as string], rest, from, to) };
}

const deletedStep: FlowMistake = (rng, steps) => {
  const read = new Set(
    sites(steps)
      .filter((s) => s.producer !== null && s.path.length > 0)
      .map((s) => s.producer!),
  );
  if (read.size === 0) return null;
  const i = choose(
    rng,
    [...read].sort((a, b) => a - b),
  );
  return {
    steps: copy(steps.filter((_, j) => j !== i)),
    note: `deleted ${steps[i].label} = ${steps[i].name}(…)`,
  };
};

/** Words too common to tie two field names together. */
const WEAK_WORDS = new Set([
  'id',
  'name',
  'the',
  'of',
  'for',
  'data',
  'type',
  'value',
  'info',
  'code',
  'url',
]);

/** Generic names planners reach for when they do not know the field. */
const GENERIC = ['id', 'result', 'data', 'value', 'name', 'output', 'results', 'items', 'response'];

/** Wrong names for `field` (the last key of a path read from `producer`), by kind. */
function wrongNames(
  field: string,
  param: string,
  producer: string,
  ctx: FlowContext,
): { kind: string; names: string[] }[] {
  const own = new Set(ctx.leaves.get(producer) ?? []);
  const words = splitName(field);
  const others = [...ctx.leaves]
    .filter(([api]) => api !== producer)
    .flatMap(([, names]) => names)
    .filter((n) => !own.has(n) && n !== field);
  // Fields of other APIs that share a telling word with the right one (`hotel_name` / `dentist_name`
  // share only a weak one; `skyId` / `entityId` likewise): what a planner mixing up two APIs writes.
  // Those that also end in the same word go first; failing all, fields that end in the same word.
  const telling = new Set(words.filter((w) => !WEAK_WORDS.has(w)));
  const sameEnd = (n: string) => splitName(n).at(-1) === words.at(-1);
  const related = others.filter((n) => splitName(n).some((w) => telling.has(w)));
  let siblings = related.filter(sameEnd);
  if (siblings.length === 0) siblings = related;
  if (siblings.length === 0) siblings = others.filter(sameEnd);
  return [
    { kind: 'generic', names: GENERIC.filter((n) => n !== field) },
    { kind: 'sibling', names: [...new Set(siblings)].sort() },
    { kind: 'variant', names: nameVariants(field, param).filter((n) => n !== field) },
  ];
}

const wrongField: FlowMistake = (rng, steps, ctx) => {
  const candidates = sites(steps).filter((s) => {
    if (s.producer === null || s.path.length === 0 || typeof s.path.at(-1) !== 'string') return false;
    const api = ctx.apis.get(steps[s.producer].name);
    return api !== undefined && api.outputs !== null;
  });
  for (const site of shuffled(rng, candidates)) {
    const producer = steps[site.producer!].name;
    const api = ctx.apis.get(producer)!;
    const field = site.path.at(-1) as string;
    const options = wrongNames(field, site.param, producer, ctx)
      .map(({ kind, names }) => ({
        kind,
        // The wrong path must be one the producer does not output.
        names: names.filter((n) => apiProvides(api, [...site.path.slice(0, -1), n]) === 'no'),
      }))
      .filter((o) => o.names.length > 0);
    if (options.length === 0) continue;
    const { kind, names } = choose(rng, options);
    const name = choose(rng, names);
    const raw = formatReference(site.label, [...site.path.slice(0, -1), name]);
    const out = copy(steps);
    out[site.step].arguments[site.param] = replaceAt(
      out[site.step].arguments[site.param],
      site.at,
      site.raw,
      raw,
    );
    return { steps: out, note: `${site.raw} -> ${raw} (${kind})` };
  }
  return null;
};

const missingRefParam: FlowMistake = (rng, steps, ctx) => {
  const candidates = steps.flatMap((step, i) => {
    const api = ctx.apis.get(step.name);
    if (!api || step.name === ctx.resultName) return [];
    return api.params
      .filter((p) => p.required && Object.prototype.hasOwnProperty.call(step.arguments, p.name))
      .filter((p) => hasReference(step.arguments[p.name]))
      .map((p) => ({ i, param: p.name }));
  });
  if (candidates.length === 0) return null;
  const { i, param } = choose(rng, candidates);
  const out = copy(steps);
  const value = out[i].arguments[param];
  delete out[i].arguments[param];
  return {
    steps: out,
    note: `dropped ${param}=${JSON.stringify(value)} from ${steps[i].label ?? steps[i].name}`,
  };
};

/** Whether a call's argument read from another call names what it read (see `missing_producer`). */
function namesWhatItReads(site: Site, steps: readonly NestfulStep[], ctx: FlowContext): boolean {
  const param = ctx.apis.get(steps[site.step].name)?.params.find((p) => p.name === site.param);
  const leaf = site.path.filter((s): s is string => typeof s === 'string').at(-1);
  return site.whole && param?.required === true && leaf !== undefined && shareAWord(leaf, site.param);
}

/** A lookup left out with the arguments it fed; the gold is the plan without the answer's entries for it. */
export function missingProducer(
  rng: Rng,
  steps: readonly NestfulStep[],
  ctx: FlowContext,
): (Corruption & { readonly gold: NestfulStep[] }) | null {
  const all = sites(steps);
  const answer = steps.findIndex((s) => s.name === ctx.resultName);
  const candidates = steps.flatMap((step, i) => {
    if (!step.label || i === answer) return [];
    const reads = all.filter((s) => s.producer === i);
    const fed = reads.filter((s) => s.step !== answer);
    if (fed.length === 0 || !fed.every((s) => namesWhatItReads(s, steps, ctx))) return [];
    const shown = reads.filter((s) => s.step === answer);
    if (shown.some((s) => !s.whole || s.at.length > 0)) return [];
    // The answer must keep an entry of its own.
    if (answer >= 0 && new Set(shown.map((s) => s.param)).size >= Object.keys(steps[answer].arguments).length)
      return [];
    return [{ i, fed, shown }];
  });
  if (candidates.length === 0) return null;
  const { i, fed, shown } = choose(rng, candidates);
  const gold = copy(steps);
  for (const s of shown) delete gold[s.step].arguments[s.param];
  const out = copy(gold);
  for (const s of fed) delete out[s.step].arguments[s.param];
  return {
    gold,
    steps: out.filter((_, j) => j !== i),
    note: `left out ${steps[i].label} = ${steps[i].name}(…) and ${fed.map((s) => s.param).join(', ')}`,
  };
}

function hasReference(value: Json): boolean {
  if (typeof value === 'string') return findReferences(value).length > 0;
  if (Array.isArray(value)) return value.some(hasReference);
  if (value !== null && typeof value === 'object')
    return Object.values(value).some((v) => hasReference(v as Json));
  return false;
}

export const FLOW_MISTAKES: Readonly<Record<FlowKind, FlowMistake>> = {
  deleted_step: deletedStep,
  wrong_field: wrongField,
  missing_ref_param: missingRefParam,
};
