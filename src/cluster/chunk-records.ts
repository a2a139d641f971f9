/**
 * The records of one chunk, read from its byte range alone: lines are split as the whole-file reader splits
 * them and numbered from the chunk's first line, records from its first record number, so ids, error items
 * and their messages are those of a single-machine run. A count other than the chunk's means the input is
 * not the one the chunks were cut from.
 */
import { createReadStream } from 'node:fs';
import { readJsonlSlice, type RecordOptions, type RecordSource } from '../read/records.ts';
import type { ChunkRef } from './chunks.ts';

export class ChunkMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkMismatch';
  }
}

export async function* chunkRecords(
  path: string,
  chunk: ChunkRef,
  options: RecordOptions = {},
): AsyncGenerator<RecordSource> {
  let index = chunk.index;
  if (chunk.end > chunk.start) {
    const input = createReadStream(path, { start: chunk.start, end: chunk.end - 1 });
    try {
      for await (const item of readJsonlSlice(
        input,
        { line: chunk.line, index, offset: chunk.start },
        options,
      )) {
        index++;
        yield item;
      }
    } finally {
      input.destroy();
    }
  }
  if (index - chunk.index !== chunk.count) {
    throw new ChunkMismatch(
      `bytes ${chunk.start}-${chunk.end} of ${path} hold ${index - chunk.index} records where the chunk ` +
        `has ${chunk.count}: the input changed since submit`,
    );
  }
}
