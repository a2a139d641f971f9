/**
 * The catalogs records carry, parsed once per distinct catalog in each worker. Records of one dataset tend
 * to share a handful of catalogs; handing every record with the same catalog the same `Catalog` object also
 * lets the per-catalog work cached by object (the catalog index, computed mappings) be done once. Keyed by
 * the catalog's JSON; bounded in entries and in key bytes.
 */
import { LRUCache } from 'lru-cache';
import { loadCatalog, parseCatalog } from '../read/catalog.ts';
import type { RecordItem } from '../read/records.ts';
import type { Catalog } from '../model/types.ts';

export interface RecordCatalogsOptions {
  /** Distinct catalogs kept (default 64). */
  readonly entries?: number;
  /** Total JSON length of the catalogs kept (default 16 MiB); a larger catalog is parsed every time. */
  readonly bytes?: number;
}

export class RecordCatalogs {
  readonly #cache: LRUCache<string, Catalog>;

  constructor(options: RecordCatalogsOptions = {}) {
    this.#cache = new LRUCache<string, Catalog>({
      max: options.entries ?? 64,
      maxSize: options.bytes ?? 16 * 1024 * 1024,
      sizeCalculation: (_catalog, key) => Math.max(1, key.length),
    });
  }

  /** The parsed catalog of a record's `catalog` value (a bad one throws, as `parseCatalog` does). */
  readonly parse = (value: unknown): Catalog => {
    const key = JSON.stringify(value);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const catalog = parseCatalog(value);
    this.#cache.set(key, catalog);
    return catalog;
  };

  get size(): number {
    return this.#cache.size;
  }
}

/**
 * The catalog a scored record is judged against where results are re-read (a resumed run, `collect`): its
 * own, else the run's `--catalog`, read once and only when a record with a gold needs it.
 */
export function judgingCatalog(path: string | undefined): (record: RecordItem) => Catalog | undefined {
  let shared: Catalog | undefined;
  return (record) => {
    if (!record.gold || record.catalog || path === undefined) return record.catalog;
    shared ??= loadCatalog(path);
    return shared;
  };
}
