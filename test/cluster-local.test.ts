/**
 * The parts of the distributed batch that need no Redis: chunks read alone as the whole file reads, and
 * the result store keeping the first complete part of a chunk written twice at once.
 */
import { createReadStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isRecordLine, readRecords, sourceRecord, type RecordItem } from '../src/read/records.ts';
import { scanChunks } from '../src/cluster/chunks.ts';
import { chunkRecords } from '../src/cluster/chunk-records.ts';
import { commitPart, doneChunks, partLines, readPartSummary } from '../src/cluster/store.ts';
import { SummaryAccumulator } from '../src/batch/summary.ts';
import { recordLine, tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

let files = 0;
/** Records of the whole file, and of its chunks read one by one and joined. */
async function bothWays(text: string | Buffer, size: number, highWaterMark?: number) {
  const path = tmp.file(`in-${files++}.jsonl`);
  writeFileSync(path, text);
  const whole = await all(readRecords(createReadStream(path)));
  const table = await scanChunks(path, size, highWaterMark);
  const joined: RecordItem[] = [];
  for (const chunk of table.chunks)
    joined.push(...(await all(chunkRecords(path, chunk))).map((source) => sourceRecord(source)));
  return { whole, joined, table };
}

/** Lines that exercise every way a line can count: records, lists of records, step arrays, errors, blanks. */
const LINES: Buffer[] = [
  recordLine(1),
  recordLine(2, 2),
  JSON.stringify({ sequence: JSON.parse(recordLine(3)).sequence }),
  JSON.stringify([JSON.parse(recordLine(4)), JSON.parse(recordLine(5))]),
  JSON.stringify(JSON.parse(recordLine(6)).sequence),
  '{"id": "torn", "sequence": [',
  '  {"id": "spaced", "sequence": []}',
  '42',
  'not json',
  '"Api(a=1)"',
  '',
  '   ',
  '\r',
  '\u00a0',
  '{"id": "é✓", "sequence": "Api()"}',
].map((line) => Buffer.from(line));
/** Lines that are not UTF-8 (one error record each, offsets named): an object, and a list of two records. */
const NOT_UTF8 = [
  Buffer.concat([
    Buffer.from('{"id": "bad", "sequence": "Api(a=\''),
    Buffer.from([0xff]),
    Buffer.from('\')"}'),
  ]),
  Buffer.concat([Buffer.from(`[${recordLine(7)}, {"id": "x`), Buffer.from([0xc3, 0x28]), Buffer.from('"}]')]),
];
/** The reader's test: some line is a whole record, or is not UTF-8. */
function isJsonl(text: Buffer): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return text
    .toString('latin1')
    .split('\n')
    .some((line) => {
      try {
        return isRecordLine(decoder.decode(Buffer.from(line, 'latin1')));
      } catch {
        return true;
      }
    });
}

describe('distributed batch: chunks', () => {
  it('reads every chunk alone as the whole file reads it: ids, line numbers, errors', async () => {
    const join = (end: string) => Buffer.concat(LINES.flatMap((line) => [line, Buffer.from(end)]));
    const text = Buffer.concat([
      Buffer.from('\uFEFF'),
      join('\n'),
      join('\r\n'),
      NOT_UTF8[0],
      Buffer.from('\n'),
      join('\n'),
      NOT_UTF8[1],
    ]);
    for (const size of [1, 2, 3, 7, 1000]) {
      const { whole, joined, table } = await bothWays(text, size);
      expect(joined).toEqual(whole);
      expect(whole.filter((item) => /invalid UTF-8 at byte \d+/.test(item.error ?? ''))).toHaveLength(2);
      expect(table.records).toBe(whole.length);
      expect(table.chunks.reduce((n, c) => n + c.count, 0)).toBe(whole.length);
      // Chunks tile the file: each starts where the previous ended.
      table.chunks.forEach((c, k) => expect(c.start).toBe(k === 0 ? 0 : table.chunks[k - 1].end));
    }
  });

  it('holds for any mix of lines, line ends and read buffer sizes (property)', async () => {
    const line = fc.constantFrom(...LINES, ...NOT_UTF8);
    const end = fc.constantFrom('\n', '\r\n', '\r');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, end), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 64 }),
        async (lines, lastEnd, bom, size, highWaterMark) => {
          const parts = lines.flatMap(([l, e], k) =>
            k < lines.length - 1 || lastEnd ? [l, Buffer.from(e)] : [l],
          );
          const text = Buffer.concat([...(bom ? [Buffer.from('\uFEFF')] : []), ...parts]);
          // Only JSONL is cut into chunks (a file without a record line is refused, tested below).
          if (!isJsonl(text)) return;
          const { whole, joined } = await bothWays(text, size, highWaterMark);
          expect(joined).toEqual(whole);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses input that is not JSONL, naming the way out', async () => {
    const path = tmp.file('array.json');
    writeFileSync(path, JSON.stringify([JSON.parse(recordLine(1))], null, 2));
    await expect(scanChunks(path, 10)).rejects.toThrow(/not JSONL .*jq -c/);
    // A file of nothing, or of blank lines, is empty (as on one machine), not the wrong format.
    for (const [name, text] of [
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n \n\n'],
    ]) {
      writeFileSync(tmp.file(name), text);
      await expect(scanChunks(tmp.file(name), 10)).rejects.toThrow(/^input: empty input: expected records$/);
    }
  });

  it('notices a chunk whose bytes no longer hold its records', async () => {
    const path = tmp.file('changed.jsonl');
    writeFileSync(path, [recordLine(1), recordLine(2), recordLine(3)].join('\n') + '\n');
    const { chunks } = await scanChunks(path, 2);
    // The first two lines become one line of the same length: chunk 0's bytes now hold one record.
    const two = recordLine(1).length + 1 + recordLine(2).length;
    const one = JSON.stringify({ ...JSON.parse(recordLine(1)), pad: '' });
    const padded = one.replace('"pad":""', `"pad":"${'x'.repeat(two - one.length)}"`);
    writeFileSync(path, [padded, recordLine(3)].join('\n') + '\n');
    await expect(all(chunkRecords(path, chunks[0]))).rejects.toThrow(/input changed since submit/);
  });
});

describe('distributed batch: result store', () => {
  const fields = (chunk: number) => ({
    run: 'r',
    chunk,
    records: 1,
    summary: new SummaryAccumulator().result(),
  });

  it('keeps the first complete part when two attempts at a chunk commit at once', async () => {
    const dir = tmp.file('store');
    const attempt = (text: string, delay: number) =>
      commitPart(dir, 7, async (path) => {
        writeFileSync(path, text);
        await new Promise((resolve) => setTimeout(resolve, delay));
        return fields(7);
      });
    const [first, second] = await Promise.all([attempt('{"id":"a"}\n', 0), attempt('{"id":"b"}\n', 50)]);
    expect([first.written, second.written]).toEqual([true, false]);
    expect(readFileSync(partLines(dir, 7), 'utf8')).toBe('{"id":"a"}\n');
    expect(second.part.sha256).toBe(first.part.sha256);
    expect((await readPartSummary(dir, 7)).bytes).toBe(11);
    expect([...(await doneChunks(dir))]).toEqual([7]);
    // Neither attempt leaves anything under tmp/.
    expect(readdirSync(`${dir}/tmp`)).toEqual([]);
  });

  it('leaves no part when writing fails', async () => {
    const dir = tmp.file('failing');
    const failing = commitPart(dir, 1, async () => {
      throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(await doneChunks(dir)).toEqual(new Set());
    expect(readdirSync(`${dir}/tmp`)).toEqual([]);
  });
});
