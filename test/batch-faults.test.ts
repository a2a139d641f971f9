import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/batch/run.ts';
import { datasetText, REQUEST, readLines, tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('refract batch: worker faults', () => {
  it('retires a failing worker, retries its record once, then writes an error and goes on', async () => {
    const out = tmp.file('faults.jsonl');
    const report = await runBatch({
      input: Readable.from([datasetText(12)]),
      out,
      request: REQUEST,
      workers: 1,
      recordTimeoutMs: 1_500,
      faults: [
        { id: 'r2', mode: 'exit', times: 1 },
        // r5 fails twice: an uncaught exception, then a hang that the watchdog ends.
        { id: 'r5', mode: 'throw', times: 1 },
        { id: 'r5', mode: 'hang', times: 2 },
        { id: 'r8', mode: 'abort', times: 1 },
      ],
    });
    const lines = readLines(out);
    expect(lines.map((x) => x.id)).toEqual(Array.from({ length: 12 }, (_, i) => `r${i}`));
    const status = Object.fromEntries(lines.map((x) => [x.id, x.status]));
    // One failure: the retry in a fresh worker succeeds.
    expect(status.r2).toBe('valid');
    expect(status.r8).toBe('valid');
    // Two failures: an error result with the reason; the records after it still succeed.
    expect(status.r5).toBe('error');
    expect(lines[5].reason).toMatch(/failed 2 times: record took longer than the 1.5 s record timeout/);
    for (const i of [0, 1, 3, 4, 6, 7, 9, 10, 11]) expect(status[`r${i}`]).toBe('valid');
    // At least one restart per failure (a busy machine may stall another record past the watchdog too).
    expect(report.restarts).toBeGreaterThanOrEqual(4);
    expect(report.summary.statuses).toEqual({
      valid: 11,
      repaired: 0,
      partial: 0,
      exhausted: 0,
      timeout: 0,
      error: 1,
    });
  });
});
