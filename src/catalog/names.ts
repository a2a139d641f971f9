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

/** Edit distance (insert, delete, substitute) with an optional cap for early exit. */
export function levenshtein(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  if (b.length - a.length > cap) return cap + 1;
  let prev = Array.from({ length: a.length + 1 }, (_, i) => i);
  let next = new Array<number>(a.length + 1);
  for (let j = 1; j <= b.length; j++) {
    next[0] = j;
    let rowMin = j;
    for (let i = 1; i <= a.length; i++) {
      const sub = prev[i - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      next[i] = Math.min(sub, prev[i] + 1, next[i - 1] + 1);
      if (next[i] < rowMin) rowMin = next[i];
    }
    if (rowMin > cap) return cap + 1;
    [prev, next] = [next, prev];
  }
  return prev[a.length];
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Similarity in [0,1] of two names: 1 - edit distance / length on the names folded to lower case without
 * separators, so `SkyCrapperFlightSearch`~`SkyScrapperFlightSearch` and `originalSkyId`~`originSkyId`
 * score high while unrelated names score low.
 */
const LIMITS = { max: 200_000, maxBytes: 32 * 1024 * 1024, maxKey: 2 * MAX_NAME_LENGTH + 1 };

/** The part of a name that is compared: its first `MAX_NAME_LENGTH` characters. */
const head = (name: string): string =>
  name.length > MAX_NAME_LENGTH ? name.slice(0, MAX_NAME_LENGTH) : name;

const similarityMemo = boundedPairMemo('similarity', LIMITS, rawSimilarity);

export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = head(a);
  const y = head(b);
  return x < y ? similarityMemo(x, y) : similarityMemo(y, x);
}

function rawSimilarity(a: string, b: string): number {
  const x = squash(a);
  const y = squash(b);
  if (x.length === 0 || y.length === 0) return 0;
  if (x === y) return 0.99;
  return 1 - levenshtein(x, y) / Math.max(x.length, y.length);
}

/** Word-level Jaccard similarity (`destination_airport` ~ `airportDestination`). */
export function wordSimilarity(a: string, b: string): number {
  const x = new Set(words(a));
  const y = new Set(words(b));
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return common / (x.size + y.size - common);
}

/** Lexical distance in [0,1] used only to break ties (`var20` is closer to `var2` than to `var1`). */
export function tieDistance(a: string, b: string): number {
  if (a === b) return 0;
  return tieMemo(head(a), head(b));
}

const tieMemo = boundedPairMemo('tieDistance', LIMITS, rawTieDistance);

function rawTieDistance(a: string, b: string): number {
  const d = levenshtein(a, b);
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
const roles = boundedMemo('role', { ...LIMITS, max: 100_000, maxKey: MAX_NAME_LENGTH }, (name) => {
  const w = words(name);
  return w.length > 1 ? w[0] : undefined;
});

export function role(name: string): string | undefined {
  return roles(name);
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
