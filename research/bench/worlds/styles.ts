/**
 * Four naming habits for the same world, so the repair model is measured on catalogs unlike NESTFUL's:
 *
 * - `snake`: `search_airport` returns a list `results[].id`; consumers take `origin_airport_id`.
 * - `ids`: `find_student_id` returns `student_id` (an integer) and `enroll_student` takes `student_id`:
 *   ids flow under one name, roles add a prefix (`from_account_id`).
 * - `descriptive`: outputs are phrases (`the_unique_identifier_of_the_airport`,
 *   `the_weather_forecast_for_city`), inputs are short (`origin`, `city`): names do not match at all.
 * - `camel`: vendor prefixes (`skySearchAirport`, `bankTransferFunds`), outputs under `data`
 *   (`data.airportId`), roles renamed (`fromAirportId`, `toAirportId` for origin/destination).
 */
import type { Json, PathSegment } from '../../../src/model/types.ts';
import type { ActionDef, EntityDef, FieldDef, LiteralType } from './types.ts';

export const STYLE_NAMES = ['snake', 'ids', 'descriptive', 'camel'] as const;
/**
 * Habits kept out of every shipped set, benchmark mix and catalog union, so that a fit on one measures what
 * a user's own data teaches a default that never saw it (benchmarks/results/transfer.md):
 *
 * - `terse`: abbreviated words with their vowels dropped (`srch_arprt`, `dprtr_date`), ids returned as `ref`
 *   in a list `hits[].ref` or under `res.ref`, consumers take `<entity>_ref` (`orgn_arprt_ref` for the origin).
 * - `pascal`: every name in PascalCase (`SearchAirport`, `DepartureDate`), ids returned as `Key` in a list
 *   `Items[].Key` or under `Result.Key`, consumers take `<Role><Entity>Key` (`OriginAirportKey`).
 */
export const HELD_OUT_STYLE_NAMES = ['terse', 'pascal'] as const;
export type StyleName = (typeof STYLE_NAMES)[number] | (typeof HELD_OUT_STYLE_NAMES)[number];

/** The `output_parameters` of an API and where its id and fields sit in the output. */
export interface RenderedOutputs {
  readonly outputs: Record<string, Json>;
  readonly key: readonly PathSegment[] | null;
  readonly fields: readonly (readonly PathSegment[])[];
}

