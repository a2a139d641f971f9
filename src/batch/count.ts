/**
 * The number of records of a JSONL file, for the progress ETA: one pass counting newlines, run beside
 * the batch. Undefined when the file is not JSONL (a JSON document's lines are not records) or too big
 * to be worth a second read.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isBlankLine } from '../read/byte-lines.ts';

const MAX_BYTES = 4 * 1024 ** 3;
const HEAD_BYTES = 1024 * 1024;

/** True when the first line of the file is a whole JSON object or array (one record per line). */
async function looksLikeJsonl(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const line = text.split('\n', 1)[0].trim();
    if (line[0] !== '{' && line[0] !== '[') return false;
    JSON.parse(line);
    return true;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

export async function countRecords(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_BYTES || !(await looksLikeJsonl(path))) return undefined;
    // Lines with something on them: a blank line is no record (the batch skips it).
    let lines = 0;
    // Whether the line being read (it may go on in the next chunk) has shown something yet.
    let written = false;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      let from = 0;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) {
        if (written || !isBlankLine(chunk, from, at)) lines++;
        written = false;
        from = at + 1;
      }
      written ||= !isBlankLine(chunk, from);
    }
    return written ? lines + 1 : lines;
  } catch {
    return undefined;
  }
}
