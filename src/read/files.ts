/**
 * Reading input files, with failures reported as InputErrors naming the file. A file's content never
 * appears in an error: a path may come from a client (an MCP `catalogPath` or `costModel`), and an error
 * quoting the first bytes of a file that is not what it should be would disclose them.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { InputError } from '../model/errors.ts';
import { decodeUtf8 } from './utf8.ts';
import { kindOf } from './json.ts';

/** The text of a file (strict UTF-8: a bad byte is an error naming its offset). */
export function readText(path: string): string {
  // From the library a path may be anything: a number would read a file descriptor (0: standard input).
  if (typeof path !== 'string' || path === '')
    throw new InputError(
      'path',
      `expected a file path, received ${typeof path === 'string' ? 'an empty string' : kindOf(path)}`,
    );
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new InputError(
      '',
      `cannot read file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      path,
    );
  }
  try {
    return decodeUtf8(bytes, '');
  } catch (error) {
    throw (error as InputError).from(path);
  }
}

/**
 * `path` when it names a readable file; else an error naming the flag that gave it (`--memory: cannot read
 * m.json (ENOENT)`), checked before the file is loaded so that the user learns which flag to fix.
 */
export function readableFile(flag: string, path: string): string {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new InputError(flag, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return path;
}

/** Hands the text of the file at `path` to `parse`; errors are attributed to the file. */
export function parseFrom<T>(path: string, text: string, parse: (text: string) => T): T {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof InputError && error.source === undefined) throw error.from(path);
    throw error;
  }
}

/** Reads a file and hands its content to `parse`; errors are attributed to the file. */
export function loadWith<T>(path: string, parse: (text: string) => T): T {
  return parseFrom(path, readText(path), parse);
}

/** Runs `read`; an error about a whole file (no field: unreadable, not JSON) is put on `field`. */
export function naming<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError && error.field === '') {
      throw new InputError(field, error.problem, error.source);
    }
    throw error;
  }
}

/** A line and column (both from 1) of an offset into `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * A file's JSON text → its value. A syntax error keeps only what does not quote the text: V8 says where
 * (`Expected ',' or '}' after property value in JSON at position 25`) or quotes the text around the fault
 * (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and the quote is dropped.
 */
export function parseJsonFile(text: string): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(json);
  } catch (error) {
    const message = (error as Error).message;
    const at = / in JSON at position (\d+)/.exec(message);
    let problem = 'unexpected text';
    if (at) problem = `${lineColumn(json, Number(at[1]))}: ${message.slice(0, at.index)}`;
    else if (message === 'Unexpected end of JSON input') problem = 'unexpected end of input';
    throw new InputError('', `invalid JSON (${problem})`);
  }
}

/** Reads a JSON file and hands the value to `parse`; errors are attributed to the file. */
export function loadJsonWith<T>(path: string, parse: (json: unknown) => T): T {
  return loadWith(path, (text) => parse(parseJsonFile(text)));
}
