/**
 * Cutting a JSONL input into chunks that workers read on their own: each chunk is a byte range that starts
 * and ends on a line boundary, with the number of its first line, of its first record and its record count.
 * Lines are split as the single-machine batch splits them (`\n`, `\r\n` and a lone `\r` end a line), and a
 * line holds as many records as `jsonlRecords` yields for it, so a chunk read alone numbers its records,
 * gives them their default ids and words their errors exactly as a whole-file run does.
 */
import { createReadStream } from 'node:fs';
import { InputError } from '../model/errors.ts';
import { isRecordLine, lineRecordCount, stripBom } from '../read/records.ts';

/** One chunk: bytes [start, end) of the input; `line` is 1-based, `index` the 0-based record number. */
export interface ChunkRef {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly index: number;
  readonly count: number;
}

export interface ChunkTable {
  readonly chunks: readonly ChunkRef[];
  readonly records: number;
}

const LF = 0x0a;
const CR = 0x0d;
const OPEN_BRACE = 0x7b;

/** True for the ASCII bytes `String.prototype.trim` removes (tab, vertical tab, form feed, space). */
const isBlankByte = (b: number) => b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c;

/**
 * Records on one line. A line whose first non-blank byte is `{` is one record whatever it holds (an object,
 * or an error item when it does not parse), which spares parsing nearly every line; other lines are decoded
 * and counted the way the reader counts them.
 */
function recordsOn(bytes: Buffer, first: boolean): { count: number; text?: string } {
  let at = 0;
  while (at < bytes.length && isBlankByte(bytes[at])) at++;
  if (at === bytes.length) return { count: 0 };
  if (bytes[at] === OPEN_BRACE) return { count: 1 };
  const raw = bytes.toString('utf8');
  const text = first ? stripBom(raw) : raw;
  return { count: lineRecordCount(text), text };
}

interface FileLine {
  readonly bytes: Buffer;
  /** Offset of the byte after the line's terminator. */
  next: number;
  /** The terminator holds a line feed (only there can a chunk end). */
  endsInLf: boolean;
}

/**
 * Splits a file into lines as `readline` (`crlfDelay: Infinity`) does: LF, CRLF and a lone CR end a line; a
 * last line without a terminator counts too. A CR at the end of a buffer waits for the next byte.
 */
async function* fileLines(path: string, highWaterMark?: number): AsyncGenerator<FileLine> {
  let held: Buffer[] = [];
  let pending: FileLine | undefined; // a line ended by CR: a LF right after belongs to its terminator
  let offset = 0; // file offset of the current buffer
  const take = (buffer: Buffer, from: number, to: number) => {
    const bytes =
      held.length === 0 ? buffer.subarray(from, to) : Buffer.concat([...held, buffer.subarray(from, to)]);
    held = [];
    return bytes;
  };
  for await (const buffer of createReadStream(path, { highWaterMark }) as AsyncIterable<Buffer>) {
    let from = 0;
    if (pending) {
      if (buffer[0] === LF) {
        pending.next++;
        pending.endsInLf = true;
        from = 1;
      }
      yield pending;
      pending = undefined;
    }
    for (let i = from; i < buffer.length; i++) {
      const b = buffer[i];
      if (b === LF) {
        yield { bytes: take(buffer, from, i), next: offset + i + 1, endsInLf: true };
        from = i + 1;
      } else if (b === CR) {
        const bytes = take(buffer, from, i);
        if (i + 1 === buffer.length) pending = { bytes, next: offset + i + 1, endsInLf: false };
        else if (buffer[i + 1] === LF) {
          yield { bytes, next: offset + i + 2, endsInLf: true };
          i++;
        } else yield { bytes, next: offset + i + 1, endsInLf: false };
        from = i + 1;
      }
    }
    // Copied: the stream may reuse its buffers.
    if (from < buffer.length) held.push(Buffer.from(buffer.subarray(from)));
    offset += buffer.length;
  }
  if (pending) yield pending;
  if (held.length > 0) yield { bytes: Buffer.concat(held), next: offset, endsInLf: false };
}

/**
 * Scans `path` into chunks of about `size` records (a chunk ends after the line that reaches `size`, at a
 * line that ends in a line feed). Refuses input that is not JSONL: only a file of one record per line can
 * be cut by byte range.
 */
export async function scanChunks(
  path: string,
  size: number,
  /** Read buffer size (tests: lines and CRLFs that straddle buffers). */
  highWaterMark?: number,
): Promise<ChunkTable> {
  const chunks: ChunkRef[] = [];
  let jsonl = false;
  let line = 1;
  let records = 0;
  let open: { start: number; line: number; index: number; count: number } = {
    start: 0,
    line: 1,
    index: 0,
    count: 0,
  };
  let position = 0;
  for await (const item of fileLines(path, highWaterMark)) {
    const { count, text } = recordsOn(item.bytes, line === 1);
    if (!jsonl && count > 0) {
      const decoded = text ?? item.bytes.toString('utf8');
      jsonl = isRecordLine(line === 1 ? stripBom(decoded) : decoded);
    }
    open.count += count;
    records += count;
    line++;
    position = item.next;
    if (open.count >= size && item.endsInLf) {
      chunks.push({
        start: open.start,
        end: position,
        line: open.line,
        index: open.index,
        count: open.count,
      });
      open = { start: position, line, index: records, count: 0 };
    }
  }
  if (open.count > 0) {
    chunks.push({ start: open.start, end: position, line: open.line, index: open.index, count: open.count });
  } else if (chunks.length > 0 && position > open.start) {
    // Blank lines after the last record belong to the last chunk.
    chunks.push({ ...chunks.pop()!, end: position });
  }
  if (!jsonl) {
    throw new InputError(
      'input',
      `${path} is not JSONL (one record per line): a distributed batch reads records by byte range ` +
        `(convert a JSON array with: jq -c '.[]' FILE)`,
    );
  }
  return { chunks, records };
}
