/**
 * Distractor APIs for the large-catalog worlds: seeded NESTFUL spec entries in domains far from the shipped
 * catalogs, in four naming habits (`snake`: `get_tooth_history`; `camel`: `getToothHistory`; `title`:
 * `Get_Tooth_History`; `dotted`: `Dental.GetToothHistory`), whose parameters and outputs mix the domain's
 * own names (`pain_level`, `fruit_production`) with the names every domain reuses (`id`, `status`,
 * `patient_id`, `potential`, and the names the shipped catalogs use most). API `k` of a world draws from
 * seed `distractor/seed/k`, so the first 1,000 distractors of the 5,000-API world are those of the
 * 1,000-API world.
 */
import type { Json } from '../../../src/model/types.ts';
import { choose, hashSeed, mulberry32, shuffled, type Rng } from '../../../src/model/prng.ts';
import {
  DISTRACTOR_DOMAINS,
  DISTRACTOR_QUALIFIERS,
  DISTRACTOR_VERBS,
  type DistractorDomain,
} from './distractor-vocabulary.ts';

export const DISTRACTOR_STYLES = ['snake', 'camel', 'title', 'dotted'] as const;
export type DistractorStyle = (typeof DISTRACTOR_STYLES)[number];

const words = (text: string) => text.split(/[ _]+/).filter(Boolean);
const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
const snake = (ws: readonly string[]) => ws.join('_');
const camel = (ws: readonly string[]) => ws.map((w, i) => (i === 0 ? w : cap(w))).join('');

/** An API name in a style. */
function apiName(style: DistractorStyle, d: DistractorDomain, ws: readonly string[]): string {
  switch (style) {
    case 'snake':
      return snake(ws);
    case 'camel':
      return camel(ws);
    case 'title':
      return ws.map(cap).join('_');
    case 'dotted':
      return `${d.vendor}.${ws.map(cap).join('')}`;
  }
}

/** A parameter or field name in a style: camelCase for `camel`, else snake_case as written. */
const fieldName = (style: DistractorStyle, name: string) => (style === 'camel' ? camel(words(name)) : name);

interface Named {
  readonly name: string;
  readonly type: string;
}

function parse(entry: string): Named {
  const [name, type] = entry.split(':');
  return { name, type };
}

function about(name: string, noun: string): string {
  const w = words(name).join(' ');
  if (name === 'id') return `The unique identifier of the ${noun}.`;
  if (name.endsWith('_id')) return `The ${w.replace(/ id$/, '')} id.`;
  return `The ${w} of the ${noun}.`;
}

/**
 * `n` distinct names: the first always one every domain shares (`common`), the others shared or the
 * domain's own.
 */
function drawNames(rng: Rng, d: DistractorDomain, common: readonly string[], n: number): Named[] {
  const first = parse(choose(rng, common));
  const out = new Map<string, Named>([[first.name, first]]);
  const pool = [...common.map(parse), ...d.own.map(parse)];
  for (let t = 0; out.size < n && t < n * 6; t++) {
    const pick = rng() < 0.65 ? choose(rng, common.map(parse)) : choose(rng, d.own.map(parse));
    out.set(pick.name, pick);
  }
  for (const p of pool) if (out.size < n) out.set(p.name, p);
  return [...out.values()];
}

const param = (type: string, description: string, required: boolean): Json => ({
  type,
  description,
  required,
});

/**
 * The spec entry of distractor `k`, named `name` (the caller makes names unique). `common` is the list of
 * shared names, `name:type`.
 */
function distractorSpec(
  rng: Rng,
  style: DistractorStyle,
  d: DistractorDomain,
  noun: string,
  verb: string,
  name: string,
  common: readonly string[],
): Json {
  const nounName = snake(words(noun));
  const inputs = drawNames(rng, d, common, 1 + Math.floor(rng() * 3));
  // Most distractors take an id of their own noun (`tooth_id`), as lookups and actions do.
  if (rng() < 0.5) inputs.unshift({ name: `${nounName}_id`, type: 'string' });
  const params: Record<string, Json> = {};
  inputs.forEach((p, i) => {
    const key = fieldName(style, p.name);
    if (!(key in params))
      params[key] = param(p.type, about(p.name, words(noun).join(' ')), i === 0 || rng() < 0.4);
  });
  const fields = drawNames(rng, d, common, 2 + Math.floor(rng() * 4));
  const props: Record<string, Json> = {};
  for (const f of fields) {
    props[fieldName(style, f.name)] = { type: f.type, description: about(f.name, words(noun).join(' ')) };
  }
  // A quarter wrap their fields in an object, as many real APIs do (`data.status`).
  const outputs: Record<string, Json> =
    rng() < 0.25
      ? { data: { type: 'object', properties: props, description: `The ${words(noun).join(' ')} found.` } }
      : props;
  return {
    name,
    description: `${cap(verb)} ${words(noun).join(' ')} ${d.name} records.`,
    query_parameters: params,
    output_parameters: outputs,
  };
}

/**
 * `count` distractor spec entries whose names differ from each other and from `taken`; `common` is the
 * list of names every domain reuses (`name:type`: `COMMON_NAMES` and the shipped catalogs' most used).
 */
export function distractorSpecs(
  count: number,
  seed: number,
  taken: ReadonlySet<string>,
  common: readonly string[],
): Json[] {
  const names = new Set(taken);
  const out: Json[] = [];
  for (let k = 0; out.length < count; k++) {
    const rng = mulberry32(hashSeed(`distractor/${seed}/${k}`));
    const d = DISTRACTOR_DOMAINS[k % DISTRACTOR_DOMAINS.length];
    const style = choose(rng, DISTRACTOR_STYLES);
    const noun = choose(rng, d.nouns);
    const verb = choose(rng, DISTRACTOR_VERBS);
    let name = '';
    for (const qualifier of ['', ...shuffled(rng, DISTRACTOR_QUALIFIERS)]) {
      name = apiName(style, d, [verb, ...words(noun), ...words(qualifier)]);
      if (!names.has(name)) break;
    }
    for (let n = 2; names.has(name); n++) name = apiName(style, d, [verb, ...words(noun), 'v', String(n)]);
    names.add(name);
    out.push(distractorSpec(rng, style, d, noun, verb, name, common));
  }
  return out;
}
