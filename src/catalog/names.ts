/**
 * Name similarity: the basis of rename candidates, tie-breaks and computed mappings. Results are memoised
 * in bounded memos (entries and bytes, least recently used first); names are compared on their first
 * `MAX_NAME_LENGTH` characters, so neither the memos nor the edit distances grow with a hostile name.
 */
import { boundedMemo, boundedPairMemo } from '../model/memo.ts';
import { MAX_NAME_LENGTH } from '../read/json.ts';

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

/**
 * Edit distance with transpositions (optimal string alignment): inserts, deletes, substitutions and swaps
 * of two neighbouring letters each count one (`pgae` is one edit from `page`, not two), with an optional cap
 * for early exit.
 */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  if (b.length - a.length > cap) return cap + 1;
  if (cap <= 1) return withinOneEdit(a, b) ? 1 : cap + 1;
  const n = a.length;
  if (rows.length < 3 * (n + 1)) rows = new Int32Array(3 * (n + 1));
  // Three rows of one reused buffer: two rows back (a swap reaches it), the last, the one being filled.
  let before = 0;
  let prev = n + 1;
  let next = 2 * (n + 1);
  for (let i = 0; i <= n; i++) {
    rows[before + i] = 0;
    rows[prev + i] = i;
  }
  let prevMin = 0;
  for (let j = 1; j <= b.length; j++) {
    rows[next] = j;
    let rowMin = j;
    const bj = b.charCodeAt(j - 1);
    const bBefore = j > 1 ? b.charCodeAt(j - 2) : -1;
    for (let i = 1; i <= n; i++) {
      const ai = a.charCodeAt(i - 1);
      let d = rows[prev + i - 1] + (ai === bj ? 0 : 1);
      const del = rows[prev + i] + 1;
      if (del < d) d = del;
      const ins = rows[next + i - 1] + 1;
      if (ins < d) d = ins;
      if (i > 1 && ai === bBefore && a.charCodeAt(i - 2) === bj) {
        const swap = rows[before + i - 2] + 1;
        if (swap < d) d = swap;
      }
      rows[next + i] = d;
      if (d < rowMin) rowMin = d;
    }
    // A swap reaches two rows back: stop only when neither of the last two rows can come under the cap.
    if (rowMin > cap && prevMin > cap) return cap + 1;
    prevMin = rowMin;
    const spare = before;
    before = prev;
    prev = next;
    next = spare;
  }
  return rows[prev + n];
}

/** The rows `editDistance` fills, reused from call to call (grown to the longest name met). */
let rows = new Int32Array(0);

/**
 * Whether two different strings, `a` no longer than `b`, are one edit apart (a substitution, an insertion, or
 * two neighbours swapped): what `editDistance` under a cap of 1 asks, in one pass.
 */
function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length < b.length) return a.slice(i) === b.slice(i + 1);
  if (a.slice(i + 1) === b.slice(i + 1)) return true;
  return (
    i + 1 < a.length &&
    a.charCodeAt(i) === b.charCodeAt(i + 1) &&
    a.charCodeAt(i + 1) === b.charCodeAt(i) &&
    a.slice(i + 2) === b.slice(i + 2)
  );
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
