/**
 * Lines of a byte stream, decoded as strict UTF-8 one line at a time (constant memory beyond the longest
 * line). A line that is not UTF-8 comes back as an error naming the byte offset in the whole stream, so
 * one bad record does not stop the others. `\n` ends a line; a `\r` before it is dropped.
 */
import { decodeUtf8, refuseCompressed } from './utf8.ts';
import { errorMessage } from '../model/errors.ts';

export type ByteLine = { readonly text: string } | { readonly error: string };

/** True when bytes `[from, to)` of a line hold nothing but spaces, tabs and carriage returns: no record. */
export function isBlankLine(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
  for (let i = from; i < to; i++)
    if (bytes[i] !== 0x20 && bytes[i] !== 0x09 && bytes[i] !== 0x0d) return false;
  return true;
}

function decoded(bytes: Buffer, offset: number): ByteLine {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  try {
    return { text: decodeUtf8(bytes.subarray(0, end), '', offset) };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/** `offset`: where the stream starts in its file (a slice of it), for the offsets errors name. */
export async function* byteLines(stream: NodeJS.ReadableStream, offset = 0): AsyncGenerator<ByteLine> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  // `offset` is that of the first byte of the line being assembled.
  let first = offset === 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (first && bytes.length > 0) {
      refuseCompressed(bytes);
      first = false;
    }
    let start = 0;
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
      const part = bytes.subarray(start, at);
      const line = held.length === 0 ? part : Buffer.concat([...held, part]);
      yield decoded(line, offset);
      offset += line.length + 1;
      held = [];
      heldBytes = 0;
      start = at + 1;
    }
    if (start < bytes.length) {
      held.push(bytes.subarray(start));
      heldBytes += bytes.length - start;
    }
  }
  if (heldBytes > 0) yield decoded(Buffer.concat(held), offset);
}
