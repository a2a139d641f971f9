/**
 * The catalogs records carry, parsed once per distinct catalog in each worker. Records of one dataset tend
 * to share a handful of catalogs; handing every record with the same catalog the same `Catalog` object also
 * lets the per-catalog work cached by object (the catalog index, computed mappings) be done once. Keyed by
 * the catalog's JSON, or by the resolved path of a catalog a record names by file; bounded in entries and in
 * bytes (a key's length, a file's size).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { LRUCache } from 'lru-cache';
import { loadCatalog, parseCatalog } from '../read/catalog.ts';
import type { RecordItem } from '../read/records.ts';
import type { Catalog } from '../model/types.ts';
import { InputError } from '../model/errors.ts';

export interface RecordCatalogsOptions {
  /** Distinct catalogs kept (default 64). */
  readonly entries?: number;
  /** Total JSON length of the catalogs kept (default 16 MiB); a larger catalog is parsed every time. */
  readonly bytes?: number;
  /**
   * The directory a record's catalog given as a path (`"catalog": "tools.json"`) is read from: the input
   * file's. Without it such a record is an error (the catalog itself is expected).
   */
  readonly base?: string;
}

export class RecordCatalogs {
  readonly #cache: LRUCache<string, Catalog>;
  readonly #base: string | undefined;

  constructor(options: RecordCatalogsOptions = {}) {
    this.#base = options.base;
    this.#cache = new LRUCache<string, Catalog>({
      max: options.entries ?? 64,
      maxSize: options.bytes ?? 16 * 1024 * 1024,
      sizeCalculation: (_catalog, key) => Math.max(1, key.length),
    });
  }

  /** The parsed catalog of a record's `catalog` value (a bad one throws, as `parseCatalog` does). */
  readonly parse = (value: unknown): Catalog => {
    if (typeof value === 'string' && this.#base !== undefined) return this.#file(resolve(this.#base, value));
    const key = JSON.stringify(value);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const catalog = parseCatalog(value);
    this.#cache.set(key, catalog);
    return catalog;
  };

  /** A catalog file, read once while it stays cached (a run reads a file as it was when first named). */
  #file(path: string): Catalog {
    const key = `file:${path}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    let catalog: Catalog;
    try {
      catalog = loadCatalog(path);
    } catch (error) {
      // Named as the record's field, then the file (`catalog: /data/tools.json: cannot read file (ENOENT)`).
      if (error instanceof InputError) throw new InputError('catalog', error.message);
      throw error;
    }
    this.#cache.set(key, catalog, { size: Math.max(1, statSync(path).size) });
    return catalog;
  }

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
