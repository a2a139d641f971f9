/** Reading input files, with failures reported as InputErrors naming the file. */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { InputError } from '../model/errors.ts';
import { parseJsonText } from './json.ts';
import { decodeUtf8 } from './utf8.ts';

/** The text of a file (strict UTF-8: a bad byte is an error naming its offset). */
export function readText(path: string): string {
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

/** Reads a file and hands its content to `parse`; errors are attributed to the file. */
export function loadWith<T>(path: string, parse: (text: string) => T): T {
  const text = readText(path);
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof InputError && error.source === undefined) throw error.from(path);
    throw error;
  }
}

/** Reads a JSON file and hands the value to `parse`; errors are attributed to the file. */
export function loadJsonWith<T>(path: string, parse: (json: unknown) => T): T {
  return loadWith(path, (text) => parse(parseJsonText(text)));
}
