/**
 * Catalogs known to the server. A registered catalog is parsed once (off the main thread) and kept as the
 * same `Catalog` object (its index is cached by identity); every registration gets a new version, so
 * workers know when their copy is stale. The registry is bounded (catalogs, total bytes of their JSON,
 * depth of output paths) and each catalog belongs to the client that registered it: another client may
 * use it but not replace or delete it. Inline catalogs are cached by a hash of their JSON in a cache
 * bounded in entries and bytes, so an agent that sends the same catalog with every request pays for
 * parsing once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { parseCatalog } from '../read/catalog.ts';
import { MAX_DEPTH, nestedDeeperThan } from '../read/json.ts';
import { InputError, LimitError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { CATALOG_NAME } from '../api/request.ts';
import type { CatalogInfo } from '../api/result.ts';
import type { CatalogParser } from './catalog-parser.ts';
import { HttpProblem } from './errors.ts';
import type { RequestWork } from './admission.ts';

/** A catalog as jobs refer to it: `key` names it for the workers' caches, `version` tells copies apart. */
export interface CatalogRef {
  readonly key: string;
  readonly version: number;
}

export interface ResolvedCatalog {
  readonly ref: CatalogRef;
  readonly catalog: Catalog;
  /** Bytes of its JSON (what a worker's copy is counted as). */
  readonly bytes?: number;
}

export interface CatalogLimits {
  /** Registered catalogs. */
  readonly maxCatalogs: number;
  /** Bytes of JSON over all registered catalogs. */
  readonly maxCatalogBytes: number;
  /** Deepest output path of a catalog (keys and `[]` levels). */
  readonly maxOutputDepth: number;
  /** Bytes of JSON of the inline catalogs kept parsed. */
  readonly inlineCacheBytes: number;
}

export const CATALOG_DEFAULTS: CatalogLimits = {
  maxCatalogs: 256,
  maxCatalogBytes: 64 * 1024 * 1024,
  maxOutputDepth: 16,
  inlineCacheBytes: 32 * 1024 * 1024,
};

/** Owner of the catalogs given at start-up or found in the catalog directory without an owner file. */
export const SERVER_OWNER = 'server';

interface Entry {
  readonly name: string;
  readonly version: number;
  readonly catalog: Catalog;
  readonly owner: string;
  readonly bytes: number;
}

const INLINE_ENTRIES = 32;

