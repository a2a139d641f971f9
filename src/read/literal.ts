/**
 * Reading and writing the value literals of the string form: JSON values (double-quoted strings, numbers,
 * booleans, null, lists, objects), also accepting single-quoted strings and `True`/`False`/`None`.
 */
import type { Json } from '../model/types.ts';
import { MAX_DEPTH, setOwn } from './json.ts';

/** A syntax error at a character offset of the scanned text. */
export class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const LITERALS: ReadonlyMap<string, Json> = new Map<string, Json>([
  ['true', true],
  ['false', false],
  ['null', null],
  ['True', true],
  ['False', false],
  ['None', null],
]);
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Skips spaces and tabs. */
export function skipSpace(text: string, pos: number): number {
  while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t')) pos++;
  return pos;
}

/** Reads a quoted string starting at `pos` (on the quote). */
export function readString(text: string, pos: number): { value: string; end: number } {
  const quote = text[pos];
  let out = '';
  let i = pos + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === quote) return { value: out, end: i + 1 };
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new ScanError(i, 'bad \\u escape: expected 4 hex digits');
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else if (e !== undefined && ESCAPES[e] !== undefined) {
      out += ESCAPES[e];
      i += 2;
    } else {
      throw new ScanError(i, `bad escape \\${e ?? ''}`);
    }
  }
  throw new ScanError(pos, 'unterminated string');
}

/** Reads one value starting at `pos` (no leading space). */
export function readValue(text: string, pos: number, depth = 0): { value: Json; end: number } {
  if (depth > MAX_DEPTH) throw new ScanError(pos, `nested deeper than ${MAX_DEPTH} levels`);
  const c = text[pos];
  if (c === '"' || c === "'") return readString(text, pos);
  if (c === '[' || c === '{') return readContainer(text, pos, depth);
  NUMBER.lastIndex = pos;
  const number = NUMBER.exec(text);
  if (number) {
    const value = Number(number[0]);
    if (!Number.isFinite(value)) throw new ScanError(pos, `number out of range: ${number[0]}`);
    return { value, end: pos + number[0].length };
  }
  WORD.lastIndex = pos;
  const word = WORD.exec(text);
  if (word && LITERALS.has(word[0]))
    return { value: LITERALS.get(word[0]) as Json, end: pos + word[0].length };
  if (word) throw new ScanError(pos, `unexpected word ${word[0]}: strings must be quoted`);
  throw new ScanError(
    pos,
    c === undefined ? 'expected a value, found end of line' : `expected a value, found '${c}'`,
  );
}

function readContainer(text: string, pos: number, depth: number): { value: Json; end: number } {
  const isList = text[pos] === '[';
  const close = isList ? ']' : '}';
  const list: Json[] = [];
  const object: Record<string, Json> = {};
  let i = skipSpace(text, pos + 1);
  while (text[i] !== close) {
    if (i >= text.length) throw new ScanError(pos, `unclosed '${text[pos]}'`);
    if (isList) {
      const item = readValue(text, i, depth + 1);
      list.push(item.value);
      i = item.end;
    } else {
      if (text[i] !== '"' && text[i] !== "'") throw new ScanError(i, 'expected a quoted key');
      const key = readString(text, i);
      i = skipSpace(text, key.end);
      if (text[i] !== ':') throw new ScanError(i, "expected ':' after the key");
      const item = readValue(text, skipSpace(text, i + 1), depth + 1);
      setOwn(object, key.value, item.value);
      i = item.end;
    }
    i = skipSpace(text, i);
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] !== close) throw new ScanError(i, `expected ',' or '${close}'`);
  }
  return { value: isList ? list : object, end: i + 1 };
}

/** Writes a number so that reading it back gives the same number (including -0). */
function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a JSON number: ${n}`);
  return Object.is(n, -0) ? '-0' : JSON.stringify(n);
}

/** Compact JSON text of a value: `["a","b"]`, `{"k":1}`. */
export function formatValue(value: Json): string {
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(',')}]`;
  const entries = Object.entries(value as Record<string, Json>);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${formatValue(v)}`).join(',')}}`;
}
