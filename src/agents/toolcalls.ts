/**
 * OpenAI-style tool calls <-> `Sequence`. Calls are labelled `var1`, `var2`... by position, skipping labels
 * already taken (by a call's own `label`, by memory or by an executed call), so a reference `$var1.x$` written by the model
 * names the first call; a call whose `id` another call refers to (`$call_1.x$`) is labelled by that id. Repaired steps map back to the input calls through their final labels.
 */
import { InputError } from '../model/errors.ts';
import { isPlainObject, own, type PlainObject } from '../read/json.ts';
import { parseSequence, placeLabels } from '../read/sequence.ts';
import type { Catalog, Edit, Memory, Sequence, Step } from '../model/types.ts';
import { healToolCalls } from '../heal/toolcalls.ts';
import type { HealEdit, HealOptions } from '../heal/types.ts';
import { healValues } from '../heal/values.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';

/** A tool call as OpenAI's chat API writes it; `arguments` may be malformed JSON. */
export interface ToolCall {
  readonly id?: string;
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments?: string | object };
}

/** A tool call ready to execute: arguments are JSON text of an object. */
export interface ExecutableCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * Gives every unlabelled call (other than the answer step) a label (`placeLabels`), past those memory and
 * the executed calls hold.
 */
function withLabels(
  calls: readonly unknown[],
  memory: Memory,
  executed: Sequence,
  resultName: string,
): unknown[] {
  const nameOf = (call: PlainObject) => {
    const fn = own(call, 'function');
    return isPlainObject(fn) ? own(fn, 'name') : own(call, 'name');
  };
  // A given label (even a bad one, which the parser then reports) stays; null counts as none.
  const labels = placeLabels(
    calls,
    (call) => isPlainObject(call) && own(call, 'label') == null && nameOf(call) !== resultName,
    [...Object.keys(memory), ...executed.flatMap((call) => (call.label === undefined ? [] : [call.label]))],
  );
  return calls.map((call, i) =>
    labels[i] === undefined ? call : { ...(call as PlainObject), label: labels[i] },
  );
}

export interface ParsedCalls {
  readonly sequence: Sequence;
  readonly heal: readonly HealEdit[];
}

/** Heals, labels and parses OpenAI tool calls; throws an `InputError` for calls that stay unreadable. */
export function toSequence(
  calls: readonly unknown[],
  catalog: Catalog,
  options: HealOptions & { readonly memory?: Memory; readonly executed?: Sequence } = {},
): ParsedCalls {
  if (!Array.isArray(calls)) throw new InputError('tool_calls', 'expected an array of tool calls');
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const raw = healToolCalls(calls, options);
  const labelled = withLabels(raw.calls, options.memory ?? {}, options.executed ?? [], resultName);
  const parsed = parseSequence(labelled, { root: 'tool_calls', resultName });
  const values = healValues(parsed, catalog, options);
  return { sequence: values.sequence, heal: [...raw.edits, ...values.edits] };
}

/** The final label of each input step that the repair kept (`undefined` = deleted). */
function finalLabels(input: Sequence, edits: readonly Edit[]): (string | null | undefined)[] {
  const labels: (string | null | undefined)[] = input.map((s) => s.label ?? null);
  for (const e of edits) {
    if (e.kind === 'deleteStep') labels[e.step] = undefined;
    else if ((e.kind === 'relabel' || e.kind === 'addLabel') && e.to !== undefined) labels[e.step] = e.to;
  }
  return labels;
}

/** The input step each output step comes from (`-1` for an inserted call). */
export function originOf(input: Sequence, output: Sequence, edits: readonly Edit[]): number[] {
  const labels = finalLabels(input, edits);
  const byLabel = new Map<string, number>();
  labels.forEach((l, i) => {
    if (typeof l === 'string' && !byLabel.has(l)) byLabel.set(l, i);
  });
  const unlabelled = labels.flatMap((l, i) => (l === null ? [i] : []));
  return output.map((step) => {
    if (step.label !== undefined) return byLabel.get(step.label) ?? -1;
    const i = unlabelled.findIndex((k) => input[k].name === step.name);
    return i === -1 ? -1 : unlabelled.splice(i, 1)[0];
  });
}

function idOf(call: unknown): string | undefined {
  const id = isPlainObject(call) ? own(call, 'id') : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The steps as executable tool calls; ids come from the input calls they were made from. */
export function toToolCalls(
  steps: readonly Step[],
  origin: readonly number[],
  input: readonly unknown[],
): ExecutableCall[] {
  const taken = new Set(input.map(idOf).filter((id) => id !== undefined));
  let fresh = 0;
  return steps.map((step, k) => {
    let id = origin[k] >= 0 ? idOf(input[origin[k]]) : undefined;
    if (id === undefined) {
      do id = `call_refract_${++fresh}`;
      while (taken.has(id));
      taken.add(id);
    }
    return { id, type: 'function', function: { name: step.name, arguments: JSON.stringify(step.arguments) } };
  });
}
