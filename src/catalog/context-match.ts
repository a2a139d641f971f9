/**
 * Names in context: whether an API's output field is what a parameter of another name asks for, judged by
 * the words of both. A parameter often names the entity and then the field: `artist_id` is the `id` of an
 * artist, `destinationEntityId` the `entityId` of a destination, `to_account_id` the `id` of the account
 * (to). When the parameter's words end with the field's, the rest must name the entity: either the field
 * is itself a compound name (`entityId`), or the producing API (`search_artist`), the field's parent
 * (`artist.id`) or the field's description ("the unique identifier of the artist") names what is left,
 * its first word aside when it is a role (`to`, `origin`). Word lists are computed once per API and
 * answers kept in bounded memos.
 */
import type { ApiSpec, Catalog, OutputField, ParamSpec } from '../model/types.ts';
import { boundedMemo, perObject } from '../model/memo.ts';
import { leafOf } from './catalog-index.ts';
import { nameTerms, textTerms } from './text.ts';
import { apisOutputting, leavesByWords } from './name-terms.ts';
import { ID_WORDS, namesAnId } from './names.ts';

/**
 * The kinds of context evidence, strongest first: a compound field name that ends the parameter's
 * (`entityId` in `originEntityId`), a one-word field whose producer names the parameter's entity (`id` of
 * search_artist for `artist_id`), the identifier field of the entity the parameter's description names
 * ("Which airport"). How much each is worth is the cost model's (`compoundSuffix`, `entitySuffix`,
 * `describedId` evidence scores).
 */
export type ContextKind = 'compound' | 'entity' | 'described';

/** A field that stands for a parameter in context, and by what evidence. */
export interface ContextField {
  readonly field: OutputField;
  readonly kind: ContextKind;
}

const STRENGTH: Readonly<Record<ContextKind, number>> = { compound: 0, entity: 1, described: 2 };

/** Words that name an identifier field: those of an id, and the keys and codes systems look things up by. */
const IDENTIFYING = new Set([...ID_WORDS, 'key', 'code']);
const termsOf = boundedMemo('contextTerms', { max: 50_000, maxBytes: 8 * 1024 * 1024, maxKey: 512 }, (name) =>
  nameTerms(name).join(' '),
);
const terms = (name: string): string[] => {
  const t = termsOf(name);
  return t === '' ? [] : t.split(' ');
};

interface FieldWords {
  readonly field: OutputField;
  readonly leaf: string;
  readonly words: readonly string[];
  /** The API's name, the field's parents and its description, as words. */
  readonly evidence: readonly string[];
}

const wordsOf = perObject((api: ApiSpec): readonly FieldWords[] => {
  const apiWords = nameTerms(api.name);
  return (api.outputs ?? []).map((field) => {
    const leaf = leafOf(field.path);
    const parents = field.path.replace(/\[\]/g, '').split('.').slice(0, -1).join(' ');
    return {
      field,
      leaf,
      words: terms(leaf),
      evidence: [...apiWords, ...textTerms(parents), ...textTerms(field.description)],
    };
  });
});

/** Two words name the same thing: equal, or one a prefix of the other (`enroll`, `enrollment`). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  return Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a));
}

function matchWords(param: string, p: readonly string[], f: FieldWords): ContextKind | undefined {
  if (f.leaf === param) return undefined;
  const n = f.words.length;
  if (n === 0 || n >= p.length) return undefined;
  if (!f.words.every((w, i) => w === p[p.length - n + i])) return undefined;
  if (n >= 2) return 'compound';
  const rest = p.slice(0, p.length - n);
  const entity = rest.length >= 2 ? rest.slice(1) : rest;
  return entity.every((w) => f.evidence.some((e) => sameWord(w, e))) ? 'entity' : undefined;
}

/**
 * Whether field `field` of `api` stands for parameter `param` of another name by its name, and how: a
 * compound field name ending the parameter's, or a one-word one whose entity the API names.
 */
export function contextMatch(param: string, api: ApiSpec, field: OutputField): ContextKind | undefined {
  const f = wordsOf(api).find((x) => x.field === field);
  return f ? matchWords(param, terms(param), f) : undefined;
}

/** Strongest evidence first, then by path. */
const byStrength = (a: ContextField, b: ContextField) =>
  STRENGTH[a.kind] - STRENGTH[b.kind] || (a.field.path < b.field.path ? -1 : 1);

const answers = new WeakMap<ApiSpec, Map<string, ContextField[]>>();
/** Parameters remembered per API; the memo starts over beyond this. */
const PER_API = 2_000;

