/**
 * Evidence between the two ends of a link, and between a call and a plan, as plain measurements that the
 * cost model's features weigh: how alike two names are (characters, words, containment), whether the
 * descriptions share content words, how common a field is in the catalog (a field that 300 APIs output says
 * little about which API was meant; one that a single API outputs says a lot), and whether an API shares
 * any content word with a plan at all. Pure functions of names, descriptions and the catalog index.
 */
import type { ApiSpec, OutputField, ParamSpec, ValueType } from '../model/types.ts';
import type { CatalogIndex } from './catalog-index.ts';
import { leafOf } from './catalog-index.ts';
import { editDistance, similarity } from './names.ts';
import { nameTerms, textTerms } from './text.ts';
import { perObject } from '../model/memo.ts';

/**
 * Words that say what an API does in general or what any field is (`get`, `search`, `id`, `data`): shared,
 * they are no evidence that two APIs or a field and a parameter belong together.
 */
const GENERIC = new Set(
  (
    'get set search find list fetch create update delete add remove check calculate compute make generate ' +
    'retrieve lookup look query request send api by for from to with of all info information detail ' +
    'data result value id identifier name type number code status text item list string'
  ).split(' '),
);

/** The content words of a name: its stemmed terms without the generic ones. */
export function contentWords(name: string): string[] {
  return nameTerms(name).filter((w) => !GENERIC.has(w));
}

/** The content words of an API's name (once per API). */
export const apiWords = perObject((api: ApiSpec): ReadonlySet<string> => new Set(contentWords(api.name)));

/**
 * Whether an API's name shares a content word with a set of words (a plan's names). Names only: every
 * producer of `patient_id` has the word `patient` among its fields, so fields say nothing of relatedness.
 */
export function sharesWords(api: ApiSpec, words: ReadonlySet<string>): boolean {
  for (const w of apiWords(api)) if (words.has(w)) return true;
  return false;
}

/**
 * Whether an API is related to a plan (`words`) or to the value it would produce (`needWords`, the content
 * words of a parameter or field name): `find_city` for a lost `city_id` is no stranger, whatever else the plan
 * calls. `common`: words too common among the catalog's API names to relate anything (`commonNameWords`), left
 * out of `words` and `needWords` by the caller; a misspelt word is not read against them either. `named`: the
 * words the catalog's API names have (`catalogNameWords`): a plan word among them is a word, not a misspelling
 * (`market` of analyze_stock_market does not relate Analyze_Marker).
 */
