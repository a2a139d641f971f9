/**
 * Tool-call sequences → `Sequence`. Auto-detected: a NESTFUL step array (`[{name, arguments, label?}]`), a
 * NESTFUL sample (`{input, output}`), OpenAI `tool_calls` (a bare array, an assistant message or a chat
 * completion), a single call, or text (JSON or the string form).
 */
import { z } from 'zod';
import type { Json, Memory, Sequence, Step } from '../model/types.ts';
import { InputError, formatPath, parseAt, type FieldPath } from '../model/errors.ts';
import { loadWith } from './files.ts';
import {
  MAX_NAME_LENGTH,
  isPlainObject,
  jsonObject,
  kindOf,
  nameSchema,
  own,
  parseJsonText,
  refuseSlips,
  type PlainObject,
} from './json.ts';
import { formatStringForm, parseStringForm } from './string-form.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { stepNumber } from '../model/numbers.ts';
import { findReferences, isLabel, notALabel, referencesProblem, referenceSites } from './references.ts';

export { formatStep, formatStringForm, parseStringForm } from './string-form.ts';

export interface SequenceOptions {
  /** Root name used in error paths (default `sequence`). */
  readonly root?: string;
  /** The answer pseudo-step: OpenAI calls of this name get no generated label (default `var_result`). */
  readonly resultName?: string;
  /** Labels the run already holds (memory items, executed calls): an OpenAI call without a label gets none. */
  readonly held?: readonly string[];
  /**
   * An OpenAI call without a label whose `id` is one of these is labelled by it: the executed calls, when
   * memory keeps their results by tool-call id.
   */
  readonly idLabels?: readonly string[];
}

/** A step as written in NESTFUL files. */
export interface NestfulStep {
  name: string;
  arguments: { [param: string]: Json };
  label?: string;
}

const nestfulStep = z.looseObject({
  name: nameSchema,
  arguments: z.unknown().optional(),
  label: nameSchema.nullish(),
});

const toolCall = z.looseObject({
  id: z.string().nullish(),
  type: z.literal('function').nullish(),
  label: nameSchema.nullish(),
  function: z.looseObject({ name: nameSchema, arguments: z.unknown().optional() }),
});

const STEP_KEYS = ['name', 'arguments', 'label'] as const;
const CALL_KEYS = ['id', 'type', 'label', 'function', 'index'] as const;
const FUNCTION_KEYS = ['name', 'arguments'] as const;

/** Arguments as an object or as a JSON string holding one; `describe` names the call in errors. */
function parseArguments(raw: unknown, at: FieldPath, describe: string): Record<string, Json> {
  let value = raw;
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new InputError(
        formatPath(at),
        `arguments of ${describe} are not valid JSON (${(error as Error).message})`,
      );
    }
  }
  return parseAt(jsonObject, value, at);
}

function isToolCall(item: unknown): boolean {
  return isPlainObject(item) && isPlainObject(own(item, 'function'));
}

/**
 * Checks that bound what one sequence can cost: a label no reference can name would make every reference
 * to it literal text (a sequence judged executable because its references went unseen); parameter names
 * and reference keys are names, capped like every name; and an argument holds at most
 * `MAX_REFERENCES_PER_ARGUMENT` references, since each one becomes a set of model variables.
 */
export function checkSteps<S extends Sequence>(steps: S, at: FieldPath): S {
  steps.forEach((step, i) => {
    if (step.label !== undefined && !isLabel(step.label))
      throw new InputError(formatPath([...at, i, 'label']), notALabel(step.label));
    for (const [param, value] of Object.entries(step.arguments)) {
      if (param.length > MAX_NAME_LENGTH) {
        throw new InputError(
          formatPath([...at, i, 'arguments']),
          `a parameter name longer than ${MAX_NAME_LENGTH} characters (${param.length})`,
        );
      }
      const problem = referencesProblem(referenceSites(param, value));
      if (problem) throw new InputError(formatPath([...at, i, 'arguments', param]), problem);
    }
  });
  return steps;
}

/**
 * The ids of tool calls that another call refers to (`"$call_1.temp$"`), among the labels not `taken`: such a
 * call, given no `label`, is labelled by its id (the first call of that id only). An id that is another
 * call's place-name (`var2` on the first call) is not taken: `$var2$` keeps naming the second call.
 * Arguments are read as written (JSON text or an object).
 */
function referredIds(items: readonly unknown[], taken: ReadonlySet<string>): Set<string> {
  const referred = new Set<string>();
  for (const item of items) {
    const fn = isPlainObject(item) ? own(item, 'function') : undefined;
    const args = isPlainObject(fn) ? own(fn, 'arguments') : undefined;
    if (args === undefined || args === null) continue;
    const text = typeof args === 'string' ? args : JSON.stringify(args);
    for (const found of findReferences(text)) referred.add(found.ref.label);
  }
  const ids = new Set<string>();
  items.forEach((item, i) => {
    const id = isToolCall(item) ? own(item as PlainObject, 'id') : undefined;
    if (typeof id !== 'string' || !isLabel(id) || !referred.has(id) || taken.has(id)) return;
    const place = /^var(\d+)$/.exec(id);
    if (place && Number(place[1]) !== i + 1 && Number(place[1]) <= items.length) return;
    ids.add(id);
  });
  return ids;
}

