/**
 * The shapes of the library's arguments, and `checked`, which puts a function behind them. Every function
 * the package exports is one of these wrappers (or checks its arguments itself): a garbage argument is an
 * `InputError` naming it (`result.status`, `options.catalog`), never a TypeError from deep inside. The
 * checks are cheap (the fields the function reads first, not a full parse) and reuse the request
 * vocabulary's parsers for user data (catalogs, sequences, options). The CLI, the batch and the server call
 * the core functions directly, so their hot paths pay nothing here.
 */
import type { Catalog } from '../model/types.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { isPlainObject, kindOf } from '../read/json.ts';
import {
  catalogArgument,
  HealOptionsSchema,
  optionsArgument,
  sequenceArgument,
  stepArgument,
} from './library.ts';

/** Checks one argument (throwing an InputError located at `name`) and returns the value to pass on. */
export type Check = (value: unknown, name: string, args: readonly unknown[]) => unknown;

const fail = (name: string, expected: string, value: unknown): never => {
  throw new InputError(name, `expected ${expected}, received ${kindOf(value)}`);
};

const typed =
  (type: 'string' | 'number' | 'boolean' | 'function'): Check =>
  (value, name) =>
    typeof value === type && (type !== 'number' || !Number.isNaN(value)) ? value : fail(name, type, value);

export const anything: Check = (value) => value;
export const string = typed('string');
export const number = typed('number');
export const boolean = typed('boolean');
export const func = typed('function');

/** Any non-array object (class instances, streams and solver backends included). */
export const object: Check = (value, name) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : fail(name, 'object', value);

export const catalog: Check = (value, name) => catalogArgument(value, name);
export const sequence: Check = (value, name) => sequenceArgument(value, name);
export const step: Check = (value, name) => stepArgument(value, name);

export const optional =
  (check: Check): Check =>
  (value, name, args) =>
    value === undefined ? value : check(value, name, args);

export const nullable =
  (check: Check): Check =>
  (value, name, args) =>
    value === null ? value : check(value, name, args);

export const oneOf =
  (values: readonly unknown[]): Check =>
  (value, name) =>
    values.includes(value)
      ? value
      : fail(name, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, value);

/** An array whose every item passes `check`. */
export const arrayOf =
  (check: Check = anything): Check =>
  (value, name, args) => {
    if (!Array.isArray(value)) return fail(name, 'array', value);
    value.forEach((item, i) => check(item, `${name}[${i}]`, args));
    return value;
  };

/**
 * An iterable whose every item passes `check`: an array is checked at once; any other iterable is passed
 * on as one that checks each item as it is read (so a stream of sequences is never held in memory).
 */
export const iterableOf =
  (check: Check): Check =>
  (value, name, args) => {
    if (Array.isArray(value)) return arrayOf(check)(value, name, args);
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as Iterable<unknown>)[Symbol.iterator] !== 'function'
    )
      return fail(name, 'an iterable (an array, say)', value);
    const source = value as Iterable<unknown>;
    return {
      *[Symbol.iterator]() {
        let i = 0;
        for (const item of source) yield check(item, `${name}[${i++}]`, args);
      },
    };
  };

/** An object (of any class) whose listed fields pass their checks; other fields pass untouched. */
export const shaped =
  (fields: Readonly<Record<string, Check>>, expected = 'object'): Check =>
  (value, name, args) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return fail(name, expected, value);
    for (const [key, check] of Object.entries(fields))
      check((value as Record<string, unknown>)[key], `${name}.${key}`, args);
    return value;
  };

/** A plain object (JSON-like options), its listed fields checked. */
export const record =
  (fields: Readonly<Record<string, Check>> = {}): Check =>
  (value, name, args) =>
    isPlainObject(value) ? shaped(fields)(value, name, args) : fail(name, 'object', value);

/** Repair options, checked as `repair` checks them, against the catalog passed as argument `at`. */
export const repairOptions =
  (at: number): Check =>
  (value, name, args) =>
    optionsArgument(value, args[at] as Catalog, name);

/** Repair options inside an options object, against the catalog of its `catalog` field. */
export const nestedOptions: Check = (value, name, args) =>
  value === undefined ? value : optionsArgument(value, (args[0] as { catalog: Catalog }).catalog, name);

type Fn = (...args: never[]) => unknown;

function checkAll(params: Readonly<Record<string, Check>>, args: unknown[]): unknown[] {
  const names = Object.keys(params);
  const out = [...args];
  names.forEach((name, i) => {
    out[i] = params[name]!(args[i], name, out);
  });
  return out;
}

/** `core` behind checks of its parameters, named and in order; extra arguments pass unchecked. */
export function checked<F extends Fn>(core: F, params: Readonly<Record<string, Check>>): F {
  const wrapper = (...args: unknown[]) =>
    (core as unknown as (...a: unknown[]) => unknown)(...checkAll(params, args));
  Object.defineProperty(wrapper, 'name', { value: core.name });
  return wrapper as unknown as F;
}

/** As `checked`, for a core returning a promise: a bad argument rejects it as a failed call would. */
export function checkedAsync<F extends Fn>(core: F, params: Readonly<Record<string, Check>>): F {
  const wrapper = async (...args: unknown[]) =>
    (core as unknown as (...a: unknown[]) => unknown)(...checkAll(params, args));
  Object.defineProperty(wrapper, 'name', { value: core.name });
  return wrapper as unknown as F;
}

/** Healing options, checked as `heal` checks them; the value passes on as given. */
export const healOptions: Check = (value, name) => {
  if (value !== undefined) parseAt(HealOptionsSchema, value, [name]);
  return value;
};
