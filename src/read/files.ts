/** Reading input files, with failures reported as InputErrors naming the file. */
import { readFileSync } from 'node:fs';
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
