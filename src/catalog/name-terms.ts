/**
 * API names as words: which APIs' names use a word, and how much of a name (an answer key such as
 * `mortgage_payment`, a parameter) an API's name covers. Built once per catalog object.
 */
import type { ApiSpec, Catalog } from '../model/types.ts';
import { nameTerms } from './text.ts';
import { perObject } from '../model/memo.ts';
import { leafOf } from './catalog-index.ts';

const indexes = new WeakMap<Catalog, Map<string, ApiSpec[]>>();

/**
 * A name word with its verb and noun endings folded (`translated`, `translate`: `translat`; `reservation`,
 * `reserve`: `reserv`), so that a key written with one form meets an API named with another; a root of fewer
 * than four letters keeps the word whole. A noun in `-ation` loses the ending whole, so `translation` is
 * `transl` and does not meet `translate` (reading both roots changed two repairs of the benchmark, neither's
 * verdict: not worth the false meetings it adds, `station` and `state`).
 */
export function root(term: string): string {
  const cut = term.replace(/(ation|ion|ing|ed|es|e)$/, '');
  return cut.length >= 4 ? cut : term;
}

/** The roots of a name's terms. */
function roots(name: string): string[] {
  return nameTerms(name).map(root);
}

const apiTerms = perObject((api: ApiSpec): Set<string> => new Set(roots(api.name)));

/** APIs whose names use `term` (a stemmed name word, compared by its root), in catalog order. */
export function apisNaming(catalog: Catalog, term: string): readonly ApiSpec[] {
  let index = indexes.get(catalog);
  if (!index) {
    index = new Map();
    for (const api of catalog.apis) {
      for (const t of apiTerms(api)) {
        const list = index.get(t);
        if (list) list.push(api);
        else index.set(t, [api]);
      }
    }
    indexes.set(catalog, index);
  }
  return index.get(root(term)) ?? [];
}

/** The share of the words of `name` that the API's name uses (`mortgage_payment` in calculate_mortgage_payment: 1). */
export function nameCoverage(name: string, api: ApiSpec): number {
  const words = [...new Set(roots(name))];
  if (words.length === 0) return 0;
  const terms = apiTerms(api);
  return words.filter((w) => terms.has(w)).length / words.length;
}

/**
 * The share of the API's name words that `name` uses (`product_search`: half of Real-Time_Product_Search_Search,
 * two fifths of Real-Time_Product_Search_Product_Details): of two names that both cover it, the one with fewer
 * other words is the closer.
 */
export function nameShare(name: string, api: ApiSpec): number {
  const terms = apiTerms(api);
  if (terms.size === 0) return 0;
  const words = new Set(roots(name));
  return [...terms].filter((t) => words.has(t)).length / terms.size;
}

const byLeafTerms = new WeakMap<Catalog, ReadonlyMap<string, readonly ApiSpec[]>>();

/**
 * The catalog's output leaves by their words (the stemmed words of a leaf joined by spaces, whatever its
 * spelling: `entityId`, `entity_id`), each with the APIs that output it in catalog order. Built once per
 * catalog: every leaf is split here and nowhere else.
 */
export function leavesByWords(catalog: Catalog): ReadonlyMap<string, readonly ApiSpec[]> {
  let index = byLeafTerms.get(catalog);
  if (!index) {
    const built = new Map<string, ApiSpec[]>();
    for (const api of catalog.apis) {
      for (const f of api.outputs ?? []) {
        const key = nameTerms(leafOf(f.path)).join(' ');
        const list = built.get(key);
        if (!list) built.set(key, [api]);
        else if (list[list.length - 1] !== api) list.push(api);
      }
    }
    byLeafTerms.set(catalog, (index = built));
  }
  return index;
}

/** APIs with an output whose leaf reads as these words (`id`, `entity id`; see leavesByWords), in catalog order. */
export function apisOutputting(catalog: Catalog, leafWords: string): readonly ApiSpec[] {
  return leavesByWords(catalog).get(leafWords) ?? [];
}

const endings = new WeakMap<Catalog, ReadonlySet<string>>();

/**
 * Whether some API outputs a field whose leaf's words end with these (`text` in `translated_text`, `amount`
 * in `converted_amount`; joined by spaces as in leavesByWords).
 */
export function someOutputEndsWith(catalog: Catalog, leafWords: string): boolean {
  let known = endings.get(catalog);
  if (!known) {
    const built = new Set<string>();
    for (const key of leavesByWords(catalog).keys()) {
      const words = key.split(' ');
      for (let k = 0; k < words.length; k++) built.add(words.slice(k).join(' '));
    }
    endings.set(catalog, (known = built));
  }
  return known.has(leafWords);
}
