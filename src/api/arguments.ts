/**
 * The shapes of the library's arguments, and `checked`, which puts a function behind them. Every function
 * the package exports is one of these wrappers (or checks its arguments itself): a garbage argument is an
 * `InputError` naming it (`result.status`, `options.catalog`), never a TypeError from deep inside. The
 * checks are cheap (the fields the function reads first, not a full parse) and reuse the request
 * vocabulary's parsers for user data (catalogs, sequences, options: the request schemas of
 * src/api/request.ts, goals against the catalog with `checkGoals`). The CLI, the batch and the server call
 * the core functions directly, so their hot paths pay nothing here.
 */
import { z } from 'zod';
import type { Catalog, Memory, Sequence, Step } from '../model/types.ts';
import type { RepairOptions } from '../model/options.ts';
import type { CompileOptions } from '../compile/context.ts';
import type { HealOptions } from '../heal/types.ts';
import { nearestName } from '../model/edit-distance.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { isPlainObject, jsonValue, kindOf } from '../read/json.ts';
import { checkSteps } from '../read/sequence.ts';
import { isLabel, notALabel } from '../read/references.ts';
import { parseMappings } from '../read/mappings.ts';
import { parseMemory } from '../read/memory.ts';
import { parseCostModel } from '../read/cost-models.ts';
import { REQUEST_FIELDS } from './request.ts';
import { StepSchema } from './result.ts';
import { checkGoalFields, checkGoals } from './goals.ts';
import { checkMinConfidence } from '../repair/repair.ts';

const count = z.number().int().positive().optional();

/**
 * Every option name the library's entry points read: repair, validate and compile options, heal options and
 * the agent hook's. A key outside it is a typo (`minConfidance`) that would otherwise be ignored in silence,
 * where a request over HTTP or MCP is refused for it. Each list is checked against its type below.
 */
const REPAIR_OPTION_NAMES = [
  'cost',
  'mappings',
  'catalogMappings',
  'solver',
  'backend',
  'givenOnly',
  'timeout',
  'deadline',
  'signal',
  'allowInsert',
  'goals',
  'mode',
  'defensive',
  'fixes',
  'confidence',
  'minConfidence',
  'confidenceEvidence',
  'maxModelVars',
  'maxModelNonzeros',
  'memory',
  'resultName',
  'types',
  'pseudoSteps',
  'executed',
  'maxTries',
] as const;
const COMPILE_OPTION_NAMES = ['strictTypes', 'keepDominated', 'budget'] as const;
const HEAL_OPTION_NAMES = ['repairJson', 'unpackJson', 'coerce', 'weights'] as const;

type Listed = (typeof REPAIR_OPTION_NAMES)[number];
// A name added to one of these option types and not to its list fails to compile here.
const everyRepairOption: Exclude<keyof RepairOptions, Listed> extends never ? true : never = true;
const everyCompileOption: Exclude<
  keyof CompileOptions,
  Listed | (typeof COMPILE_OPTION_NAMES)[number]
> extends never
  ? true
  : never = true;
const everyHealOption: Exclude<keyof HealOptions, Listed | (typeof HEAL_OPTION_NAMES)[number]> extends never
  ? true
  : never = true;
void [everyRepairOption, everyCompileOption, everyHealOption];

const OPTION_NAMES: ReadonlySet<string> = new Set([
  ...REPAIR_OPTION_NAMES,
  ...COMPILE_OPTION_NAMES,
  ...HEAL_OPTION_NAMES,
]);

/** Refuses a key no entry point reads, naming the closest one it may have meant. */
function knownKeys(
  value: Record<string, unknown>,
  name: string,
  also: readonly string[],
  known: ReadonlySet<string> = OPTION_NAMES,
): void {
  for (const key of Object.keys(value)) {
    if (known.has(key) || also.includes(key)) continue;
    throw new InputError(`${name}.${key}`, unknownName('option', key, [...known, ...also]));
  }
}

/**
 * `unknown option (did you mean maxRounds?)`: the known name a slip of `key` most likely meant (a third of
 * its letters at most: `foo` is no `cost`), else the list of the known ones.
 */
export function unknownName(kind: string, key: string, names: readonly string[]): string {
  const near = nearestName(key, names);
  return near ? `unknown ${kind} (did you mean ${near}?)` : `unknown ${kind} (known: ${names.join(', ')})`;
}

/** The library's options: the request fields they share, in their parsed form, and the library's own. */
const OptionsSchema = z.looseObject({
  types: REQUEST_FIELDS.types,
  resultName: REQUEST_FIELDS.resultName,
  catalogMappings: REQUEST_FIELDS.catalogMappings,
  solver: REQUEST_FIELDS.solver,
  givenOnly: REQUEST_FIELDS.givenOnly,
  allowInsert: REQUEST_FIELDS.allowInsert,
  timeout: REQUEST_FIELDS.timeout,
  mode: REQUEST_FIELDS.mode,
  defensive: REQUEST_FIELDS.defensive,
  confidence: REQUEST_FIELDS.confidence,
  fixes: REQUEST_FIELDS.fixes,
  minConfidence: REQUEST_FIELDS.minConfidence,
  maxTries: REQUEST_FIELDS.maxTries,
  pseudoSteps: z.boolean().optional(),
  deadline: z.number().finite().optional(),
  signal: z.instanceof(AbortSignal).optional(),
  backend: z
    .custom<object>(
      (v) => typeof v === 'object' && v !== null && typeof (v as { solve?: unknown }).solve === 'function',
      'expected a solver backend (an object with a solve method)',
    )
    .optional(),
  maxModelVars: count,
  maxModelNonzeros: count,
});