/**
 * The entity a parameter stands for: the one its description names beyond the parameter's own words
 * ("Which airport (origin)." for `origin`: `airport`), or the parameter's own words (`customer`); empty
 * when the description says too much (three words or more: a sentence, not a name).
 */
function describedEntity(param: ParamSpec): string[] {
  const own = new Set(terms(param.name));
  const described = textTerms(param.description);
  const extra = [...new Set(described)].filter((w) => !own.has(w));
  // A parameter named after an entity (`customer`) takes that entity's identifier, unless its description
  // names another one ("Which airport (origin).").
  const rest = extra.length > 0 ? extra : [...own].slice(0, 2);
  if (rest.length === 0 || rest.length > 2) return [];
  // "The address of the place" describes an attribute of a place, not a place: unless it says it is an
  // identifier of it, a parameter "of" its entity does not take the entity's id.
  const of = /\bof\s+(?:the\s+|a\s+|an\s+)?([a-z]+)/i.exec(param.description ?? '');
  const attribute = of !== null && rest.some((w) => sameWord(w, textTerms(of[1])[0] ?? ''));
  return attribute && !described.some((w) => IDENTIFYING.has(w)) ? [] : rest;
}

/**
 * Two parameters in parallel roles by their descriptions: each names the same entity beyond its own words
 * ("Which place (start)." and "Which place (end)."), under different names.
 */
export function describedAlike(a: ParamSpec, b: ParamSpec): boolean {
  if (a.name === b.name) return false;
  const x = describedExtra(a);
  return x !== '' && x === describedExtra(b) && x.split(' ').length <= 2;
}

/** The words of a parameter's description beyond its name's, once per parameter of a catalog. */
const extras = new WeakMap<ParamSpec, string>();

function describedExtra(p: ParamSpec): string {
  let out = extras.get(p);
  if (out === undefined) {
    const own = new Set(terms(p.name));
    out = [...new Set(textTerms(p.description))].filter((w) => !own.has(w)).join(' ');
    extras.set(p, out);
  }
  return out;
}

/**
 * Whether an output field is an identifier: its name names one (`geoId`), or its description says it is one
 * ("The unique identifier of the city." for `ref`), whatever words the catalog's habit names ids with.
 */
export const describesAnId = perObject(
  (field: OutputField): boolean =>
    namesAnId(leafOf(field.path)) || textTerms(field.description ?? '').some((w) => IDENTIFYING.has(w)),
);

/** An identifier field naming every word of `entity` (`the_unique_identifier_of_the_airport`). */
function identifies(f: FieldWords, entity: readonly string[]): boolean {
  return (
    entity.length > 0 &&
    f.words.some((w) => IDENTIFYING.has(w)) &&
    entity.every((w) => f.words.some((x) => sameWord(w, x)))
  );
}

/**
 * The fields of `api` that stand for parameter `param` in context, best first (ties by path): by name
 * (see `contextMatch`), or, for a declared parameter whose description names an entity, the identifier
 * field of that entity.
 */
export function contextFields(param: string | ParamSpec, api: ApiSpec): readonly ContextField[] {
  if (typeof param === 'string') return contextFieldsByName(param, api);
  // Both sides belong to a catalog: the answer is kept as long as they are (read-only for callers).
  let memo = specAnswers.get(param);
  if (!memo) specAnswers.set(param, (memo = new WeakMap()));
  let out = memo.get(api);
  if (!out) {
    out = specContextFields(param, api);
    memo.set(api, out);
  }
  return out;
}

const specAnswers = new WeakMap<ParamSpec, WeakMap<ApiSpec, ContextField[]>>();
const entities = new WeakMap<ParamSpec, string[]>();

function specContextFields(param: ParamSpec, api: ApiSpec): ContextField[] {
  let entity = entities.get(param);
  if (!entity) entities.set(param, (entity = describedEntity(param)));
  const byName = contextFieldsByName(param.name, api);
  if (entity.length === 0) return byName;
  const known = new Set(byName.map((c) => c.field));
  const described = wordsOf(api)
    .filter((f) => !known.has(f.field) && f.leaf !== param.name && identifies(f, entity))
    .map((f): ContextField => ({ field: f.field, kind: 'described' }));
  return [...byName, ...described].sort(byStrength);
}

