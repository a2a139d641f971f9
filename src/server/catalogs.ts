/**
 * Catalogs known to the server. Named catalogs are parsed once when registered and kept as the same
 * `Catalog` object (its index is cached by identity); every registration gets a new version, so workers
 * know when their copy is stale. Inline catalogs are cached by a hash of their JSON, so an agent that
 * sends the same catalog with every request pays for parsing once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { CATALOG_NAME } from '../api/request.ts';
import type { CatalogInfo } from '../api/result.ts';

/** A catalog as jobs refer to it: `key` names it for the workers' caches, `version` tells copies apart. */
export interface CatalogRef {
  readonly key: string;
  readonly version: number;
}

export interface ResolvedCatalog {
  readonly ref: CatalogRef;
  readonly catalog: Catalog;
}

interface Entry {
  readonly name: string;
  readonly version: number;
  readonly catalog: Catalog;
}

const INLINE_CACHE = 32;

export function checkCatalogName(name: string, field = 'name'): string {
  if (!CATALOG_NAME.test(name)) {
    throw new InputError(
      field,
      'expected 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  }
  return name;
}

export class CatalogStore {
  private readonly named = new Map<string, Entry>();
  private readonly inline = new Map<string, Catalog>();
  private version = 0;

  /** `dir`: where registrations are persisted (and loaded from now). */
  constructor(private readonly dir?: string) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir).sort()) {
      const name = file.endsWith('.json') ? file.slice(0, -5) : '';
      if (!CATALOG_NAME.test(name)) continue;
      const text = readFileSync(join(dir, file), 'utf8');
      try {
        this.add(name, JSON.parse(text));
      } catch (error) {
        const problem = error instanceof InputError ? error.message : (error as Error).message;
        throw new InputError('catalog-dir', `${join(dir, file)}: ${problem}`);
      }
    }
  }

  /** Parses and registers (or replaces) a catalog in memory; returns its description and whether it is new. */
  add(name: string, json: unknown): { info: CatalogInfo; created: boolean } {
    checkCatalogName(name);
    const catalog = parseCatalog(json);
    const created = !this.named.has(name);
    const entry = { name, version: ++this.version, catalog };
    this.named.set(name, entry);
    return { info: describe(entry), created };
  }

  /** `add`, then writes the JSON to the catalog directory (atomically) when there is one. */
  async put(name: string, json: unknown): Promise<{ info: CatalogInfo; created: boolean }> {
    const out = this.add(name, json);
    if (this.dir) {
      const path = join(this.dir, `${name}.json`);
      const temporary = `${path}.${process.pid}.${out.info.version}.tmp`;
      await writeFile(temporary, JSON.stringify(json));
      await rename(temporary, path);
    }
    return out;
  }

  async delete(name: string): Promise<boolean> {
    if (!this.named.delete(name)) return false;
    const path = this.dir ? join(this.dir, `${name}.json`) : undefined;
    if (path && existsSync(path)) await unlink(path);
    return true;
  }

  list(): CatalogInfo[] {
    return [...this.named.values()].map(describe).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  get size(): number {
    return this.named.size;
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
      return { ref: { key: `name:${entry.name}`, version: entry.version }, catalog: entry.catalog };
    }
    if (inline === undefined) throw new InputError('catalog', 'required: an inline catalog or a catalogName');
    const hash = createHash('sha256').update(JSON.stringify(inline)).digest('hex');
    let catalog = this.inline.get(hash);
    if (catalog) {
      this.inline.delete(hash);
    } else {
      catalog = parseCatalog(inline);
      if (this.inline.size >= INLINE_CACHE) this.inline.delete(this.inline.keys().next().value!);
    }
    this.inline.set(hash, catalog);
    return { ref: { key: `inline:${hash}`, version: 0 }, catalog };
  }
}

function describe(entry: Entry): CatalogInfo {
  return { name: entry.name, apis: entry.catalog.apis.length, version: entry.version };
}