export const HealOptionsSchema = z.looseObject({
  repairJson: z.boolean().optional(),
  unpackJson: z.boolean().optional(),
  coerce: z.boolean().optional(),
  weights: z.record(z.string(), z.number().finite().min(0)).optional(),
  resultName: REQUEST_FIELDS.resultName,
});

/** A parsed catalog (from `loadCatalog` or `parseCatalog`), not its JSON. */
export function catalogArgument(value: unknown, name = 'catalog'): Catalog {
  if (isPlainObject(value) && Array.isArray(value.apis)) return value as unknown as Catalog;
  const hint = Array.isArray(value) || isPlainObject(value) ? ': parse its JSON with parseCatalog first' : '';
  throw new InputError(
    name,
    `expected a catalog from loadCatalog or parseCatalog, received ${kindOf(value)}${hint}`,
  );
}

/**
 * One parsed step (the response schema's `StepSchema`): a name, an arguments object of JSON values (no
 * `undefined`, `NaN` or function a hand-built step may hold: it would read as an argument given), an optional
 * label a reference can name.
 */
export function stepArgument(value: unknown, name: string): Step {
  parseAt(StepSchema, value, [name]);
  parseAt(ArgumentsSchema, (value as Step).arguments, [name, 'arguments']);
  const { label } = value as Step;
  if (label !== undefined && !isLabel(label)) throw new InputError(`${name}.label`, notALabel(label));
  return value as Step;
}

const ArgumentsSchema = z.record(z.string(), jsonValue);

/** A parsed sequence (from `parseSequence`): an array of steps. */
export function sequenceArgument(value: unknown, name = 'sequence'): Sequence {
  if (!Array.isArray(value))
    throw new InputError(
      name,
      `expected a sequence (an array of steps; parseSequence reads any form), received ${kindOf(value)}`,
    );
  value.forEach((step, i) => stepArgument(step, `${name}[${i}]`));
  return checkSteps(value as Sequence, [name]);
}

/** Options checked and normalised (memory, mappings and cost model in their parsed form). */
export function optionsArgument<T extends RepairOptions>(
  value: unknown,
  catalog: Catalog,
  name = 'options',
  also: readonly string[] = [],
): T {
  if (value === undefined) return {} as T;
  if (!isPlainObject(value)) throw new InputError(name, `expected object, received ${kindOf(value)}`);
  knownKeys(value, name, also);
  parseAt(OptionsSchema, value, [name]);
  const options = value as unknown as T;
  const normal: { -readonly [K in keyof RepairOptions]?: RepairOptions[K] } = {};
  if (options.memory !== undefined) normal.memory = parseMemory(options.memory, `${name}.memory`) as Memory;
  if (options.mappings !== undefined) normal.mappings = parseMappings(options.mappings, `${name}.mappings`);
  if (options.cost !== undefined) normal.cost = parseCostModel(options.cost, `${name}.cost`);
  if (options.goals !== undefined) normal.goals = checkGoals(options.goals, catalog, `${name}.goals`);
  if (options.executed !== undefined) sequenceArgument(options.executed, `${name}.executed`);
  checkGoalFields({ ...options, ...normal }, catalog, `${name}.goals`);
  if (options.minConfidence !== undefined)
    checkMinConfidence({ ...options, ...normal }, `${name}.minConfidence`);
  return Object.keys(normal).length === 0 ? options : { ...options, ...normal };
}

/** Checks one argument (throwing an InputError located at `name`) and returns the value to pass on. */
export type Check = (value: unknown, name: string, args: readonly unknown[]) => unknown;

/** `received` says what came: its kind, or (`shown`) the value itself where that is what went wrong. */
const fail = (name: string, expected: string, value: unknown, shown = kindOf(value)): never => {
  throw new InputError(name, `expected ${expected}, received ${shown}`);
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
      : fail(
          name,
          `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
          value,
          typeof value === 'string' ? JSON.stringify(value) : kindOf(value),
        );

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

/** Options of a function of the library: its listed fields checked, any other key refused (a slip). */
export const closed =
  (fields: Readonly<Record<string, Check>>, expected = 'object'): Check =>
  (value, name, args) => {
    if (isPlainObject(value)) knownKeys(value, name, [], new Set(Object.keys(fields)));
    return shaped(fields, expected)(value, name, args);
  };

/** An integer in [min, max] (`NaN`, `1.5` and `-1` refused, naming the field). */
export const integerIn =
  (min: number, max: number): Check =>
  (value, name) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? value
      : fail(
          name,
          `an integer in [${min}, ${max}]`,
          value,
          typeof value === 'number' ? String(value) : kindOf(value),
        );

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
