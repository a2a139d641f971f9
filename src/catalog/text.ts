/**
 * Term bags for comparing catalog fields: names and descriptions split into words, stop words dropped,
 * plurals folded, and terms weighted by inverse document frequency over the catalog's own fields, so
 * that `sky` in `skyId` counts more than the `id` every identifier shares.
 */
import { NAME_MEMO_LIMITS, words } from './names.ts';
import { boundedMemo } from '../model/memo.ts';

const STOP = new Set(
  (
    'a an and any are as at be been by can could default does e eg etc for from g get given has have how i ' +
    'ie if in into is it its may more must no not of on one or other otherwise our such than that the their ' +
    'them then there these this those to under up use used using value values via was we were what when ' +
    'where whether which while who will with within without you your'
  ).split(' '),
);

/** Folds simple English plurals so `airports` meets `airport`; short words are left alone. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * Connectives that carry no meaning inside a name (`username_or_id_or_url`, `is_verified`); every other
 * word counts, `in`/`out` and `from`/`to` included, since they tell `check_in_date` from `check_out_date`.
 */
const NAME_STOP = new Set(['a', 'an', 'and', 'by', 'has', 'is', 'of', 'or', 'the']);

/** Terms of a name: its words, stemmed, without connectives (kept when the name has nothing else). */
export function nameTerms(name: string): readonly string[] {
  return nameTermsMemo(name);
}

/** Terms of free text: words without stop words, stemmed. */
export function textTerms(text: string | undefined): readonly string[] {
  return text ? textTermsMemo(text) : NO_TERMS;
}

const NO_TERMS: readonly string[] = Object.freeze([]);

/**
 * Names and descriptions recur across every link a repair weighs (a large catalog's fields against each
 * parameter): their terms are split once, within the name memos' bounds (a description longer than their
 * longest key is split each time). Frozen, as every caller shares them.
 */
const nameTermsMemo = boundedMemo('nameTerms', NAME_MEMO_LIMITS, (name): readonly string[] => {
  const all = words(name).map(stem);
  const kept = all.filter((w) => !NAME_STOP.has(w));
  return Object.freeze(kept.length > 0 ? kept : all);
});

const textTermsMemo = boundedMemo('textTerms', NAME_MEMO_LIMITS, (text): readonly string[] =>
  Object.freeze(
    words(text)
      .filter((w) => !STOP.has(w) && !/^\d+$/.test(w))
      .map(stem),
  ),
);

/** Inverse document frequencies over a set of documents (each a bag of terms). */
export class Idf {
  private readonly df = new Map<string, number>();
  private docs = 0;

  /** One document, its terms given as one or more bags (a term counts once per document). */
  add(...bags: readonly (readonly string[])[]): void {
    this.docs++;
    const seen = new Set<string>();
    for (const bag of bags)
      for (const t of bag) {
        if (seen.has(t)) continue;
        seen.add(t);
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
      }
  }

  /** Smoothed IDF: a term unseen in the catalog weighs as much as the rarest one. */
  weight(term: string): number {
    return Math.log((this.docs + 1) / ((this.df.get(term) ?? 0) + 1)) + 1;
  }
}

/** A weighted vector (term -> tf * idf) with its norm. */
export interface Vector {
  readonly weights: ReadonlyMap<string, number>;
  readonly norm: number;
}

export function vector(terms: readonly string[], idf: Idf): Vector {
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  const weights = new Map<string, number>();
  let sq = 0;
  for (const [t, n] of tf) {
    const w = (1 + Math.log(n)) * idf.weight(t);
    weights.set(t, w);
    sq += w * w;
  }
  return { weights, norm: Math.sqrt(sq) };
}

export function cosine(a: Vector, b: Vector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, large] = a.weights.size <= b.weights.size ? [a.weights, b.weights] : [b.weights, a.weights];
  let dot = 0;
  for (const [t, x] of small) {
    const y = large.get(t);
    if (y !== undefined) dot += x * y;
  }
  return dot / (a.norm * b.norm);
}

/** Words as one string with a space either side, so a run of words is found with `includes`. */
export function spaced(terms: readonly string[]): string {
  return ` ${terms.join(' ')} `;
}

/** A name's terms as one key: names of the same words in any spelling share it (`invoiceNumber`, `invoice_number`). */
export function wordKey(name: string): string {
  return nameTerms(name).join(' ');
}

/** `wordKey` remembered for the names one caller asks about (its own short-lived cache). */
export function wordKeys(): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    let key = known.get(name);
    if (key === undefined) known.set(name, (key = wordKey(name)));
    return key;
  };
}