export interface Style {
  readonly name: StyleName;
  readonly idType: 'string' | 'integer';
  lookupName(entity: EntityDef): string;
  actionName(action: ActionDef): string;
  param(words: readonly string[]): string;
  entityParam(entity: string, role?: string): string;
  /** Description of an entity parameter; some habits say where the id comes from, some do not. */
  entityParamAbout(entity: string, role?: string): string;
  lookupOutputs(entity: EntityDef): RenderedOutputs;
  actionOutputs(action: ActionDef): RenderedOutputs;
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const snake = (words: readonly string[]): string => words.join('_');
const pascal = (words: readonly string[]): string => words.map(cap).join('');
const camel = (words: readonly string[]): string => {
  const p = pascal(words);
  return p.charAt(0).toLowerCase() + p.slice(1);
};

function node(type: LiteralType | 'object' | 'array', description: string): Record<string, Json> {
  return { type, description };
}

const fieldAbout = (f: FieldDef, a: ActionDef) => `The ${f.words.join(' ')} (${a.about.toLowerCase()}).`;

/** Flat outputs: the id (when the API makes one) then the fields. */
function flat(
  key: { name: string; type: string; about: string } | null,
  fields: readonly { name: string; type: LiteralType; about: string }[],
): RenderedOutputs {
  const outputs: Record<string, Json> = {};
  if (key) outputs[key.name] = node(key.type as LiteralType, key.about);
  for (const f of fields) outputs[f.name] = node(f.type, f.about);
  return { outputs, key: key ? [key.name] : null, fields: fields.map((f) => [f.name]) };
}

/** The same outputs wrapped: under an object (`data.x`) or in a list (`results[].x`). */
function wrapped(inner: RenderedOutputs, under: string, list: boolean, about: string): RenderedOutputs {
  const object: Record<string, Json> = { type: 'object', properties: inner.outputs };
  const outputs: Record<string, Json> = {
    [under]: list ? { type: 'array', description: about, items: object } : { ...object, description: about },
  };
  const prefix: PathSegment[] = list ? [under, 0] : [under];
  return {
    outputs,
    key: inner.key ? [...prefix, ...inner.key] : null,
    fields: inner.fields.map((f) => [...prefix, ...f]),
  };
}

/** A word without its inner vowels and doubled letters, at most five letters (`airport` → `arprt`). */
function abbreviate(word: string): string {
  if (word.length <= 4) return word;
  const rest = word
    .slice(1)
    .replace(/[aeiou]/g, '')
    .replace(/(.)\1+/g, '$1');
  return (word[0] + rest).slice(0, 5);
}
const terse = (words: readonly string[]): string => snake(words.map(abbreviate));

const ROLE_SYNONYMS: Readonly<Record<string, string>> = { origin: 'from', destination: 'to' };

function style(
  name: StyleName,
  spec: Omit<Style, 'name' | 'lookupOutputs' | 'actionOutputs'> & {
    readonly keyName: (entity: string) => string;
    readonly extraName: (entity: string, words: readonly string[]) => string;
    readonly fieldName: (f: FieldDef, a: ActionDef) => string;
    readonly wrap?: { readonly lookup?: [string, boolean]; readonly action?: [string, boolean] };
  },
): Style {
  const keyOf = (entity: string) => ({
    name: spec.keyName(entity),
    type: spec.idType,
    about: `The unique identifier of the ${entity}.`,
  });
  const wrap = (out: RenderedOutputs, how: [string, boolean] | undefined, about: string) =>
    how ? wrapped(out, how[0], how[1], about) : out;
  return {
    name,
    ...spec,
    lookupOutputs: (e) =>
      wrap(
        flat(
          keyOf(e.name),
          e.extras.map((w) => ({
            name: spec.extraName(e.name, w),
            type: 'string',
            about: `The ${w.join(' ')} of the ${e.name}.`,
          })),
        ),
        spec.wrap?.lookup,
        `The matching ${e.name}s.`,
      ),
    actionOutputs: (a) =>
      wrap(
        flat(
          a.produces ? keyOf(a.produces) : null,
          a.fields.map((f) => ({ name: spec.fieldName(f, a), type: f.type, about: fieldAbout(f, a) })),
        ),
        spec.wrap?.action,
        `${a.about}: the result.`,
      ),
  };
}

export const STYLES: Readonly<Record<StyleName, Style>> = {
  snake: style('snake', {
    idType: 'string',
    lookupName: (e) => snake([e.lookup!.verb, e.name]),
    actionName: (a) => snake(a.words),
    param: snake,
    entityParam: (entity, role) => snake([...(role ? [role] : []), entity, 'id']),
    entityParamAbout: (entity, role) =>
      `The id of the ${role ? `${role} ` : ''}${entity}, from search_${entity}.`,
    keyName: () => 'id',
    extraName: (_, w) => snake(w),
    fieldName: (f) => snake(f.words),
    wrap: { lookup: ['results', true] },
  }),
  ids: style('ids', {
    idType: 'integer',
    lookupName: (e) => snake(['find', e.name, 'id']),
    actionName: (a) => snake(a.words),
    param: snake,
    entityParam: (entity, role) => snake([...(role ? [role] : []), entity, 'id']),
    entityParamAbout: (entity, role) => `${role ? `${cap(role)} ${entity}` : cap(entity)} id.`,
    keyName: (entity) => snake([entity, 'id']),
    extraName: (entity, w) => snake([entity, ...w]),
    fieldName: (f) => snake(f.words),
  }),
  descriptive: style('descriptive', {
    idType: 'string',
    lookupName: (e) => [e.lookup!.verb, e.name].map(cap).join('_'),
    actionName: (a) => a.words.map(cap).join('_'),
    param: snake,
    entityParam: (entity, role) => role ?? entity,
    entityParamAbout: (entity, role) => `Which ${entity}${role ? ` (${role})` : ''}.`,
    keyName: (entity) => `the_unique_identifier_of_the_${entity}`,
    extraName: (entity, w) => `the_${snake(w)}_of_the_${entity}`,
    fieldName: (f, a) => `the_${snake(f.words)}_for_${a.inputs[0]?.entity ?? 'request'}`,
  }),
  camel: style('camel', {
    idType: 'string',
    lookupName: (e) => camel([e.domain, e.lookup!.verb, e.name]),
    actionName: (a) => camel([a.domain, ...a.words]),
    param: camel,
    entityParam: (entity, role) => camel([...(role ? [ROLE_SYNONYMS[role] ?? role] : []), entity, 'id']),
    entityParamAbout: (entity, role) =>
      `The ${role ? `${ROLE_SYNONYMS[role] ?? role} ` : ''}${entity} id, as returned by the ${entity} search.`,
    keyName: (entity) => camel([entity, 'id']),
    extraName: (_, w) => camel(w),
    fieldName: (f) => camel(f.words),
    wrap: { lookup: ['data', false], action: ['data', false] },
  }),
  terse: style('terse', {
    idType: 'string',
    lookupName: (e) => terse([e.lookup!.verb, e.name]),
    actionName: (a) => terse(a.words),
    param: terse,
    entityParam: (entity, role) => terse([...(role ? [role] : []), entity, 'ref']),
    entityParamAbout: (entity, role) => `Ref. of the ${role ? `${role} ` : ''}${entity}.`,
    keyName: () => 'ref',
    extraName: (_, w) => terse(w),
    fieldName: (f) => terse(f.words),
    wrap: { lookup: ['hits', true], action: ['res', false] },
  }),
  pascal: style('pascal', {
    idType: 'string',
    lookupName: (e) => pascal([e.lookup!.verb, e.name]),
    actionName: (a) => pascal(a.words),
    param: pascal,
    entityParam: (entity, role) => pascal([...(role ? [role] : []), entity, 'key']),
    entityParamAbout: (entity, role) => `Key of the ${role ? `${role} ` : ''}${entity}.`,
    keyName: () => 'Key',
    extraName: (_, w) => pascal(w),
    fieldName: (f) => pascal(f.words),
    wrap: { lookup: ['Items', true], action: ['Result', false] },
  }),
};
