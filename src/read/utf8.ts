/**
 * Strict UTF-8: input bytes are decoded only when they are well-formed UTF-8. A bad byte is never turned
 * into U+FFFD in silence; the error names the byte offset, so the user can find it (`cmp`, `xxd -s`).
 */
import { InputError } from '../model/errors.ts';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Length of the well-formed sequence at `i` (Unicode table 3-7), or 0 when it is not well-formed. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) =>
    i + k < bytes.length && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence; -1 when all are well-formed. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const n = sequenceLength(bytes, i);
    if (n === 0) return i;
    i += n;
  }
  return -1;
}

/**
 * The text of `bytes`; an InputError at `field` when they are not UTF-8. `base` is added to the offset
 * reported (the position of these bytes in a larger file).
 */
export function decodeUtf8(bytes: Uint8Array, field: string, base = 0): string {
  try {
    return strict.decode(bytes);
  } catch {
    if (base === 0) refuseCompressed(bytes, field);
    throw new InputError(field, `invalid UTF-8 at byte ${base + invalidUtf8Offset(bytes)}`);
  }
}

/**
 * Refuses bytes that start as a gzip stream does (1f 8b): read as lines, every line of it would be an error
 * of its own (`invalid UTF-8`), where one line can say what to do.
 */
export function refuseCompressed(first: Uint8Array, field = 'input'): void {
  if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b)
    throw new InputError(
      field,
      'gzip-compressed: decompress it first (gunzip -c FILE.gz > FILE, or gunzip -c FILE.gz | refract batch - …)',
    );
}
