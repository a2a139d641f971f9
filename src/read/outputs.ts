/**
 * Output schemas → normalised output paths. A NESTFUL `output_parameters` map (`{field: {type, properties,
 * items}}` or `{field: "string"}`) and a JSON Schema (`{type: "object", properties}`) both become a flat list of
 * paths: nested properties are joined with `.`, array items add a `[]` segment, and every prefix is listed.
 */
import { z } from 'zod';
import type { OutputField, ValueType } from '../model/types.ts';
import { InputError, LimitError, formatPath, parseAt, type FieldPath } from '../model/errors.ts';
import { MAX_DEPTH, isPlainObject, kindOf, nameSchema, plainObject, type PlainObject } from './json.ts';
import { inferType, normaliseType } from './value-type.ts';

export const typeSpec = z.union([z.string(), z.array(z.string())]).nullish();

const fieldNode = z.looseObject({
  type: typeSpec,
  description: z.string().nullish(),
  properties: plainObject.nullish(),
  items: z.unknown().optional(),
});

const isContainer = (t: ValueType): boolean => t === 'object' || t === 'array';

/** True when a node is a JSON Schema wrapper (`{type: "object", properties: {...}}`) rather than a field map. */
export function isSchemaWrapper(node: PlainObject): boolean {
  const type = node.type;
  if (typeof type === 'string') return ['object', 'array'].includes(type.toLowerCase());
  if (Object.prototype.hasOwnProperty.call(node, '$schema')) return true;
  return isPlainObject(node.properties) && Array.isArray(node.required);
}

class Collector {
  readonly fields = new Map<string, OutputField>();

  /** `maxDepth`: the deepest output path accepted (keys and `[]` segments). */
  constructor(private readonly maxDepth: number) {}

  add(field: OutputField): void {
    // Every prefix is an output too, also for keys written as dotted paths.
    for (let i = 1; i < field.path.length; i++) {
      const arrayStep = field.path.startsWith('[]', i);
      if (field.path[i] !== '.' && !arrayStep) continue;
      const prefix = field.path.slice(0, i);
      if (!this.fields.has(prefix))
        this.fields.set(prefix, { path: prefix, type: arrayStep ? 'array' : 'object' });
    }
    if (!this.fields.has(field.path)) this.fields.set(field.path, field);
  }

  /** Adds the field at `path` described by `node`, then its children. */
  node(path: string, node: unknown, at: FieldPath, depth: number): void {
    if (depth > this.maxDepth) {
      throw new LimitError(formatPath(at), `output paths nested deeper than ${this.maxDepth} levels`);
    }
    if (typeof node === 'string') {
      const type = normaliseType(node);
      this.add(isContainer(type) ? { path, type, open: true } : { path, type });
      return;
    }
    if (!isPlainObject(node)) {
      throw new InputError(formatPath(at), `expected object or type name, received ${kindOf(node)}`);
    }
    const spec = parseAt(fieldNode, node, at);
    const properties = spec.properties ? Object.entries(spec.properties) : [];
    const items = spec.items ?? undefined;
    const hasItems = items !== undefined && !Array.isArray(items);
    const type = inferType(normaliseType(spec.type), properties.length > 0, hasItems);
    const open = isContainer(type) && properties.length === 0 && !hasItems;
    this.add({
      path,
      type,
      ...(spec.description ? { description: spec.description } : {}),
      ...(open ? { open: true } : {}),
    });
    this.children(path, properties, at, depth);
    if (hasItems) this.node(`${path}[]`, items, [...at, 'items'], depth + 1);
  }

  children(prefix: string, entries: [string, unknown][], at: FieldPath, depth: number): void {
    const base = prefix === '' ? [...at] : [...at, 'properties'];
    for (const [key, child] of entries) {
      // Every prefix of a path is stored: a long key would be copied into each path below it.
      parseAt(nameSchema, key, [...base, key]);
      this.node(prefix === '' ? key : `${prefix}.${key}`, child, [...base, key], depth + 1);
    }
  }
}

/**
 * The output fields declared by an output schema at `at`: a field map or a JSON Schema. `undefined`/`null`
 * (no declaration) gives `null`: outputs unknown.
 */
export function parseOutputs(
  container: unknown,
  at: FieldPath,
  maxDepth: number = MAX_DEPTH,
): OutputField[] | null {
  if (container === undefined || container === null) return null;
  const map = parseAt(plainObject, container, at);
  const collector = new Collector(Math.min(maxDepth, MAX_DEPTH));
  if (isSchemaWrapper(map)) {
    const root = parseAt(fieldNode, map, at);
    const type = inferType(normaliseType(root.type), Boolean(root.properties), root.items != null);
    if (type === 'array' && root.items != null && !Array.isArray(root.items)) {
      collector.node('[]', root.items, [...at, 'items'], 1);
    } else if (root.properties) {
      collector.children('', Object.entries(root.properties), [...at, 'properties'], 0);
    }
  } else {
    collector.children('', Object.entries(map), at, 0);
  }
  return [...collector.fields.values()];
}