export function relatedTo(
  api: ApiSpec,
  words: ReadonlySet<string>,
  needWords: readonly string[],
  misspelt = Infinity,
  common: ReadonlySet<string> = NO_WORDS,
  named: WordSet = NO_WORDS,
): boolean {
  return namedAfter(api, needWords) || nearPlan(api, words, misspelt, common, named);
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** Words asked about one at a time (a set, or a map of counts). */
type WordSet = { has(word: string): boolean };

/** Whether an API's name has one of the content words of what it would produce (`find_city` for `city_id`). */
export function namedAfter(api: ApiSpec, needWords: readonly string[]): boolean {
  const own = apiWords(api);
  return needWords.some((w) => own.has(w));
}

/**
 * Per plan's words (one set per repair, read with one catalog's common words) and misspelling bound: whether
 * each API asked about is near them.
 */
const nearPlans = new WeakMap<ReadonlySet<string>, Map<number, Map<ApiSpec, boolean>>>();

/**
 * Whether an API's name shares a word with the plan's (`sharesWords`), or a word of `misspelt` letters or
 * more that reads as one of the plan's with one letter wrong (`nIstagram_Posts_Reels`, a call to be
 * renamed), a plan word that no catalog name has (`named`). Remembered per plan: a large catalog asks about
 * many producers of a name (a plan is read against one catalog, so `named` is not part of the key).
 */
function nearPlan(
  api: ApiSpec,
  words: ReadonlySet<string>,
  misspelt: number,
  common: ReadonlySet<string>,
  named: WordSet,
): boolean {
  let bounds = nearPlans.get(words);
  if (!bounds) nearPlans.set(words, (bounds = new Map()));
  let known = bounds.get(misspelt);
  if (!known) bounds.set(misspelt, (known = new Map()));
  let near = known.get(api);
  if (near === undefined) {
    near = sharesWords(api, words) || misspeltWord(apiWords(api), words, misspelt, common, named);
    known.set(api, near);
  }
  return near;
}

function misspeltWord(
  own: ReadonlySet<string>,
  words: ReadonlySet<string>,
  misspelt: number,
  common: ReadonlySet<string>,
  named: WordSet,
): boolean {
  for (const w of own) {
    if (w.length < misspelt || common.has(w)) continue;
    for (const v of words)
      if (v.length >= misspelt - 1 && !named.has(v) && editDistance(w, v, 1) <= 1) return true;
  }
  return false;
}

/** How many of a catalog's API names have each content word (once per catalog index). */
const nameWordCounts = perObject((index: CatalogIndex): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>();
  for (const api of index.catalog.apis)
    for (const w of apiWords(api)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
});

/** The content words of a catalog's API names, with how many names have each. */
export function catalogNameWords(index: CatalogIndex): ReadonlyMap<string, number> {
  return nameWordCounts(index);
}

/** Per catalog index, the common words at the bound last asked for (a cost model's). */
const commonWordsMemo = new WeakMap<CatalogIndex, { most: number; common: ReadonlySet<string> }>();

/**
 * The content words in more than `most` of a catalog's API names: among thousands of APIs, `track` (in
 * Track_Order and in Track_Face) or `date` no more says that two names belong together than `get` does.
 * Remembered per catalog index for the last bound.
 */
export function commonNameWords(index: CatalogIndex, most: number): ReadonlySet<string> {
  let known = commonWordsMemo.get(index);
  if (known?.most !== most) {
    const common = new Set([...nameWordCounts(index)].flatMap(([w, n]) => (n > most ? [w] : [])));
    commonWordsMemo.set(index, (known = { most, common }));
  }
  return known.common;
}

/**
 * The content words of a plan: its calls' API names, the names of the arguments it passes and the keys of
 * its answer (`isAnswer`: the answer step's own name is no API). An API whose name shares none of them is a
 * stranger to the plan. The judge of a repair (`src/score`) counts stranger calls by these words alone; the
 * repair model prices them by `relatedTo`, which also reads the value an API is for and a misspelt word.
 */
export function planWords(
  steps: readonly { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }[],
  apiOf: (name: string) => ApiSpec | undefined,
  isAnswer: (i: number) => boolean,
): Set<string> {
  const words = new Set<string>();
  steps.forEach((step, i) => {
    const api = apiOf(step.name);
    if (api) for (const w of apiWords(api)) words.add(w);
    else if (!isAnswer(i)) for (const w of contentWords(step.name)) words.add(w);
    for (const arg of Object.keys(step.arguments)) for (const w of contentWords(arg)) words.add(w);
  });
  return words;
}

/** Whether two names share a stemmed word, or one's words run inside the other's (`route`, `route_details`). */
export function shareAWord(a: string, b: string): boolean {
  const x = nameTerms(a);
  const y = new Set(nameTerms(b));
  return x.some((w) => y.has(w));
}

/**
 * The compound identifiers a parameter's description mentions (`search_stock`, `searchHotels`,
 * `RentalCars.GetCarsAvailable`): words joined by `_`, `.`, `-` or a capital inside. A plain word is no
 * identifier (`translate` in "the text to translate").
 */
const mentionedIdentifiers = perObject((param: ParamSpec): readonly string[] =>
  (param.description?.match(/[A-Za-z][\w.-]*[A-Za-z\d]/g) ?? []).filter((w) => /[_.-]|[a-z][A-Z]/.test(w)),
);

/** A name's terms after its first (its verb): `search_city` and `find_city` both read `city`. */
function objectOf(name: string): string {
  return nameTerms(name).slice(1).join(' ');
}

/** The catalog's API names by `objectOf` (once per catalog index). */
const namesByObject = perObject((index: CatalogIndex): ReadonlyMap<string, readonly string[]> => {
  const out = new Map<string, string[]>();
  for (const name of index.byName.keys()) {
    const object = objectOf(name);
    if (object === '') continue;
    const names = out.get(object);
    if (names) names.push(name);
    else out.set(object, [name]);
  }
  return out;
});

/**
 * The catalog APIs a parameter's description names as where its value comes from (`The id of the stock,
 * from search_stock.`): the API of that very name, or else those named alike but for their leading verb
 * (`from search_city` for find_city, not find_city_id). Empty for a description that names none.
 */
export function describedSources(index: CatalogIndex, param: ParamSpec): readonly string[] {
  const mentioned = mentionedIdentifiers(param);
  if (mentioned.length === 0) return mentioned;
  return mentioned.flatMap((w) =>
    index.byName.has(w) ? [w] : (namesByObject(index).get(objectOf(w)) ?? []),
  );
}

/**
 * Whether a parameter's description names the APIs its value comes from and none of `apis` (a producing
 * call's) is one of them: `stock_id` ("from search_stock") fed by find_stock_id.
 */
export function otherThanDescribed(index: CatalogIndex, param: ParamSpec, apis: readonly ApiSpec[]): boolean {
  const named = describedSources(index, param);
  return named.length > 0 && !apis.some((api) => named.includes(api.name));
}

/** The measurements between an output field and a parameter it may feed. */
export interface LinkEvidence {
  /** 1 − character similarity of the two names (transpositions count once). */
  readonly nameDissimilarity: number;
  /** 1 when the names share no stemmed word. */
  readonly noSharedWord: number;
  /** 1 when the parameter's name and description share no content word with the field's. */
  readonly noDescriptionWord: number;
  /** How common the field is in the catalog: log(1 + APIs that output it) / log(1 + APIs), in [0, 1]. */
  readonly commonField: number;
}

/** Declared types too common to be evidence that a field feeds a parameter: any text, or nothing declared. */
export const WEAK_TYPES: ReadonlySet<ValueType> = new Set(['string', 'any']);

/** How common a value that `n` APIs produce is in the catalog, on a log scale of its size (see commonness). */
export function commonCount(index: CatalogIndex, n: number): number {
  const apis = index.catalog.apis.length;
  return apis <= 1 ? 0 : Math.min(1, Math.log1p(n) / Math.log1p(apis));
}

/** How common an output leaf is in the catalog, on a log scale of its size (0: no API, 1: every API). */
export function commonness(index: CatalogIndex, leaf: string): number {
  const apis = index.catalog.apis.length;
  if (apis <= 1) return 0;
  let known = commonMemo.get(index);
  if (!known) commonMemo.set(index, (known = new Map()));
  let value = known.get(leaf);
  if (value === undefined) {
    value = commonCount(index, new Set(index.producersOf(leaf).map((p) => p.api)).size);
    // Leaves of one catalog: a handful per repair, bounded by the catalog's own output names.
    if (known.size >= COMMON_REMEMBERED) known.clear();
    known.set(leaf, value);
  }
  return value;
}

const commonMemo = new WeakMap<CatalogIndex, Map<string, number>>();
const COMMON_REMEMBERED = 100_000;

/**
 * Whether a field and a parameter are linked by their names (a shared word, or names at least `minSimilarity`
 * alike) or by their descriptions (a shared content word): the evidence the model's `linkUnsupported` and the
 * judge's unsupported wirings both ask for, each with its own similarity bound.
 */
export function namedOrDescribed(e: LinkEvidence, minSimilarity: number): boolean {
  return e.noSharedWord === 0 || 1 - e.nameDissimilarity >= minSimilarity || e.noDescriptionWord === 0;
}

export function linkEvidence(index: CatalogIndex, field: OutputField, param: ParamSpec): LinkEvidence {
  const leaf = leafOf(field.path);
  const theirs = fieldWords(field);
  return {
    nameDissimilarity: 1 - similarity(leaf, param.name),
    noSharedWord: shareAWord(leaf, param.name) ? 0 : 1,
    noDescriptionWord: paramWords(param).some((w) => theirs.has(w)) ? 0 : 1,
    commonField: commonness(index, leaf),
  };
}

/** The content words of a field's name and description (once per field). */
const fieldWords = perObject(
  (field: OutputField): ReadonlySet<string> =>
    new Set([...contentWords(leafOf(field.path)), ...textTerms(field.description)]),
);

/** The content words of a parameter's name and description (once per parameter). */
const paramWords = perObject((param: ParamSpec): readonly string[] => [
  ...contentWords(param.name),
  ...textTerms(param.description),
]);

/** Parameter names that hold a free query: their value is the subject the call is about. */
const QUERY_NAMES = new Set(['q', 'query', 'search', 'keyword', 'term', 'text', 'input']);

/**
 * Whether the value passed to a parameter `arg` that `api` does not take reads as a value of its required
 * parameter `p` by more than its name: the made-up name shares a word with `p`'s name or description, or it
 * is a free query (`q`) and the API's description names `p` as what it acts on ("statistics for a specific
 * location"); or the value's own words occur in `p`'s description (its examples). The type is checked apart.
 */
export function valueReadsAs(arg: string, value: string, p: ParamSpec, api: ApiSpec): boolean {
  const described = new Set([...nameTerms(p.name), ...textTerms(p.description)]);
  if (nameTerms(arg).some((w) => described.has(w))) return true;
  const own = new Set(textTerms(api.description));
  if (QUERY_NAMES.has(arg.toLowerCase()) && nameTerms(p.name).every((w) => own.has(w))) return true;
  const examples = new Set(textTerms(p.description));
  return textTerms(value).some((w) => examples.has(w));
}
