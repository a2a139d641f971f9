/**
 * A repair that had to drop one of the user's calls says so everywhere: status `partial` with the dropped
 * steps, exit code 3 from `refract fix` and `refract batch`, its own count in the batch summary line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { registerFix } from '../src/cli/fix.ts';
import { registerBatch } from '../src/cli/batch.ts';
import { statusExitCode } from '../src/cli/batch-shared.ts';
import { runCommands } from './cli-run.ts';
import { tempDir } from './fixtures/batch/records.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const tmp = tempDir();
afterAll(() => tmp.remove());
afterEach(() => vi.restoreAllMocks());

describe('partial repairs', () => {
  it('refract fix: status partial, the dropped step and why, exit 3', async () => {
    // `fix` prints with console.log: route it to the captured standard output.
    vi.spyOn(console, 'log').mockImplementation((...parts) => process.stdout.write(`${parts.join(' ')}\n`));
    const r = await runCommands(
      [registerFix],
      ['fix', '-c', CATALOG, '--format', 'json', 'samples/unknown-call.txt'],
    );
    expect(r.code).toBe(3);
    const result = JSON.parse(r.out) as { status: string; dropped: unknown[]; confidence: number };
    expect(result.status).toBe('partial');
    // The repair dropped a call the user wrote: it is not their plan (a scored batch never counts it right).
    expect(result.confidence).toBe(0);
    // Nor is it run as it stands by a client gating on isExecutable.
    expect((result as unknown as { isExecutable: boolean }).isExecutable).toBe(false);
    // Steps are numbered from 1 in what users read.
    expect(result.dropped).toEqual([
      { step: 2, name: 'FrobnicateTheWidgets', reason: 'no catalog API is close to its name' },
    ]);
  });

  it('refract batch: a partial record gives exit 3 and its own count in the summary line', async () => {
    const sequence = readFileSync('samples/unknown-call.txt', 'utf8');
    const valid = 'var1 = SkyScrapperSearchAirport(query="New York")\nvar_result(airport="$var1$")';
    const input = tmp.file('partial.jsonl');
    writeFileSync(
      input,
      [
        { id: 'kept', sequence: valid },
        { id: 'dropped', sequence },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const out = tmp.file('partial-out.jsonl');
    const r = await runCommands([registerBatch], ['batch', input, '-c', CATALOG, '--out', out]);
    expect(r.code).toBe(3);
    expect(r.err).toContain(
      '2 records: 1 valid, 0 repaired, 1 partial, 0 uncertain, 0 exhausted, 0 timeout, 0 error',
    );
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.map((l) => l.status)).toEqual(['valid', 'partial']);
    // Counted in the lowest confidence band, as one wrong repair to expect.
    expect(r.err).toContain('expected wrong 1 of 1 repairs (confidence [0, 0.5) 1,');
  });

  it('the exit code of a batch: error over partial over exhausted over uncertain over repaired over valid', () => {
    const none = { valid: 1, repaired: 0, partial: 0, uncertain: 0, exhausted: 0, timeout: 0, error: 0 };
    expect(statusExitCode(none)).toBe(0);
    expect(statusExitCode({ ...none, timeout: 1 })).toBe(1);
    expect(statusExitCode({ ...none, repaired: 1, partial: 1 })).toBe(3);
    expect(statusExitCode({ ...none, partial: 1, error: 1 })).toBe(2);
    expect(statusExitCode({ ...none, repaired: 1, exhausted: 1 })).toBe(4);
    expect(statusExitCode({ ...none, exhausted: 1, partial: 1 })).toBe(3);
    expect(statusExitCode({ ...none, repaired: 1, uncertain: 1 })).toBe(5);
    expect(statusExitCode({ ...none, uncertain: 1, exhausted: 1 })).toBe(4);
    expect(statusExitCode({ ...none, uncertain: 1, partial: 1 })).toBe(3);
    expect(statusExitCode({ ...none, uncertain: 1, error: 1 })).toBe(2);
  });
});
