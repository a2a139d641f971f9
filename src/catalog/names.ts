/**
 * Name similarity: the basis of rename candidates, tie-breaks and computed mappings. Results are memoised
 * in bounded memos (entries and bytes, least recently used first); names are compared on their first
 * `MAX_NAME_LENGTH` characters, so neither the memos nor the edit distances grow with a hostile name.
 */
import { boundedMemo, boundedPairMemo } from '../model/memo.ts';
import { MAX_NAME_LENGTH } from '../read/json.ts';
import { editDistance } from '../model/edit-distance.ts';

export { editDistance };

/**
 * A word is an acronym before a capitalised word (`XML` in `XMLHttp`), a capitalised or lower-case run, an
 * upper-case run, or a run of digits; anything else separates words.
 */
const WORD = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g;

/** Splits a name into lower-case words: camelCase, snake_case, kebab, dots, spaces and digits. */
export function words(name: string): string[] {
  return (name.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/**
 * How a name is written: its separator (`.`, `_`, `-` or none, the first of these it holds) and the case of its
 * first letter. `list_albums` is `_a`, `Find_City` `_A`, `geoFindCity` `a`, `RedditTopPosts` `A`,
 * `Hotels.SearchHotel` `.A`. One provider writes its APIs' names one way.
 */
export function nameStyle(name: string): string {
  const separator = ['.', '_', '-'].find((c) => name.includes(c)) ?? '';
  const first = /[A-Za-z]/.exec(name)?.[0];
  return separator + (first === undefined ? '' : first === first.toUpperCase() ? 'A' : 'a');
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Bounds of the name memos (here and in text.ts): entries, bytes, and the longest key remembered. */
export const NAME_MEMO_LIMITS = { max: 200_000, maxBytes: 32 * 1024 * 1024, maxKey: 2 * MAX_NAME_LENGTH + 1 };

/** The part of a name that is compared: its first `MAX_NAME_LENGTH` characters. */
const head = (name: string): string =>
  name.length > MAX_NAME_LENGTH ? name.slice(0, MAX_NAME_LENGTH) : name;

const similarityMemo = boundedPairMemo('similarity', NAME_MEMO_LIMITS, rawSimilarity);

/**
 * Similarity in [0,1] of two names: 1 - edit distance / length on the names folded to lower case without
 * separators, so `SkyCrapperFlightSearch`~`SkyScrapperFlightSearch` and `originalSkyId`~`originSkyId`
 * score high while unrelated names score low; names equal once folded score `SAME_FOLDED` (just below 1).
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = head(a);
  const y = head(b);
  return x < y ? similarityMemo(x, y) : similarityMemo(y, x);
}

/** The similarity of two different names that are equal once folded (`invoiceNumber`, `invoice_number`). */
export const SAME_FOLDED = 0.99;

function rawSimilarity(a: string, b: string): number {
  const x = squash(a);
  const y = squash(b);
  if (x.length === 0 || y.length === 0) return 0;
  if (x === y) return SAME_FOLDED;
  return 1 - editDistance(x, y) / Math.max(x.length, y.length);
}

/** Lexical distance in [0,1] used only to break ties (`var20` is closer to `var2` than to `var1`). */
export function tieDistance(a: string, b: string): number {
  if (a === b) return 0;
  return tieMemo(head(a), head(b));
}

const tieMemo = boundedPairMemo('tieDistance', NAME_MEMO_LIMITS, rawTieDistance);

function rawTieDistance(a: string, b: string): number {
  const d = editDistance(a, b);
  // Among equal edit distances, prefer the shared prefix, then alphabetical order, deterministically.
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  const base = d / Math.max(a.length, b.length, 1);
  return Math.min(1, base * 0.9 + (1 - prefix / Math.max(a.length, b.length, 1)) * 0.1);
}

/** Character trigrams of a folded name (for the catalog index). */
export function trigrams(name: string): string[] {
  const s = `  ${squash(name)} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return [...out];
}

/** The first word of a multi-word name (`origin` in `originSkyId`), used to match sibling roles. */
const roles = boundedMemo('role', { ...NAME_MEMO_LIMITS, max: 100_000, maxKey: MAX_NAME_LENGTH }, (name) => {
  const w = words(name);
  return w.length > 1 ? w[0] : undefined;
});

export function role(name: string): string | undefined {
  return roles(name);
}

/** Words that name an identifier: a value a person reads off a system, not one they know. */
export const ID_WORDS: ReadonlySet<string> = new Set(['id', 'ids', 'identifier', 'uuid', 'guid']);

/** True when the last word of a name names an identifier (`geoId`, `course_id`, `authorID`). */
export function namesAnId(name: string): boolean {
  const w = words(name);
  return w.length > 0 && ID_WORDS.has(w[w.length - 1]);
}

/** Names a plan writes for "the call's result" when it does not know the field. */
const GENERIC = new Set([
  'result',
  'results',
  'output',
  'outputs',
  'data',
  'value',
  'values',
  'response',
  'answer',
]);

/** Whether a field name is a generic one (`result`, `output`, `data`): no evidence of which field, or API. */
export function genericName(name: string): boolean {
  return GENERIC.has(name.toLowerCase());
}

/** Parameter names for the content a call acts on (`text`, `message`): any earlier result may be it. */
const PAYLOAD = new Set(['text', 'message', 'content', 'body', 'input']);

/** Whether a parameter name is one for the content the call acts on (`text` of a translation). */
export function payloadName(name: string): boolean {
  return PAYLOAD.has(name.toLowerCase()) || genericName(name);
}

/** Whether a field name ends in a word for content (`translated_text`, `message`): text any call may take. */
export function contentName(name: string): boolean {
  const last = words(name).at(-1);
  return last !== undefined && PAYLOAD.has(last);
}

/**
 * Whether `field` names the same kind of value as `param` for another thing: both end in the same word after
 * words of their own, and neither name ends with the other (`account_id` for `stock_id`, `stylist_name` for
 * `restaurant_name`; not `airport_id` for `origin_airport_id`). A plan seldom feeds one thing's id to
 * another's: such a field is more likely written wrong than the parameter.
 */
export function namesAnother(param: string, field: string): boolean {
  const p = words(param);
  const f = words(field);
  if (p.length < 2 || f.length < 2 || p[p.length - 1] !== f[f.length - 1]) return false;
  const endsWith = (a: string[], b: string[]) => b.every((w, k) => a[a.length - b.length + k] === w);
  return !endsWith(p, f) && !endsWith(f, p);
}
