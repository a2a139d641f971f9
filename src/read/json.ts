/**
 * Safe handling of untrusted JSON: plain-object checks, prototype-safe copies (a `__proto__` key stays an
 * ordinary own key), depth and name-length limits, and JSON text parsing with located errors.
 */
import { z } from 'zod';
import type { Json } from '../model/types.ts';
import { InputError, formatPath, type FieldPath } from '../model/errors.ts';
import { setOwn } from '../model/objects.ts';
import { nearestName } from '../model/edit-distance.ts';

export { setOwn };

/** Longest accepted API, parameter or label name. */
export const MAX_NAME_LENGTH = 256;
/** Deepest accepted nesting of a JSON value or schema. */
export const MAX_DEPTH = 128;

export type PlainObject = Record<string, unknown>;

/**
 * True when `value` nests deeper than `max` levels, found without recursion (so without overflowing the
 * stack on a hostile document that `JSON.stringify` or a structured clone would choke on).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** True for `{...}` objects (object literal or null prototype), false for arrays, class instances, null. */
export function isPlainObject(value: unknown): value is PlainObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An own property's value (never an inherited one such as `constructor`). */
export function own(target: PlainObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(target, key) ? target[key] : undefined;
}

/** A human name for the kind of a value: `null`, `array`, `object`, `string`... */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

/** A plain object with any keys (no copy). */
export const plainObject = z.custom<PlainObject>(isPlainObject, {
  error: (issue) => `expected object, received ${kindOf(issue.input)}`,
});

/** A non-empty name of sane length. */
export const nameSchema = z
  .string()
  .min(1, 'expected a non-empty name')
  .max(MAX_NAME_LENGTH, `name longer than ${MAX_NAME_LENGTH} characters`);

class JsonPathError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/** A prototype-safe deep copy of a JSON value; throws `JsonPathError` on anything that is not JSON. */
function copyJson(value: unknown, path: (string | number)[]): Json {
  if (path.length > MAX_DEPTH) throw new JsonPathError(path, `nested deeper than ${MAX_DEPTH} levels`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value))
        throw new JsonPathError(path, `expected a finite number, received ${value}`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((item, i) => copyJson(item, [...path, i]));
      if (!isPlainObject(value))
        throw new JsonPathError(path, 'expected a JSON value, received a class instance');
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(value)) setOwn(out, k, copyJson(v, [...path, k]));
      return out;
    }
    default:
      throw new JsonPathError(path, `expected a JSON value, received ${typeof value}`);
  }
}

/** Any JSON value, copied prototype-safely. */
export const jsonValue = z.unknown().transform((value, ctx): Json => {
  try {
    return copyJson(value, []);
  } catch (error) {
    if (!(error instanceof JsonPathError)) throw error;
    ctx.issues.push({ code: 'custom', message: error.message, input: value, path: error.path });
    return z.NEVER;
  }
});

/** A JSON object of arguments (`{param: value}`), copied prototype-safely. */
export const jsonObject = z.unknown().transform((value, ctx): Record<string, Json> => {
  if (!isPlainObject(value)) {
    ctx.issues.push({ code: 'custom', message: `expected object, received ${kindOf(value)}`, input: value });
    return z.NEVER;
  }
  try {
    return copyJson(value, []) as Record<string, Json>;
  } catch (error) {
    if (!(error instanceof JsonPathError)) throw error;
    ctx.issues.push({ code: 'custom', message: error.message, input: value, path: error.path });
    return z.NEVER;
  }
});

/** Parses JSON text; a syntax error becomes an InputError at `at`. A leading byte-order mark is ignored. */
export function parseJsonText(text: string, at: FieldPath = []): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new InputError(formatPath(at), `invalid JSON (${(error as Error).message})`);
  }
}

/**
 * Refuses a key that reads as a slip of one `known` (`lable`, `argumnets`) and is not beside it: read as
 * written, the value would be lost in silence. Other keys (an agent's own notes) are left alone, unless
 * `strict` (a shape of this tool's own), where any other key is refused.
 */
export function refuseSlips(
  item: PlainObject,
  known: readonly string[],
  at: FieldPath,
  strict = false,
): void {
  for (const key of Object.keys(item)) {
    if (known.includes(key)) continue;
    const meant = nearestName(key, known);
    if (meant !== undefined && !Object.hasOwn(item, meant))
      throw new InputError(formatPath([...at, key]), `unknown key (did you mean ${meant}?)`);
    if (strict) throw new InputError(formatPath([...at, key]), `unknown key (known: ${known.join(', ')})`);
  }
}
