/**
 * Tool catalogs → `Catalog`. Accepted, auto-detected per entry: NESTFUL spec arrays (every variant of the v1
 * and original releases), OpenAI tool definitions (`{type: "function", function: {...}}` or bare
 * `{name, description, parameters}`), MCP-style `inputSchema`/`outputSchema`, and `{tools}` / `{apis}` /
 * `{functions}` wrappers around any of these.
 */
import { z } from 'zod';
import type { ApiSpec, Catalog } from '../model/types.ts';
import { InputError, formatPath, parseAt, type FieldPath } from '../model/errors.ts';
import { loadJsonWith } from './files.ts';
import { isPlainObject, kindOf, nameSchema, own, plainObject, type PlainObject } from './json.ts';
import { parseOutputs } from './outputs.ts';
import { parseParams, PARAM_CONTAINERS, unknownParamKey } from './params.ts';
import { plainSchema } from './json-schema.ts';

export interface CatalogOptions {
  /**
   * What to do with two entries of the same name: `merge-identical` (default) keeps one copy when both
   * normalise to the same API and rejects differing ones; `error` rejects every repeat.
   */
  readonly duplicates?: 'merge-identical' | 'error';
  /** Deepest output path accepted (default 128); deeper is a `LimitError`. */
  readonly maxOutputDepth?: number;
}

/** Where output schemas may be declared, first found wins. */
const OUTPUT_KEYS = ['output_parameters', 'x-outputs', 'outputSchema', 'output_schema'] as const;
const WRAPPER_KEYS = ['tools', 'apis', 'functions'] as const;
/**
 * Keys that read like an output declaration (`x-output`, `outputs`, `output_params`; not NESTFUL's
 * `output_parser`): a slip would leave the outputs unknown and every reference into them unchecked.
 */
const LOOKS_LIKE_OUTPUTS = /^(x[-_]?)?outputs?([-_]?(schema|params?|parameters?))?$/i;

const entryHead = z.looseObject({
  name: nameSchema,
  description: z.string().nullish(),
});

/** One catalog entry at `at` → ApiSpec. */
function parseEntry(raw: unknown, at: FieldPath, options: CatalogOptions): ApiSpec {
  let entry = parseAt(plainObject, raw, at);
  let where = at;
  // An OpenAI tool may declare its outputs beside `function` as well as in it (in it wins).
  let outside: { entry: PlainObject; at: FieldPath } | undefined;
  const type = own(entry, 'type');
  if (type === 'function' && isPlainObject(own(entry, 'function'))) {
    outside = { entry, at };
    entry = own(entry, 'function') as PlainObject;
    where = [...at, 'function'];
  } else if (typeof type === 'string' && type !== 'function' && own(entry, 'name') === undefined) {
    throw new InputError(formatPath([...at, 'type']), `unsupported tool type ${JSON.stringify(type)}`);
  }
  entry = schemasRead(entry);
  if (outside) outside = { ...outside, entry: schemasRead(outside.entry) };
  const head = parseAt(entryHead, entry, where);
  if (own(entry, 'label') !== undefined) {
    throw new InputError(
      formatPath([...where, 'label']),
      'a catalog entry has no label: this is a tool-call sequence, not a catalog',
    );
  }
  const unknown = unknownParamKey(entry, OUTPUT_KEYS);
  if (unknown !== undefined) {
    throw new InputError(
      formatPath([...where, unknown]),
      `unknown key: parameters go under ${PARAM_CONTAINERS.join(', ')}`,
    );
  }
  for (const place of [{ entry, at: where }, ...(outside ? [outside] : [])]) {
    // Only a schema-like value is taken for a slip: `output: "a list of flights"` is a note.
    const slip = Object.keys(place.entry).find(
      (key) =>
        LOOKS_LIKE_OUTPUTS.test(key) &&
        !(OUTPUT_KEYS as readonly string[]).includes(key) &&
        (isPlainObject(own(place.entry, key)) || Array.isArray(own(place.entry, key))),
    );
    if (slip !== undefined)
      throw new InputError(
        formatPath([...place.at, slip]),
        `unknown key: outputs go under ${OUTPUT_KEYS.join(', ')}`,
      );
  }
  const declared = (place: PlainObject) =>
    OUTPUT_KEYS.find((key) => own(place, key) !== undefined && own(place, key) !== null);
  const inside = declared(entry);
  const beside = inside === undefined && outside ? declared(outside.entry) : undefined;
  return {
    name: head.name,
    description: head.description ?? '',
    params: parseParams(entry, where),
    outputs: inside
      ? parseOutputs(own(entry, inside), [...where, inside], options.maxOutputDepth)
      : beside && outside
        ? parseOutputs(own(outside.entry, beside), [...outside.at, beside], options.maxOutputDepth)
        : null,
  };
}

/** An entry with its parameter and output schemas read as plain shapes (`plainSchema`: `$ref`, `anyOf`, …). */
function schemasRead(entry: PlainObject): PlainObject {
  let out = entry;
  for (const key of [...PARAM_CONTAINERS, ...OUTPUT_KEYS]) {
    const schema = own(entry, key);
    const read = isPlainObject(schema) ? plainSchema(schema) : schema;
    if (read !== schema) out = { ...out, [key]: read };
  }
  return out;
}

/** The entries of a catalog document and the path of each. */
function catalogEntries(json: unknown): { raw: unknown; at: FieldPath }[] {
  if (Array.isArray(json)) return json.map((raw, i) => ({ raw, at: ['catalog', i] }));
  if (isPlainObject(json)) {
    for (const key of WRAPPER_KEYS) {
      const list = own(json, key);
      if (list === undefined) continue;
      if (!Array.isArray(list))
        throw new InputError(`catalog.${key}`, `expected array, received ${kindOf(list)}`);
      return list.map((raw, i) => ({ raw, at: ['catalog', key, i] }));
    }
    if (typeof own(json, 'name') === 'string' || isPlainObject(own(json, 'function'))) {
      return [{ raw: json, at: ['catalog'] }];
    }
  }
  // A string is a catalog's name or path where the catalog itself goes.
  const named = typeof json === 'string' ? ': the catalog itself, not its name or path' : '';
  throw new InputError(
    'catalog',
    `expected an array of APIs, {"tools": [...]} or {"apis": [...]}, received ${kindOf(json)}${named}`,
  );
}

/** Parses a tool catalog in any supported format. */
export function parseCatalog(json: unknown, options: CatalogOptions = {}): Catalog {
  const byName = new Map<string, { api: ApiSpec; at: FieldPath; key: string | null }>();
  const entries = catalogEntries(json);
  // Without an API every call is unknown: each would be deleted, and the repair an empty plan.
  if (entries.length === 0) throw new InputError('catalog', 'empty: expected at least one API');
  for (const { raw, at } of entries) {
    const api = parseEntry(raw, at, options);
    const earlier = byName.get(api.name);
    if (!earlier) {
      byName.set(api.name, { api, at, key: null });
      continue;
    }
    earlier.key ??= JSON.stringify(earlier.api);
    if (options.duplicates === 'error' || earlier.key !== JSON.stringify(api)) {
      throw new InputError(
        formatPath([...at, 'name']),
        `duplicate API name ${JSON.stringify(api.name)} (first declared at ${formatPath(earlier.at)})`,
      );
    }
  }
  return { apis: [...byName.values()].map((e) => e.api) };
}

/** Reads and parses a catalog file (JSON). Errors name the file and the field. */
export function loadCatalog(path: string, options: CatalogOptions = {}): Catalog {
  return loadJsonWith(path, (json) => parseCatalog(json, options));
}
