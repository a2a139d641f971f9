/**
 * Cutting a JSONL input into chunks that workers read on their own: each chunk is a byte range that starts
 * and ends on a line boundary, with the number of its first line, of its first record and its record count.
 * Lines are split as the single-machine batch splits them (`byteLines`: a line ends at `\n`), and a line
 * holds as many records as the reader yields for it (a line that is not UTF-8 is one error record), so a
 * chunk read alone numbers its records, gives them their default ids and words their errors exactly as a
 * whole-file run does.
 */
import { createReadStream } from 'node:fs';
import { InputError } from '../model/errors.ts';
import { isRecordLine, lineRecordCount, stripBom } from '../read/records.ts';
import { refuseCompressed } from '../read/utf8.ts';
import { isBlankLine } from '../read/byte-lines.ts';

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
const OPEN_BRACE = 0x7b;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** True for the ASCII bytes `String.prototype.trim` removes (tab, LF, vertical tab, form feed, CR, space). */
const isBlankByte = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** The line's text as the reader decodes it (strict UTF-8, the BOM of line 1 dropped); undefined if not UTF-8. */
function lineText(bytes: Buffer, first: boolean): string | undefined {
  try {
    const text = strict.decode(bytes);
    return first ? stripBom(text) : text;
  } catch {
    return undefined;
  }
}

/**
 * Records on one line, and whether the line marks the file as JSONL (a whole record, or a line that is not
 * UTF-8: the reader takes either as JSONL). A line whose first non-blank byte is `{` is one record whatever
 * it holds (an object, or an error item), which spares decoding nearly every line once `jsonl` is known.
 */
function recordsOn(bytes: Buffer, first: boolean, jsonl: boolean): { count: number; jsonl: boolean } {
  let at = 0;
  while (at < bytes.length && isBlankByte(bytes[at])) at++;
  if (at === bytes.length) return { count: 0, jsonl };
  if (bytes[at] === OPEN_BRACE && jsonl) return { count: 1, jsonl };
  const text = lineText(bytes, first);
  if (text === undefined) return { count: 1, jsonl: true };
  return { count: lineRecordCount(text), jsonl: jsonl || isRecordLine(text) };
}

/** The lines of a file (split at `\n`) with the offset after each line's `\n` (or the file's end). */
async function* fileLines(
  path: string,
  highWaterMark?: number,
): AsyncGenerator<{ bytes: Buffer; next: number }> {
  let held: Buffer[] = [];
  let offset = 0; // file offset of the current buffer
  for await (const buffer of createReadStream(path, { highWaterMark }) as AsyncIterable<Buffer>) {
    if (offset === 0) refuseCompressed(buffer);
    let from = 0;
    for (let at = buffer.indexOf(LF); at !== -1; at = buffer.indexOf(LF, from)) {
      const part = buffer.subarray(from, at);
      yield { bytes: held.length === 0 ? part : Buffer.concat([...held, part]), next: offset + at + 1 };
      held = [];
      from = at + 1;
    }
    if (from < buffer.length) held.push(buffer.subarray(from));
    offset += buffer.length;
  }
  if (held.length > 0) yield { bytes: Buffer.concat(held), next: offset };
}

/**
 * Scans `path` into chunks of about `size` records (a chunk ends after the line that reaches `size`).
 * Refuses input that is not JSONL: only a file of one record per line can be cut by byte range.
 */
export async function scanChunks(
  path: string,
  size: number,
  /** Read buffer size (tests: lines and characters that straddle buffers). */
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
  let written = false;
  for await (const item of fileLines(path, highWaterMark)) {
    written ||= !isBlankLine(item.bytes);
    const on = recordsOn(item.bytes, line === 1, jsonl);
    jsonl = on.jsonl;
    open.count += on.count;
    records += on.count;
    line++;
    position = item.next;
    if (open.count >= size) {
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
  // A file with nothing in it (blank lines at most) holds no records, as the batch on one machine says.
  if (records === 0 && !written) throw new InputError('input', 'empty input: expected records');
  if (!jsonl) {
    throw new InputError(
      'input',
      `${path} is not JSONL (one record per line): a distributed batch reads records by byte range ` +
        `(convert a JSON array with: jq -c '.[]' FILE)`,
    );
  }
  return { chunks, records };
}
