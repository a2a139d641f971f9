/**
 * Healing of raw tool calls before they are parsed: an `arguments` string that is not a JSON object is
 * repaired, so `parseSequence` (which rejects malformed argument strings) can read it.
 */
import { isPlainObject, own, type PlainObject } from '../read/json.ts';
import { repairArgumentText } from './json.ts';
import { healWeight, type HealEdit, type HealOptions } from './types.ts';

export interface HealedCalls<T> {
  /** The input with every repairable argument string replaced by valid JSON text. */
  readonly calls: T;
  readonly edits: readonly HealEdit[];
}

/** One item (an OpenAI tool call or a NESTFUL step) with its argument text repaired. */
function healItem(item: unknown, step: number, options: HealOptions, edits: HealEdit[]): unknown {
  if (!isPlainObject(item)) return item;
  const fn = own(item, 'function');
  const holder: PlainObject = isPlainObject(fn) ? fn : item;
  const text = own(holder, 'arguments');
  if (typeof text !== 'string') return item;
  const repaired = repairArgumentText(text);
  if (!repaired) return item;
  edits.push({
    kind: 'repairJson',
    step,
    from: text,
    to: repaired.text,
    cost: healWeight('repairJson', options),
    detail: repaired.detail,
  });
  const healed = { ...holder, arguments: repaired.text };
  return holder === item ? healed : { ...item, function: healed };
}

function healList(list: readonly unknown[], options: HealOptions, edits: HealEdit[]): unknown[] {
  return list.map((item, i) => healItem(item, i, options, edits));
}

/**
 * Repairs the argument strings of raw tool calls: an array of OpenAI tool calls or NESTFUL steps, an
 * assistant message (`{tool_calls}`), a chat completion (`{choices: [{message}]}`), a NESTFUL sample
 * (`{output}`), a `{sequence}` wrapper or a single call.
 * Anything else is returned unchanged. With `repairJson: false` nothing is changed.
 */
export function healToolCalls<T>(raw: T, options: HealOptions = {}): HealedCalls<T> {
  const edits: HealEdit[] = [];
  if (options.repairJson === false) return { calls: raw, edits };
  const heal = (value: unknown): unknown => {
    if (Array.isArray(value)) return healList(value, options, edits);
    if (!isPlainObject(value)) return value;
    const calls = own(value, 'tool_calls');
    if (Array.isArray(calls)) return { ...value, tool_calls: healList(calls, options, edits) };
    const output = own(value, 'output');
    if (Array.isArray(output)) return { ...value, output: healList(output, options, edits) };
    const choices = own(value, 'choices');
    if (Array.isArray(choices) && isPlainObject(choices[0]) && isPlainObject(own(choices[0], 'message'))) {
      const message = heal(own(choices[0], 'message'));
      return { ...value, choices: [{ ...choices[0], message }, ...choices.slice(1)] };
    }
    const sequence = own(value, 'sequence');
    if (sequence !== undefined) return { ...value, sequence: heal(sequence) };
    return healItem(value, 0, options, edits);
  };
  return { calls: heal(raw) as T, edits };
}
