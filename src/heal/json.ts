/** Repair of malformed JSON text with `jsonrepair`, and unwrapping of JSON encoded twice. */
import { jsonrepair } from 'jsonrepair';
import { isPlainObject } from '../read/json.ts';

export interface RepairedText {
  /** Valid JSON text. */
  readonly text: string;
  readonly value: unknown;
  readonly detail: string;
}

/** Parses strictly; `undefined` when the text is not JSON. */
export function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** `jsonrepair`, or `undefined` when it gives up (it also overflows the stack on very deep nesting). */
function tryRepair(text: string): string | undefined {
  try {
    return jsonrepair(text);
  } catch {
    return undefined;
  }
}

/** Strict JSON, else repaired JSON; `undefined` when neither works. */
export function parseLenient(text: string, repair: boolean): { value: unknown; text: string } | undefined {
  const strict = tryParse(text);
  if (strict) return { value: strict.value, text };
  const repaired = repair ? tryRepair(text) : undefined;
  if (repaired === undefined) return undefined;
  const parsed = tryParse(repaired);
  return parsed && { value: parsed.value, text: repaired };
}

const wanted = (value: unknown, kind: 'object' | 'array'): boolean =>
  kind === 'object' ? isPlainObject(value) : Array.isArray(value);

/**
 * The text of an argument string repaired into a JSON object, or `undefined` when it is already one or
 * cannot become one (then the sequence parser reports it). A string holding an object is unwrapped.
 */
export function repairArgumentText(text: string): RepairedText | undefined {
  if (text.trim() === '') return undefined;
  const strict = tryParse(text);
  if (strict && isPlainObject(strict.value)) return undefined;
  const parsed = strict ? { value: strict.value, text } : parseLenient(text, true);
  if (!parsed) return undefined;
  if (isPlainObject(parsed.value)) return { ...parsed, detail: 'malformed JSON repaired' };
  if (typeof parsed.value === 'string') {
    const inner = parseLenient(parsed.value, true);
    if (inner && wanted(inner.value, 'object'))
      return { value: inner.value, text: inner.text, detail: 'JSON encoded twice, unwrapped' };
  }
  return undefined;
}

/** A string holding JSON of the wanted kind, parsed (repaired too when `repair`); else `undefined`. */
export function unpackText(text: string, kind: 'object' | 'array', repair: boolean): unknown {
  const head = text.trimStart()[0];
  if (head !== (kind === 'object' ? '{' : '[')) return undefined;
  const parsed = parseLenient(text, repair);
  return parsed && wanted(parsed.value, kind) ? parsed.value : undefined;
}