/**
 * The labels the items `unlabelled` picks get: a tool call's `id` when another call refers to it
 * (`referredIds`), else the first free `var<n>`, n from the item's place (undefined for the other items).
 * `taken`: labels in use besides the items' own (memory items, executed calls).
 */
export function placeLabels(
  items: readonly unknown[],
  unlabelled: (item: unknown) => boolean,
  taken: Iterable<string> = [],
  idLabels: Iterable<string> = [],
): (string | undefined)[] {
  const used = new Set(taken);
  for (const item of items) {
    const label = isPlainObject(item) ? own(item, 'label') : undefined;
    if (typeof label === 'string') used.add(label);
  }
  const ids = referredIds(items, used);
  const named = new Set(idLabels);
  items.forEach((item) => {
    const id = isToolCall(item) ? own(item as PlainObject, 'id') : undefined;
    if (typeof id === 'string' && named.has(id) && isLabel(id) && !used.has(id) && unlabelled(item))
      ids.add(id);
  });
  for (const id of ids) used.add(id);
  return items.map((item, i) => {
    if (!unlabelled(item)) return undefined;
    const id = isPlainObject(item) ? own(item, 'id') : undefined;
    if (typeof id === 'string' && ids.delete(id)) return id;
    let n = i + 1;
    while (used.has(`var${n}`)) n++;
    used.add(`var${n}`);
    return `var${n}`;
  });
}

/**
 * Parses an array whose items are NESTFUL steps or OpenAI tool calls (or a mix). A tool call without a
 * `label` gets one (`placeLabels`); the answer pseudo-step gets none.
 */
function parseSteps(items: readonly unknown[], at: FieldPath, options: SequenceOptions): Step[] {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const labels = placeLabels(
    items,
    (item) =>
      isToolCall(item) &&
      own(item as PlainObject, 'label') == null &&
      own(own(item as PlainObject, 'function') as PlainObject, 'name') !== resultName,
    options.held,
    options.idLabels,
  );
  const steps = items.map((item, i): Step => {
    const where = [...at, i];
    if (isToolCall(item)) {
      refuseSlips(item as PlainObject, CALL_KEYS, where);
      const fn = own(item as PlainObject, 'function');
      if (isPlainObject(fn)) refuseSlips(fn, FUNCTION_KEYS, [...where, 'function']);
      const call = parseAt(toolCall, item, where);
      const describe = `call ${stepNumber(i)}${call.id ? ` (id ${JSON.stringify(call.id)})` : ''} to ${call.function.name}`;
      const args = parseArguments(call.function.arguments, [...where, 'function', 'arguments'], describe);
      const label = call.label ?? labels[i];
      return label === undefined
        ? { name: call.function.name, arguments: args }
        : { name: call.function.name, arguments: args, label };
    }
    // A chat transcript is no plan: its assistant message's `tool_calls` are.
    if (isPlainObject(item) && typeof own(item, 'role') === 'string' && own(item, 'name') === undefined)
      throw new InputError(
        formatPath(where),
        `a chat message (role ${JSON.stringify(own(item, 'role'))}), not a step: give the assistant message, or its tool_calls`,
      );
    if (isPlainObject(item)) refuseSlips(item, STEP_KEYS, where);
    const step = parseAt(nestfulStep, item, where);
    const args = parseArguments(
      step.arguments,
      [...where, 'arguments'],
      `step ${stepNumber(i)} (${step.name})`,
    );
    return step.label == null
      ? { name: step.name, arguments: args }
      : { name: step.name, arguments: args, label: step.label };
  });
  return checkSteps(steps, at);
}

function parseObject(json: PlainObject, root: string, options: SequenceOptions): Sequence {
  const calls = own(json, 'tool_calls');
  if (calls !== undefined) {
    if (!Array.isArray(calls))
      throw new InputError(`${root}.tool_calls`, `expected array, received ${kindOf(calls)}`);
    return parseSteps(calls, [root, 'tool_calls'], options);
  }
  const output = own(json, 'output');
  if (Array.isArray(output)) return parseSteps(output, [root, 'output'], options);
  const choices = own(json, 'choices');
  if (Array.isArray(choices) && isPlainObject(choices[0]) && isPlainObject(own(choices[0], 'message'))) {
    return parseObject(own(choices[0], 'message') as PlainObject, `${root}.choices[0].message`, options);
  }
  if (own(json, 'sequence') !== undefined)
    return fromJson(own(json, 'sequence'), { ...options, root: `${root}.sequence` });
  if (typeof own(json, 'name') === 'string' || isToolCall(json)) return parseSteps([json], [root], options);
  const keys = Object.keys(json).slice(0, 5).join(', ');
  throw new InputError(
    root,
    `expected an array of steps, {"input", "output"}, tool_calls or the string form; received an object with keys ${keys || '(none)'}`,
  );
}