/** The fields of `api` that stand for `param` by name in context, best first (ties by path). */
function contextFieldsByName(param: string, api: ApiSpec): ContextField[] {
  let memo = answers.get(api);
  if (!memo) answers.set(api, (memo = new Map()));
  let out = memo.get(param);
  if (!out) {
    const p = terms(param);
    out = [];
    for (const f of wordsOf(api)) {
      const kind = matchWords(param, p, f);
      if (kind !== undefined) out.push({ field: f.field, kind });
    }
    out.sort(byStrength);
    if (memo.size >= PER_API) memo.clear();
    memo.set(param, out);
  }
  return out;
}

const producersMemo = new WeakMap<Catalog, Map<string, readonly ApiSpec[]>>();
/** Parameters remembered per catalog; the memo starts over beyond this. */
const PER_CATALOG = 20_000;

/**
 * The APIs of `catalog` with a field that stands for `param` by name in context (`search_artist` for
 * `artist_id`), found through the words that end the parameter's name.
 */
export function contextProducers(catalog: Catalog, param: string): readonly ApiSpec[] {
  let memo = producersMemo.get(catalog);
  if (!memo) producersMemo.set(catalog, (memo = new Map()));
  let out = memo.get(param);
  if (!out) {
    const p = terms(param);
    const found: ApiSpec[] = [];
    for (let k = 1; k < p.length; k++) {
      for (const api of apisOutputting(catalog, p.slice(p.length - k).join(' '))) {
        if (!found.includes(api) && contextFieldsByName(param, api).length > 0) found.push(api);
      }
    }
    if (memo.size >= PER_CATALOG) memo.clear();
    memo.set(param, (out = found));
  }
  return out;
}

const describedMemo = new WeakMap<ParamSpec, readonly ApiSpec[]>();

/**
 * Two words are the same (`sameWord`) only if equal or one is a prefix of the other of four letters or more:
 * either way they share their first four letters (or are equal and shorter), the key of this index.
 */
const wordKey4 = (w: string) => (w.length >= 4 ? w.slice(0, 4) : w);

interface IdentifierIndex {
  /** The APIs (catalog order) with an identifier field holding a word that may be `word`. */
  lookup(word: string): ApiSpec[];
}

const identifierIndexes = new WeakMap<Catalog, IdentifierIndex>();

/** Per catalog: the APIs with an identifier field, by the four-letter keys of that field's words. */
function identifierIndex(catalog: Catalog): IdentifierIndex {
  let index = identifierIndexes.get(catalog);
  if (!index) {
    // The fields' own words only (the evidence of `wordsOf` is read for the few APIs a lookup returns).
    const keysOf = new Map<ApiSpec, Set<string>>();
    for (const [leaf, apis] of leavesByWords(catalog)) {
      const words = leaf.split(' ');
      if (!words.some((w) => IDENTIFYING.has(w))) continue;
      for (const api of apis) {
        let keys = keysOf.get(api);
        if (!keys) keysOf.set(api, (keys = new Set()));
        for (const w of words) keys.add(wordKey4(w));
      }
    }
    const byKey = new Map<string, number[]>();
    catalog.apis.forEach((api, k) => {
      for (const key of keysOf.get(api) ?? []) {
        const list = byKey.get(key);
        if (list) list.push(k);
        else byKey.set(key, [k]);
      }
    });
    index = {
      lookup: (word) => {
        const short = word.length < 4;
        const list = short ? (byKey.get(word) ?? []) : (byKey.get(wordKey4(word)) ?? []);
        return list.map((k) => catalog.apis[k]);
      },
    };
    identifierIndexes.set(catalog, index);
  }
  return index;
}

/**
 * The APIs of `catalog` that output the identifier of the entity the declared parameter's description names
 * ("Which stock (first)." : those with `the_unique_identifier_of_the_stock`), other than APIs that take a
 * parameter of its name; none when the description names no entity.
 */
export function describedProducers(catalog: Catalog, param: ParamSpec): readonly ApiSpec[] {
  let out = describedMemo.get(param);
  if (!out) {
    let entity = entities.get(param);
    if (!entity) entities.set(param, (entity = describedEntity(param)));
    const wanted = entity;
    // Only APIs with an identifier field that has a word like the entity's first are looked at.
    out =
      wanted.length === 0
        ? []
        : identifierIndex(catalog)
            .lookup(wanted[0])
            .filter(
              (api) =>
                !api.params.some((q) => q.name === param.name) &&
                wordsOf(api).some((f) => f.leaf !== param.name && identifies(f, wanted)),
            );
    describedMemo.set(param, out);
  }
  return out;
}
