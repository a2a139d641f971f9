/** Flag parsing shared by the commands: every bad value is an InputError naming the flag (exit 2). */
import { readFileSync } from 'node:fs';
import { InputError } from '../model/errors.ts';
import { isDecimalText } from '../model/numbers.ts';
import { decodeUtf8 } from '../read/utf8.ts';

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InputError(flag, `expected one of ${allowed.join(', ')}, received ${JSON.stringify(value)}`);
  }
  return value as T;
}

export function integer(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new InputError(flag, `expected an integer in [${min}, ${max}], received ${JSON.stringify(value)}`);
  }
  return n;
}

/** Decimal seconds (`30`, `2.5`) in (0, 86400]; `0x10`, `1e1` and `Infinity` are refused. */
export function seconds(flag: string, value: string): number {
  const n = Number(value);
  if (!isDecimalText(value, false) || !Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new InputError(
      flag,
      `expected a number of seconds written out (2.5, not 25e-1 or 0x10) in (0, 86400], received ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** A decimal number in [0, 1] (`0.9`, `1`, `.95`); `1e-1` and `0x1` are refused. */
export function fraction(flag: string, value: string): number {
  const n = Number(value);
  if (!isDecimalText(value, false) || !(n >= 0 && n <= 1)) {
    throw new InputError(
      flag,
      `expected a number written out (0.9, not 9e-1) in [0, 1], received ${JSON.stringify(value)}`,
    );
  }
  return n;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The text of a file, or of standard input when no file (or `-`) is given. */
export function readInput(file: string | undefined): string {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY)
      throw new InputError('input', 'no input file given and standard input is a terminal');
    return decodeUtf8(readFileSync(0), 'input');
  }
  try {
    const bytes = readFileSync(file);
    try {
      return decodeUtf8(bytes, '');
    } catch (error) {
      throw (error as InputError).from(file);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      'input',
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}
