/**
 * The generated datasets of the batch benchmarks (`batch-scale.ts`, `distributed.ts`): the NESTFUL
 * executable samples, one per line with ids `r<i>`, and a corrupted sample every `brokenEvery` records
 * (repaired by the solver; the others are valid and checked without it).
 */
import { readFileSync } from 'node:fs';
import { writeRecordsFile } from '../research/bench/data.ts';

const BROKEN = 'benchmarks/data/corrupted-executable.jsonl';

function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Writes `count` records, streaming, so generation itself stays small in memory. */
export async function generate(path: string, count: number, brokenEvery: number): Promise<void> {
  const samples = (
    JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8')) as { output: unknown }[]
  ).map((s) => s.output);
  const broken = (() => {
    try {
      return jsonLines(BROKEN).map((r) => r.sequence);
    } catch {
      return jsonLines('samples/broken-nestful.jsonl').map((r) => r.sequence);
    }
  })();
  await writeRecordsFile(path, count, samples, brokenEvery, broken);
}
