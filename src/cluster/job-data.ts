/**
 * A chunk job as it travels through the queue: the run, where its results go, and a reference to its
 * records (the input file, the byte range, the first line and record number, the count), never the
 * records. Checked on arrival: a queue is shared, and a job may come from another version.
 */
import { z } from 'zod';
import type { ChunkRef } from './chunks.ts';

export interface ChunkJob extends ChunkRef {
  readonly run: string;
  readonly results: string;
  readonly input: string;
  readonly chunk: number;
}

const count = z.number().int().nonnegative();

const chunkJobSchema = z.object({
  run: z.string().min(1),
  results: z.string().min(1),
  input: z.string().min(1),
  chunk: count,
  start: count,
  end: count,
  line: z.number().int().positive(),
  index: count,
  count,
});

/** The job's data, or a one-line reason it is not a chunk job. */
export function parseChunkJob(data: unknown): ChunkJob | string {
  const parsed = chunkJobSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not a chunk job (${issue.path.join('.') || 'data'}: ${issue.message})`;
  }
  return parsed.data;
}