/**
 * The calls already executed, in any sequence form, read beside the run's memory. A tool call carries no label:
 * it takes the `id` memory keeps its result under; when memory is given and holds none under its id, it is
 * refused, since a label by place (`var1`, `var2`, …) could name another item's result in silence.
 */
export function parseExecuted(
  raw: unknown,
  memory: Memory | undefined,
  options: Pick<SequenceOptions, 'root' | 'resultName'> = {},
): Sequence {
  const root = options.root ?? 'executed';
  const keys = Object.keys(memory ?? {});
  // JSON text is read once, here: its tool calls are checked below (the string form labels every call or none).
  let value = raw;
  if (typeof raw === 'string')
    try {
      value = JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
    } catch {
      value = raw;
    }
  const steps = parseSequence(value, { ...options, root, idLabels: keys });
  const calls = isPlainObject(value) ? own(value, 'tool_calls') : value;
  const items = Array.isArray(calls) ? calls : [];
  if (keys.length > 0)
    items.forEach((item, i) => {
      if (!isToolCall(item) || own(item as PlainObject, 'label') != null) return;
      const label = steps[i]?.label;
      if (label !== undefined && keys.includes(label) && label === own(item as PlainObject, 'id')) return;
      const id = own(item as PlainObject, 'id');
      throw new InputError(
        formatPath([root, i]),
        `a tool call without a label${typeof id === 'string' ? ` whose id ${JSON.stringify(id)}` : ', with no id, whose result'} memory holds nothing under: give it the label its result is stored under (the checked steps carry them), or keep results under tool-call ids`,
      );
    });
  return steps;
}

/** The labels a run holds before its sequence: its memory items' and its executed calls'. */
export function heldLabels(memory: Memory | undefined, executed: Sequence | undefined): string[] {
  return [
    ...Object.keys(memory ?? {}),
    ...(executed ?? []).flatMap((call) => (call.label === undefined ? [] : [call.label])),
  ];
}

/** The options argument of the two parsers, checked once at their door. */
function checkOptions(options: SequenceOptions): void {
  if (!isPlainObject(options as unknown))
    throw new InputError('options', `expected object, received ${kindOf(options)}`);
}

/** Parses a sequence in any supported form (a string is read with `parseSequenceText`). */
export function parseSequence(json: unknown, options: SequenceOptions = {}): Sequence {
  checkOptions(options);
  return fromJson(json, options);
}

/** Parses text: JSON when it is JSON (any form `parseSequence` takes), else the string form. */
export function parseSequenceText(text: string, options: SequenceOptions = {}): Sequence {
  if (typeof text !== 'string') throw new InputError('input', `expected text, received ${kindOf(text)}`);
  checkOptions(options);
  return fromText(text, options);
}

function fromJson(json: unknown, options: SequenceOptions): Sequence {
  const root = options.root ?? 'sequence';
  if (typeof json === 'string') return withinValue(root, () => fromText(json, options));
  if (Array.isArray(json)) return parseSteps(json, [root], options);
  if (isPlainObject(json)) return parseObject(json, root, options);
  throw new InputError(root, `expected an array of steps, an object or text, received ${kindOf(json)}`);
}

/**
 * Parses text held in a JSON value at `root`: a string-form error (`line 1, column 12`) then names the value it
 * is in as its field (`sequence: line 1, column 12: …`), not a line of the file around it.
 */
function withinValue(root: string, parse: () => Sequence): Sequence {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InputError && error.field.startsWith('line '))
      throw new InputError(root, `${error.field}: ${error.problem}`);
    throw error;
  }
}

function fromText(text: string, options: SequenceOptions): Sequence {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trim();
  if (trimmed === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    if (trimmed[0] === '[' || trimmed[0] === '{') parseJsonText(trimmed, [options.root ?? 'sequence']);
    return checkSteps(parseStringForm(body), [options.root ?? 'sequence']);
  }
  return typeof json === 'string'
    ? checkSteps(parseStringForm(json), [options.root ?? 'sequence'])
    : fromJson(json, options);
}

/** Reads a sequence file (JSON in any form, or the string form). */
export function loadSequence(path: string, options: SequenceOptions = {}): Sequence {
  return loadWith(path, (text) => parseSequenceText(text, options));
}

/** The sequence as plain NESTFUL steps `{name, arguments, label}` (label omitted when absent). */
export function toNestful(seq: Sequence): NestfulStep[] {
  return seq.map((step) => ({
    name: step.name,
    arguments: step.arguments as { [param: string]: Json },
    ...(step.label !== undefined ? { label: step.label } : {}),
  }));
}

/** The string form of a sequence (alias of `formatStringForm`). */
export const toStringForm = formatStringForm;
