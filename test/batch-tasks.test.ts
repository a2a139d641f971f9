import { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecords, readRecordSources, sourceRecord, type RecordSource } from '../src/read/records.ts';
import { RecordCatalogs } from '../src/batch/catalogs.ts';
import { TaskSizer } from '../src/batch/tasks.ts';
import { InputError } from '../src/model/errors.ts';
import { runBatch } from '../src/batch/run.ts';
import type { ApiRequest } from '../src/api/request.ts';
import { CATALOG, datasetText, readLines, REQUEST, tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

async function sources(text: string): Promise<RecordSource[]> {
  const out: RecordSource[] = [];
  for await (const source of readRecordSources(Readable.from([text]))) out.push(source);
  return out;
}

describe('record sources (what the reading thread sends to the workers)', () => {
  it('passes JSONL lines on as text, parsed in the worker into the same items', async () => {
    const text = readFileSync('test/fixtures/adapters/records.jsonl', 'utf8');
    const read = await sources(text);
    expect(read.every((s) => 'text' in s)).toBe(true);
    expect(read.map((s) => ('text' in s ? [s.index, s.lineNo] : []))).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
      [3, 5],
      [4, 6],
      [5, 7],
    ]);
    expect(read.map((s) => sourceRecord(s))).toEqual(parseRecords(text));
  });

  it('splits a line holding a list of records there, and numbers the records after it', async () => {
    const text = [
      '{"sequence": "f()"}',
      '[{"sequence": "g()"}, {"id": "named", "sequence": "h()"}]',
      '[{"name": "f", "arguments": {}}]',
      '{"sequence": "k()"}',
    ].join('\n');
    const read = await sources(text);
    expect(read.map((s) => ('text' in s ? 'text' : 'item'))).toEqual([
      'text',
      'item',
      'item',
      'text',
      'text',
    ]);
    const items = read.map((s) => sourceRecord(s));
    expect(items.map((i) => i.id)).toEqual(['0', '1', 'named', '3', '4']);
    expect(items.map((i) => i.sequence?.[0]?.name)).toEqual(['f', 'g', 'h', 'f', 'k']);
    expect(items).toEqual(parseRecords(text));
  });

  it('a line that is not JSON becomes an error item naming the line, in the worker', async () => {
    const [first, second] = await sources('{"sequence": "f()"}\n{"sequence": [\n');
    expect('text' in second).toBe(true);
    expect(sourceRecord(second)).toEqual({ id: '1', error: expect.stringMatching(/^line 2: invalid JSON/) });
    expect(sourceRecord(first).sequence).toHaveLength(1);
  });

  it('a record catalog goes through the parser it is given', async () => {
    const [source] = await sources('{"sequence": "f()", "catalog": [{"name": "f"}]}\n');
    const seen: unknown[] = [];
    const item = sourceRecord(source, {
      parseCatalog: (value) => {
        seen.push(value);
        return { apis: [] };
      },
    });
    expect(seen).toEqual([[{ name: 'f' }]]);
    expect(item.catalog).toEqual({ apis: [] });
  });
});

describe('catalogs carried by records', () => {
  const catalog = (name: string) => [{ name, parameters: { type: 'object', properties: {} } }];

  it('parses each distinct catalog once: records with equal catalogs share one object', () => {
    const cache = new RecordCatalogs();
    const a = cache.parse(catalog('f'));
    expect(cache.parse(JSON.parse(JSON.stringify(catalog('f'))))).toBe(a);
    expect(cache.parse(catalog('g'))).not.toBe(a);
    expect(a.apis.map((x) => x.name)).toEqual(['f']);
    expect(cache.size).toBe(2);
  });

  it('is bounded in entries and bytes; a bad catalog throws and is not kept', () => {
    const cache = new RecordCatalogs({ entries: 3 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) cache.parse(catalog(name));
    expect(cache.size).toBe(3);
    const small = new RecordCatalogs({ bytes: 200 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) small.parse(catalog(name));
    expect(small.size).toBeLessThan(5);
    expect(() => cache.parse([{ name: 5 }])).toThrow(InputError);
    expect(cache.size).toBe(3);
  });
});

describe('task size', () => {
  it('starts small, grows for cheap records and shrinks for costly ones', () => {
    const sizer = new TaskSizer({ targetMs: 10, max: 256, initial: 16 });
    expect(sizer.size).toBe(16);
    sizer.observe(100, 5); // 0.05 ms a record: as many as allowed
    expect(sizer.size).toBe(200);
    for (let i = 0; i < 20; i++) sizer.observe(10, 20); // 2 ms a record
    expect(sizer.size).toBe(5);
    for (let i = 0; i < 20; i++) sizer.observe(1, 500); // slow records go one by one
    expect(sizer.size).toBe(1);
    sizer.observe(0, 10);
    sizer.observe(5, NaN);
    expect(sizer.size).toBe(1);
  });
});

describe('a batch of records that carry their catalog', () => {
  it('repairs them as with --catalog: large records travel a few to a task', async () => {
    // The NESTFUL catalog (170 kB) in every record: tasks are cut by size, each worker parses it once.
    const spec: unknown = JSON.parse(readFileSync(CATALOG, 'utf8'));
    const text = datasetText(30, 5);
    const carried = text
      .trim()
      .split('\n')
      .map((line) => JSON.stringify({ ...JSON.parse(line), catalog: spec }))
      .join('\n');
    const run = async (input: string, request: ApiRequest = REQUEST) => {
      const out = tmp.file(`carried-${request.catalogPath ? 'flag' : 'record'}.jsonl`);
      await runBatch({ input: Readable.from([input]), out, request, workers: 2 });
      return readLines(out).map(({ timeMs: _, ...rest }) => rest);
    };
    const [withRecordCatalogs, withFlag] = await Promise.all([run(carried, {}), run(text)]);
    expect(withRecordCatalogs).toEqual(withFlag);
    expect(withFlag.map((l) => l.status)).toContain('repaired');
  });
});
