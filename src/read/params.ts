/**
 * Input parameters of a catalog entry → `ParamSpec`s. Parameters may sit under `query_parameters`,
 * `parameters`, `arguments`, `path_parameters` (NESTFUL variants), `input_parameters`, `inputs` or
 * `inputSchema` / `input_schema`; each container is either a NESTFUL map (`{p: {type, required, enum,
 * ...}}`) or a JSON Schema object (`{type: "object", properties, required: [...]}`). Containers are
 * merged. Any other key that reads like a parameter container is an error naming it: an API must never
 * lose its parameters in silence.
 */
import { z } from 'zod';
import type { Json, ParamSpec } from '../model/types.ts';
import { InputError, formatPath, parseAt, type FieldPath } from '../model/errors.ts';
import { isPlainObject, jsonValue, kindOf, nameSchema, own, plainObject, type PlainObject } from './json.ts';
import { isSchemaWrapper, typeSpec } from './outputs.ts';
import { isTypeName, normaliseType } from './value-type.ts';

/** Where parameters may be declared, in merge order. */
export const PARAM_CONTAINERS = [
  'query_parameters',
  'path_parameters',
  'parameters',
  'arguments',
  'input_parameters',
  'inputs',
  'inputSchema',
  'input_schema',
] as const;

/** Keys that read like a parameter container. */
const LOOKS_LIKE_PARAMS = /param|input|arg/i;

/** An entry key that would hold parameters but is none of the containers read (`outputs` are not asked). */
export function unknownParamKey(entry: PlainObject, outputKeys: readonly string[]): string | undefined {
  return Object.keys(entry).find(
    (key) =>
      LOOKS_LIKE_PARAMS.test(key) &&
      !(PARAM_CONTAINERS as readonly string[]).includes(key) &&
      !outputKeys.includes(key) &&
      own(entry, key) !== null,
  );
}

/** A list of allowed values; a bare string or number (`"1-100"`) is a note, not a list, and is ignored. */
const enumList = z.union([z.array(jsonValue), z.string(), z.number()]).nullish();

const nestfulParam = z.looseObject({
  type: typeSpec,
  description: z.string().nullish(),
  required: z.boolean().nullish(),
  optional: z.boolean().nullish(),
  enum: enumList,
  allowed_values: enumList,
  possible_values: enumList,
  default: jsonValue.optional(),
  default_value: jsonValue.optional(),
});

const schemaWrapper = z.looseObject({
  properties: plainObject.nullish(),
  required: z.array(z.string()).nullish(),
});

function firstList(
  ...lists: (readonly Json[] | string | number | null | undefined)[]
): readonly Json[] | undefined {
  for (const list of lists) if (Array.isArray(list) && list.length > 0) return list;
  return undefined;
}

/** One parameter from its declaration; `listedRequired` = named in a JSON Schema `required` list. */
function paramFrom(name: string, node: unknown, at: FieldPath, listedRequired: boolean): ParamSpec {
  if (typeof node === 'string') {
    // `{query: "New York"}` is a call's argument, not a declaration: a sequence is not a catalog.
    if (!isTypeName(node))
      throw new InputError(
        formatPath(at),
        `expected a type name or a parameter object, received ${JSON.stringify(node.slice(0, 40))}`,
      );
    return { name, type: normaliseType(node), required: listedRequired };
  }
  if (!isPlainObject(node)) throw new InputError(formatPath(at), `expected object, received ${kindOf(node)}`);
  // A list under `required` is an object parameter's own required keys (JSON Schema), not its requiredness.
  const spec = parseAt(
    nestfulParam,
    Array.isArray(own(node, 'required')) ? { ...node, required: undefined } : node,
    at,
  );
  let required: boolean;
  if (typeof spec.required === 'boolean') required = spec.required;
  else if (typeof spec.optional === 'boolean') required = !spec.optional;
  else required = listedRequired;
  const values = firstList(spec.enum, spec.allowed_values, spec.possible_values);
  const fallback = own(node, 'default') !== undefined ? spec.default : spec.default_value;
  return {
    name,
    type: normaliseType(spec.type),
    required,
    ...(values ? { enum: values } : {}),
    ...(spec.description ? { description: spec.description } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

/** The parameters of one container at `at`. */
function containerParams(container: PlainObject, at: FieldPath): { param: ParamSpec; at: FieldPath }[] {
  if (isSchemaWrapper(container)) {
    const schema = parseAt(schemaWrapper, container, at);
    const listed = new Set(schema.required ?? []);
    // A required name with no property is a spec's slip (a typo, a property left out): no call could give it.
    (schema.required ?? []).forEach((name, i) => {
      if (!Object.hasOwn(schema.properties ?? {}, name))
        throw new InputError(
          formatPath([...at, 'required', i]),
          `${JSON.stringify(name)} is required but not among the properties`,
        );
    });
    return Object.entries(schema.properties ?? {}).map(([name, node]) => {
      const where = [...at, 'properties', name];
      parseAt(nameSchema, name, where);
      return { param: paramFrom(name, node, where, listed.has(name)), at: where };
    });
  }
  // A NESTFUL map that marks its optional parameters (`optional: true`) and none required may leave the
  // others unmarked because they are required (Instagram's `username_or_id_or_url` beside an optional page
  // token): they stay optional, and say so (`impliedRequired`), for the repair model to read.
  const flag = (node: unknown, key: string) => isPlainObject(node) && typeof own(node, key) === 'boolean';
  const nodes = Object.values(container);
  const marksOptional = nodes.some((n) => flag(n, 'optional')) && !nodes.some((n) => flag(n, 'required'));
  return Object.entries(container).map(([name, node]) => {
    const where = [...at, name];
    parseAt(nameSchema, name, where);
    const param = paramFrom(name, node, where, false);
    const implied = marksOptional && !flag(node, 'optional');
    return { param: implied ? { ...param, impliedRequired: true } : param, at: where };
  });
}

/** All parameters of a catalog entry, merged over its containers. A name declared twice is an error. */
export function parseParams(entry: PlainObject, at: FieldPath): ParamSpec[] {
  const params = new Map<string, { param: ParamSpec; at: FieldPath }>();
  for (const key of PARAM_CONTAINERS) {
    const container = own(entry, key);
    if (container === undefined || container === null) continue;
    for (const found of containerParams(parseAt(plainObject, container, [...at, key]), [...at, key])) {
      const earlier = params.get(found.param.name);
      if (earlier) {
        throw new InputError(
          formatPath(found.at),
          `duplicate parameter (also declared at ${formatPath(earlier.at)})`,
        );
      }
      params.set(found.param.name, found);
    }
  }
  return [...params.values()].map((p) => p.param);
}
