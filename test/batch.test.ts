import { Readable } from 'node:stream';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch, type BatchOptions } from '../src/batch/run.ts';
import { REQUEST, readLines, recordLine, tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

let runs = 0;
async function batch(text: string, extra: Partial<BatchOptions> = {}) {
  const out = tmp.file(`out-${runs++}.jsonl`);
  const report = await runBatch({
    input: Readable.from([text]),
    out,
    request: REQUEST,
    workers: 2,
    ...extra,
  });
  return { report, lines: readLines(out) };
}

describe('refract batch (library)', () => {
  it('keeps input order and ids with 2 workers: given ids and line-index ids', async () => {
    const lines: string[] = [];
    const expected: string[] = [];
    // A record without an id gets its 0-based record index (blank lines do not count).
    const add = (i: number, kind: 'given' | 'broken' | 'nestful') => {
      if (kind === 'nestful')
        lines.push(JSON.stringify({ input: 'q', output: JSON.parse(recordLine(i)).sequence }));
      else lines.push(recordLine(i, kind === 'broken' ? 1 : 0));
      expected.push(kind === 'nestful' ? String(expected.length) : `r${i}`);
    };
    // A broken record first (slow: it reaches the solver), so the records after it finish first.
    add(0, 'broken');
    add(1, 'given');
    add(2, 'nestful');
    lines.push('');
    for (let i = 3; i < 39; i++) add(i, i % 3 === 0 ? 'nestful' : i % 7 === 0 ? 'broken' : 'given');
    const { report, lines: out } = await batch(lines.join('\n') + '\n');
    expect(out.map((x) => x.id)).toEqual(expected);
    expect(report.processed).toBe(39);
    expect(report.summary.records).toBe(39);
    expect(out[0].status).toBe('repaired');
    expect(out[2].status).toBe('valid');
    for (const line of out) {
      expect(Object.keys(line)).toEqual(
        expect.arrayContaining([
          'id',
          'determination',
          'status',
          'sequence',
          'edits',
          'cost',
          'optimal',
          'issues',
          'timeMs',
        ]),
      );
    }
  });

  it('writes an error line for each malformed record and goes on; adds the step-by-step report', async () => {
    const text = [
      recordLine(0),
      '{"id": "torn", "sequence": [',
      '{"id": "nothing"}',
      '42',
      '{"id": "bad-step", "sequence": [{"name": 7}]}',
      recordLine(5, 5),
      recordLine(6),
    ].join('\n');
    const { report, lines } = await batch(text, { stepByStep: true, workers: 1 });
    expect(lines.map((x) => [x.id, x.status])).toEqual([
      ['r0', 'valid'],
      ['1', 'error'],
      ['nothing', 'error'],
      ['3', 'error'],
      ['bad-step', 'error'],
      ['r5', 'repaired'],
      ['r6', 'valid'],
    ]);
    expect(lines[1].reason).toMatch(/line 2: invalid JSON/);
    expect(lines[2].reason).toMatch(/sequence/);
    for (const line of lines.filter((x) => x.status === 'error')) {
      expect(line).toMatchObject({ determination: null, sequence: null, edits: [], issues: [] });
      expect(line.steps).toBeUndefined();
    }
    expect(report.summary.statuses).toEqual({
      valid: 2,
      repaired: 1,
      partial: 0,
      exhausted: 0,
      timeout: 0,
      error: 4,
    });
    // r5 refers to a label its second call never defines: its 3rd call cannot run.
    const steps = (x: Record<string, unknown>) =>
      x as { firstFailingStep: number | null; steps: { valid: boolean }[] };
    expect(steps(lines[5]).firstFailingStep).toBe(3);
    expect(steps(lines[5]).steps.map((s) => s.valid)).toEqual([true, true, false, true, true, true]);
    expect(steps(lines[6]).firstFailingStep).toBeNull();
    expect(steps(lines[6]).steps.every((s) => s.valid)).toBe(true);
  });

  it('reads a NESTFUL data array and writes to a stream', async () => {
    const samples = [0, 1, 2].map((i) => ({ input: 'q', output: JSON.parse(recordLine(i)).sequence }));
    const chunks: string[] = [];
    const output = new (await import('node:stream')).Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const input = Readable.from([JSON.stringify(samples, null, 2)]);
    const report = await runBatch({ input, output, request: REQUEST, workers: 1 });
    const ids = chunks
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(['0', '1', '2']);
    expect(report.summary.statuses.valid).toBe(3);
  });

  it('stops on an abort and writes only finished records, in order', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = tmp.file('aborted.jsonl');
    const report = await runBatch({
      input: Readable.from([[recordLine(0), recordLine(1)].join('\n')]),
      out,
      request: REQUEST,
      workers: 1,
      signal: controller.signal,
    });
    expect(report.interrupted).toBe(true);
    // Aborted before the first record: the output is not even opened.
    expect(existsSync(out)).toBe(false);
  });
});

describe('records that bring their own catalog', () => {
  it('run without --catalog; a record with no catalog at all gets an error line', async () => {
    const catalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
    const withCatalog = { ...JSON.parse(recordLine(0)), id: 'own', catalog };
    const without = { ...JSON.parse(recordLine(1)), id: 'none' };
    const text = [JSON.stringify(withCatalog), JSON.stringify(without)].join('\n') + '\n';
    const { lines } = await batch(text, { request: { ...REQUEST, catalogPath: undefined }, workers: 1 });
    expect(lines.map((l) => [l.id, l.status])).toEqual([
      ['own', 'valid'],
      ['none', 'error'],
    ]);
    expect(lines[1].reason).toMatch(/no catalog/);
  });
});