export function checkCatalogName(name: string, field = 'name'): string {
  if (!CATALOG_NAME.test(name)) {
    throw new InputError(
      field,
      'expected 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  }
  return name;
}

/** Catalog JSON never needs more levels than this (output schemas nest at most `MAX_DEPTH`). */
const MAX_DOCUMENT_DEPTH = MAX_DEPTH + 8;

const jsonBytes = (json: unknown): { text: string; bytes: number } => {
  if (nestedDeeperThan(json, MAX_DOCUMENT_DEPTH)) {
    throw new InputError('catalog', `nested deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  }
  const text = JSON.stringify(json) ?? 'null';
  return { text, bytes: Buffer.byteLength(text) };
};

/** Hash and size of an inline catalog, computed once per request body. */
const digests = new WeakMap<object, { hash: string; bytes: number }>();

function digestOf(inline: unknown): { hash: string; bytes: number } {
  const known = typeof inline === 'object' && inline !== null ? digests.get(inline) : undefined;
  if (known) return known;
  const { text, bytes } = jsonBytes(inline);
  const digest = { hash: createHash('sha256').update(text).digest('hex'), bytes };
  if (typeof inline === 'object' && inline !== null) digests.set(inline, digest);
  return digest;
}

export interface CatalogStoreOptions {
  readonly limits?: Partial<CatalogLimits>;
  /** Parses off the main thread; without one, catalogs are parsed inline. */
  readonly parser?: CatalogParser;
}

/** A client may not replace or delete a catalog another owns: the server's own (start-up) or a client's. */
function notYours(name: string, owner: string): HttpProblem {
  const whose = owner === SERVER_OWNER ? 'the server (registered at start-up)' : 'another client';
  return new HttpProblem(403, 'name', `catalog ${JSON.stringify(name)} belongs to ${whose}`);
}

export class CatalogStore {
  private readonly named = new Map<string, Entry>();
  private readonly inline: LRUCache<string, { catalog: Catalog; bytes: number }>;
  /** Inline catalogs parsed for requests still running, by hash, with the number of such requests. */
  private readonly pinned = new Map<string, { catalog: Catalog; bytes: number; pins: number }>();
  private readonly limits: CatalogLimits;
  private version = 0;
  private total = 0;

  /** `dir`: where registrations are persisted (and loaded from now). */
  constructor(
    private readonly dir?: string,
    private readonly options: CatalogStoreOptions = {},
  ) {
    this.limits = { ...CATALOG_DEFAULTS, ...options.limits };
    this.inline = new LRUCache({
      max: INLINE_ENTRIES,
      maxSize: this.limits.inlineCacheBytes,
      sizeCalculation: (value) => Math.max(1, value.bytes),
    });
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir).sort()) {
      const name = file.endsWith('.json') ? file.slice(0, -5) : '';
      if (!CATALOG_NAME.test(name)) continue;
      const text = readFileSync(join(dir, file), 'utf8');
      const ownerFile = join(dir, `${name}.owner`);
      const owner = existsSync(ownerFile) ? readFileSync(ownerFile, 'utf8').trim() : SERVER_OWNER;
      try {
        this.add(name, JSON.parse(text), owner);
      } catch (error) {
        const problem = error instanceof InputError ? error.message : (error as Error).message;
        throw new InputError('catalog-dir', `${join(dir, file)}: ${problem}`);
      }
    }
  }

  /** Refuses what would break a limit or another client's ownership; returns the catalog replaced. */
  private admit(name: string, bytes: number, owner: string): Entry | undefined {
    checkCatalogName(name);
    const earlier = this.named.get(name);
    if (earlier && earlier.owner !== owner) throw notYours(name, earlier.owner);
    if (!earlier && this.named.size >= this.limits.maxCatalogs) {
      throw new LimitError(
        'name',
        `the registry is full: ${this.named.size} catalogs (limit ${this.limits.maxCatalogs}); delete one first`,
        'full',
      );
    }
    if (bytes > this.limits.maxCatalogBytes)
      throw new LimitError(
        'catalog',
        `${bytes} bytes: larger than the registry holds (limit ${this.limits.maxCatalogBytes})`,
        'too-large',
      );
    const after = this.total - (earlier?.bytes ?? 0) + bytes;
    if (after > this.limits.maxCatalogBytes) {
      throw new LimitError(
        'catalog',
        `the registry is full: ${after} bytes of catalogs with this one (limit ${this.limits.maxCatalogBytes})`,
        'full',
      );
    }
    return earlier;
  }

  private register(name: string, catalog: Catalog, owner: string, bytes: number) {
    const earlier = this.admit(name, bytes, owner);
    this.total += bytes - (earlier?.bytes ?? 0);
    const entry: Entry = { name, version: ++this.version, catalog, owner, bytes };
    this.named.set(name, entry);
    return { info: describe(entry), created: !earlier };
  }

  /** Parses (in this thread) and registers a catalog in memory: for start-up. */
  add(name: string, json: unknown, owner = SERVER_OWNER): { info: CatalogInfo; created: boolean } {
    const { bytes } = jsonBytes(json);
    this.admit(name, bytes, owner);
    const catalog = parseCatalog(json, { maxOutputDepth: this.limits.maxOutputDepth });
    return this.register(name, catalog, owner, bytes);
  }

  /**
   * Registers (or replaces) `owner`'s catalog: checked against the limits and ownership before parsing,
   * parsed off the main thread, then written to the catalog directory (atomically) when there is one.
   */
  async put(
    name: string,
    json: unknown,
    owner = SERVER_OWNER,
    work?: Pick<RequestWork, 'signal' | 'hold'>,
  ): Promise<{ info: CatalogInfo; created: boolean }> {
    const { text, bytes } = jsonBytes(json);
    this.admit(name, bytes, owner);
    const parsing = Promise.resolve(this.parse(json, work?.signal));
    const catalog = await (work ? work.hold(parsing) : parsing);
    // Checked again: other registrations may have landed while this one was parsed.
    const out = this.register(name, catalog, owner, bytes);
    if (this.dir) {
      const path = join(this.dir, `${name}.json`);
      const temporary = `${path}.${process.pid}.${out.info.version}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, path);
      // No owner file: the server's own (read-only for clients).
      const ownerFile = join(this.dir, `${name}.owner`);
      if (owner !== SERVER_OWNER) await writeFile(ownerFile, `${owner}\n`);
      else if (existsSync(ownerFile)) await unlink(ownerFile);
    }
    return out;
  }

  /** Deletes `owner`'s catalog; false when there is none of that name. */
  async delete(name: string, owner = SERVER_OWNER): Promise<boolean> {
    const entry = this.named.get(name);
    if (!entry) return false;
    if (entry.owner !== owner) throw notYours(name, entry.owner);
    this.named.delete(name);
    this.total -= entry.bytes;
    if (this.dir) {
      for (const file of [`${name}.json`, `${name}.owner`]) {
        const path = join(this.dir, file);
        if (existsSync(path)) await unlink(path);
      }
    }
    return true;
  }

  list(): CatalogInfo[] {
    return [...this.named.values()].map(describe).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  get size(): number {
    return this.named.size;
  }

  /** Bytes of JSON of the registered catalogs. */
  get bytes(): number {
    return this.total;
  }

  private parse(json: unknown, signal?: AbortSignal): Promise<Catalog> | Catalog {
    const depth = this.limits.maxOutputDepth;
    return this.options.parser
      ? this.options.parser.parse(json, depth, signal)
      : parseCatalog(json, { maxOutputDepth: depth });
  }

  /**
   * Parses an inline catalog ahead of `resolve` (off the main thread) and keeps it until `release` is
   * called, so the request that brought it finds it whatever else the cache evicts meanwhile.
   */
  async prepareInline(inline: unknown, signal?: AbortSignal): Promise<() => void> {
    const { hash, bytes } = digestOf(inline);
    let held = this.pinned.get(hash);
    if (!held) {
      const cached = this.inline.get(hash);
      const catalog = cached?.catalog ?? (await this.parse(inline, signal));
      held = this.pinned.get(hash) ?? { catalog, bytes, pins: 0 };
      this.pinned.set(hash, held);
      this.inline.set(hash, { catalog, bytes });
    }
    held.pins++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--held.pins === 0) this.pinned.delete(hash);
    };
  }

  /** The catalog of a request: by name, or inline JSON; exactly one must be given. */
  resolve(catalogName: string | undefined, inline: unknown): ResolvedCatalog {
    if (catalogName !== undefined && inline !== undefined) {
      throw new InputError('catalog', 'give either catalog or catalogName, not both');
    }
    if (catalogName !== undefined) {
      const entry = this.named.get(catalogName);
      if (!entry) {
        const known = this.list().map((c) => c.name);
        const listed = known.length ? known.slice(0, 20).join(', ') : 'none registered';
        throw new InputError('catalogName', `no catalog named ${JSON.stringify(catalogName)} (${listed})`);
      }
      const ref = { key: `name:${entry.name}`, version: entry.version };
      return { ref, catalog: entry.catalog, bytes: entry.bytes };
    }
    if (inline === undefined) throw new InputError('catalog', 'required: an inline catalog or a catalogName');
    const { hash, bytes } = digestOf(inline);
    let found = this.pinned.get(hash) ?? this.inline.get(hash);
    if (!found) {
      found = { catalog: parseCatalog(inline, { maxOutputDepth: this.limits.maxOutputDepth }), bytes };
      this.inline.set(hash, found);
    }
    return { ref: { key: `inline:${hash}`, version: 0 }, catalog: found.catalog, bytes };
  }
}

function describe(entry: Entry): CatalogInfo {
  return { name: entry.name, apis: entry.catalog.apis.length, version: entry.version };
}
