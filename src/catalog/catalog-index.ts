/**
 * The catalog index, built once per catalog: output leaf -> producers, name trigrams -> APIs. It keeps
 * candidate generation (and so the model's size) independent of the catalog's size.
 */
import type { ApiSpec, Catalog, OutputField, ParamSpec } from '../model/types.ts';
import { perObject } from '../model/memo.ts';
import { similarity, trigrams } from './names.ts';
import { wordKey } from './text.ts';
import { MAX_NAME_LENGTH } from '../read/json.ts';

export interface Producer {
  readonly api: ApiSpec;
  readonly field: OutputField;
}

export interface CatalogIndex {
  readonly catalog: Catalog;
  readonly byName: ReadonlyMap<string, ApiSpec>;
  /** APIs with an output whose last key is `leaf` (`skyId`, or `entityId` in `navigation.entityId`). */
  producersOf(leaf: string): readonly Producer[];
  /** The `limit` APIs with the most similar names, best first, with their similarity (shared: read only). */
  similarApis(name: string, limit: number): readonly { api: ApiSpec; similarity: number }[];
  /** An API's place in catalog-name order (code-unit order of the names), to sort many APIs by name fast. */
  nameRank(api: ApiSpec): number;
  /** The APIs that take a parameter of every one of these names (none for no name), in catalog order. */
  apisTaking(params: readonly string[]): readonly ApiSpec[];
}

const cache = new WeakMap<Catalog, CatalogIndex>();

/**
 * Names whose similar APIs an index remembers (each record of a batch asks again for its steps' names,
 * which repeat from record to record); it starts over beyond this, and longer names are not kept.
 */
const SIMILAR_REMEMBERED = 10_000;
/** An API's output fields grouped by leaf name (built once per API). */
export const outputsByLeaf = perObject((api: ApiSpec): Map<string, OutputField[]> => {
  const index = new Map<string, OutputField[]>();
  for (const f of api.outputs ?? []) {
    const leaf = leafOf(f.path);
    const list = index.get(leaf);
    if (list) list.push(f);
    else index.set(leaf, [f]);
  }
  return index;
});

/**
 * An API's output leaf names by their words (`wordKey`: `invoiceNumber` with `invoice_number`), in the order
 * of `outputsByLeaf` (built once per API: a broken reference looks its leaf up in every candidate producer).
 */
export const leavesByWords = perObject((api: ApiSpec): Map<string, string[]> => {
  const index = new Map<string, string[]>();
  for (const leaf of outputsByLeaf(api).keys()) {
    const key = wordKey(leaf);
    const list = index.get(key);
    if (list) list.push(leaf);
    else index.set(key, [leaf]);
  }
  return index;
});

/** An API's output fields that no other field nests under (`location.name`, not `location`); once per API. */
export const terminalOutputs = perObject((api: ApiSpec): OutputField[] => {
  const outputs = api.outputs ?? [];
  return outputs.filter(
    (f) => !outputs.some((g) => g.path.startsWith(`${f.path}.`) || g.path.startsWith(`${f.path}[]`)),
  );
});

/** An API's parameters by name (built once per API: every step of every record asks). */
export const paramsByName = perObject(
  (api: ApiSpec): Map<string, ParamSpec> => new Map(api.params.map((p) => [p.name, p])),
);

/**
 * Last key of a normalised path: `navigation.entityId` -> `entityId`, `author[].id` -> `id`. Not memoised:
 * it costs less than a cache lookup, and a large catalog's paths would churn any bounded cache.
 */
export function leafOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const last = dot === -1 ? path : path.slice(dot + 1);
  return last.includes('[]') ? last.replace(/\[\]/g, '') : last;
}

export function indexCatalog(catalog: Catalog): CatalogIndex {
  const cached = cache.get(catalog);
  if (cached) return cached;
  const byName = new Map<string, ApiSpec>();
  const producers = new Map<string, Producer[]>();
  const grams = new Map<string, number[]>();
  catalog.apis.forEach((api, k) => {
    byName.set(api.name, api);
    for (const field of api.outputs ?? []) {
      const leaf = leafOf(field.path);
      if (!leaf) continue;
      let list = producers.get(leaf);
      if (!list) producers.set(leaf, (list = []));
      list.push({ api, field });
    }
    for (const g of trigrams(api.name)) {
      let list = grams.get(g);
      if (!list) grams.set(g, (list = []));
      list.push(k);
    }
  });
  /** Shortlist by shared trigrams, then rank by edit-distance similarity. */
  const rankSimilar = (name: string, limit: number) => {
    const hits = new Map<number, number>();
    for (const g of trigrams(name)) for (const k of grams.get(g) ?? []) hits.set(k, (hits.get(k) ?? 0) + 1);
    const shortlist = [...hits.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, Math.max(limit * 8, 32))
      .map(([k]) => catalog.apis[k]);
    return shortlist
      .map((api) => ({ api, similarity: similarity(name, api.name) }))
      .sort((a, b) => b.similarity - a.similarity || (a.api.name < b.api.name ? -1 : 1))
      .slice(0, limit);
  };
  const similar = new Map<string, readonly { api: ApiSpec; similarity: number }[]>();
  let ranks: Map<ApiSpec, number> | undefined;
  let takers: Map<string, ApiSpec[]> | undefined;
  const index: CatalogIndex = {
    catalog,
    byName,
    producersOf: (leaf) => producers.get(leaf) ?? [],
    apisTaking(params) {
      if (params.length === 0) return [];
      if (!takers) {
        takers = new Map();
        for (const api of catalog.apis)
          for (const p of api.params) {
            let list = takers.get(p.name);
            if (!list) takers.set(p.name, (list = []));
            list.push(api);
          }
      }
      // From the rarest name: the others only filter its few takers.
      const lists = params.map((p) => takers!.get(p) ?? []).sort((a, b) => a.length - b.length);
      const rest = lists.slice(1).map((list) => new Set(list));
      return lists[0].filter((api) => rest.every((set) => set.has(api)));
    },
    nameRank(api) {
      ranks ??= new Map(
        [...catalog.apis]
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map((a, k) => [a, k]),
      );
      return ranks.get(api) ?? catalog.apis.length;
    },
    similarApis(name, limit) {
      if (name.length > MAX_NAME_LENGTH) return rankSimilar(name, limit);
      const key = `${limit}\u0000${name}`;
      let found = similar.get(key);
      if (!found) {
        found = rankSimilar(name, limit);
        if (similar.size >= SIMILAR_REMEMBERED) similar.clear();
        similar.set(key, found);
      }
      return found;
    },
  };
  cache.set(catalog, index);
  return index;
}

/** How many keys and lists a path goes through below the output: `a.b[].c` -> 3. */
export function pathDepth(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 46 /* . */) n++;
    else if (c === 91 /* [ */ && path.charCodeAt(i + 1) === 93 /* ] */) {
      n++;
      i++;
    }
  }
  return n;
}
