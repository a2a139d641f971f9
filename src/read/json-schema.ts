/**
 * JSON Schema as tool definitions write it (Pydantic, OpenAI's structured outputs), read into the plain shapes
 * the catalog reader takes: local references (`{"$ref": "#/$defs/Date"}`) replaced by what they name, and the
 * combinators read as one type. `anyOf`/`oneOf` without their `null` branch: one branch is that branch; only
 * constants are an enum of them; only objects are one object with every branch's properties (a field read
 * from any branch is one the API may return). `allOf` is its branches merged. Anything else is left open
 * (type any): a value of it is never refused for its type.
 */
import { isPlainObject, own, type PlainObject } from './json.ts';
import { setOwn } from '../model/objects.ts';

/** References followed in a row at most: a cycle (a tree node of tree nodes) ends as an open value. */
const MAX_REFERENCES = 16;

/**
 * Levels of a schema read at most: deeper, a node is left as written, for the catalog reader's own depth limit
 * to refuse it with its message (a hostile schema must not exhaust the stack here first).
 */
const MAX_LEVELS = 256;

/**
 * References expanded in one schema at most: a definition that names itself twice (a tree of trees) doubles
 * with every level; past this, a reference is an open value.
 */
const MAX_EXPANSIONS = 1000;

/** Where a schema keeps the definitions its references name. */
const DEFINITIONS = ['$defs', 'definitions'] as const;

/** The definitions a schema's references name, and the expansions it has left. */
interface Defs {
  readonly byName: Record<string, unknown>;
  expansions: number;
}

/** `schema` with its local references resolved and its combinators read (see above); others as they are. */
export function plainSchema(schema: unknown): unknown {
  if (!isPlainObject(schema) || !usesSchemaTerms(schema, 0)) return schema;
  const byName: Record<string, unknown> = {};
  for (const key of DEFINITIONS) {
    const found = own(schema, key);
    if (isPlainObject(found)) for (const [name, def] of Object.entries(found)) setOwn(byName, name, def);
  }
  return read(schema, { byName, expansions: MAX_EXPANSIONS }, 0, 0);
}

/** Keys that ask for more than a plain walk: the common schema (a NESTFUL map, plain properties) has none. */
const TERMS = new Set(['$ref', 'anyOf', 'oneOf', 'allOf', ...DEFINITIONS]);

/** Whether a key of `TERMS` is anywhere in `node` (a scan that allocates nothing: catalogs are large). */
function usesSchemaTerms(node: unknown, level: number): boolean {
  if (level > MAX_LEVELS || node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some((item) => usesSchemaTerms(item, level + 1));
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    if (TERMS.has(key) || usesSchemaTerms((node as PlainObject)[key], level + 1)) return true;
  }
  return false;
}

/** The definition `#/$defs/Name` (or `#/definitions/Name`) names, undefined for any other reference. */
function definition(ref: string, defs: Defs): unknown {
  const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
  if (name === undefined) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(name).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
  return Object.hasOwn(defs.byName, key) ? defs.byName[key] : undefined;
}

/** `node` read (see above): the very node when nothing in it changes, so a plain schema is not copied. */
function read(node: unknown, defs: Defs, followed: number, level: number): unknown {
  if (level > MAX_LEVELS) return node;
  if (Array.isArray(node)) {
    const items = node.map((item) => read(item, defs, followed, level + 1));
    return items.every((item, i) => item === node[i]) ? node : items;
  }
  if (!isPlainObject(node)) return node;
  let here: PlainObject = node;
  let depth = followed;
  const ref = own(here, '$ref');
  if (typeof ref === 'string') {
    const { $ref: _ref, ...siblings } = here;
    void _ref;
    const target = definition(ref, defs);
    if (!isPlainObject(target) || depth >= MAX_REFERENCES || defs.expansions <= 0) return siblings;
    defs.expansions--;
    here = { ...target, ...siblings };
    depth++;
  }
  here = combined(here, defs, depth, level);
  const entries = Object.entries(here);
  const values = entries.map(([key, value]) =>
    (DEFINITIONS as readonly string[]).includes(key) ? DROPPED : read(value, defs, depth, level + 1),
  );
  if (here === node && values.every((value, i) => value === entries[i][1])) return node;
  const out: PlainObject = {};
  entries.forEach(([key], i) => {
    if (values[i] !== DROPPED) setOwn(out, key, values[i]);
  });
  return out;
}

/** A key's value left out of the read node (the definitions, read where they are named). */
const DROPPED = Symbol('dropped');

const isNull = (branch: unknown) => isPlainObject(branch) && own(branch, 'type') === 'null';

/** One node's `anyOf`/`oneOf`/`allOf` read into the node itself. */
function combined(node: PlainObject, defs: Defs, depth: number, level: number): PlainObject {
  let here = node;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = own(here, key);
    if (!Array.isArray(list)) continue;
    const { [key]: _list, ...rest } = here;
    void _list;
    const branches = list.map((b) => read(b, defs, depth, level + 1)).filter((b) => !isNull(b));
    if (branches.length === 1 && isPlainObject(branches[0])) here = { ...branches[0], ...rest };
    else if (
      branches.length > 0 &&
      branches.every((b) => isPlainObject(b) && own(b, 'const') !== undefined)
    ) {
      const values = branches.map((b) => own(b as PlainObject, 'const'));
      const kinds = new Set(values.map((v) => (v === null ? 'null' : typeof v)));
      here = { ...(kinds.size === 1 ? { type: [...kinds][0] } : {}), ...rest, enum: values };
    } else if (
      branches.length > 1 &&
      branches.every((b) => isPlainObject(b) && isPlainObject(own(b, 'properties')))
    )
      here = { type: 'object', ...rest, properties: mergedProperties(branches as PlainObject[]) };
    else here = rest;
  }
  const all = own(here, 'allOf');
  if (Array.isArray(all)) {
    const { allOf: _all, ...rest } = here;
    void _all;
    const parts = all.map((b) => read(b, defs, depth, level + 1)).filter(isPlainObject);
    const withProperties = parts.filter((p) => isPlainObject(own(p, 'properties')));
    here = {};
    for (const part of [...parts, rest]) for (const [k, v] of Object.entries(part)) setOwn(here, k, v);
    if (withProperties.length > 1) here = { ...here, properties: mergedProperties(withProperties) };
    const required = parts.flatMap((p) => {
      const list = own(p, 'required');
      return Array.isArray(list) ? list : [];
    });
    if (required.length > 0) here = { ...here, required: [...new Set(required)] };
  }
  return here;
}

function mergedProperties(branches: readonly PlainObject[]): PlainObject {
  const out: PlainObject = {};
  for (const branch of branches)
    for (const [k, v] of Object.entries(own(branch, 'properties') as PlainObject)) setOwn(out, k, v);
  return out;
}
