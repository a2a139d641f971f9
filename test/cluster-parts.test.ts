/**
 * The distributed batch's refusals and checks on a real Redis, with `work` in this process: bad submits
 * (exit 2, nothing written), a chunk delivered twice (one part, counted once), an input changed after
 * submit (workers and collect refuse it), parts missing or tampered with (collect names the chunks and
 * writes nothing), and the summary (the single-machine one, latencies aside).
 */
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobId, QUEUE_NAME } from '../src/cluster/redis.ts';
import { partDir } from '../src/cluster/store.ts';
import { runBatch } from '../src/batch/run.ts';
import type { Summary } from '../src/batch/summary.ts';
import { CATALOG, datasetText, readLines, tempDir } from './fixtures/batch/records.ts';
import { testRedis } from './fixtures/redis.ts';
import {
  batchCli,
  singleMachine,
  statusOf,
  SUBMIT,
  submitRun,
  withoutTimes,
  workHere,
} from './fixtures/cluster.ts';

const redis = await testRedis(2);
const tmp = tempDir();
const input = tmp.file('in.jsonl');
const reference = tmp.file('single.jsonl');
const RECORDS = 300;
const CHUNK = ['--chunk', '50'];

afterAll(async () => {
  await redis.stop();
  tmp.remove();
});

describe('batch submit checks the request as batch does', () => {
  it('refuses a goal the catalog has no API of with one line and exit 2, before Redis is reached', async () => {
    const results = tmp.file('goals-refused');
    const common = ['--queue', 'redis://127.0.0.1:1', '--results', results, ...SUBMIT, '--goal-api', 'Nope'];
    // The queue is unreachable: the refusal naming the goal shows the request is checked first.
    const { code, err } = await batchCli(['submit', input, '--run', 'goals', ...common]);
    expect({ code, err }).toMatchObject({ code: 2, err: expect.stringMatching(/^--goal-api: .*Nope/) });
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(existsSync(results)).toBe(false);
  });
});

describe.skipIf(!redis.url)(
  `distributed batch checks${redis.reason ? ` (skipped: ${redis.reason})` : ''}`,
  () => {
    const url = redis.url!;
    const submit = (run: string, results: string, ...extra: string[]) =>
      submitRun(input, url, run, results, [...SUBMIT, ...CHUNK, ...extra]);
    const collect = (run: string, results: string, out: string, ...extra: string[]) =>
      batchCli(['collect', '--run', run, '--results', results, '--out', out, ...extra]);

    beforeAll(async () => {
      writeFileSync(input, datasetText(RECORDS, 20));
      await singleMachine(input, reference);
    }, 60_000);

    it('refuses bad submits with one line and exit 2, writing nothing', async () => {
      const results = tmp.file('refused');
      const cases: [string[], RegExp][] = [
        [['--queue', 'http://127.0.0.1:6379'], /--queue: expected a redis:\/\/ or rediss:\/\/ URL/],
        [['--queue', 'redis://127.0.0.1:1'], /--queue: cannot reach Redis at redis:\/\/127\.0\.0\.1:1/],
        [['--run', 'a:b'], /--run: expected 1-64 letters, digits, _ or -/],
        [['--chunk', '0'], /--chunk: expected an integer/],
        [['--solver', 'nope'], /--solver: expected one of/],
      ];
      for (const [flags, message] of cases) {
        const args = [
          'submit',
          input,
          '--queue',
          url,
          '--run',
          'refused',
          '--results',
          results,
          ...SUBMIT,
          ...flags,
        ];
        const { code, err } = await batchCli(args);
        expect({ code, err }).toMatchObject({ code: 2, err: expect.stringMatching(message) });
        expect(err.trim().split('\n')).toHaveLength(1);
        expect(existsSync(results)).toBe(false);
      }
      const array = tmp.file('array.json');
      writeFileSync(array, JSON.stringify(readLines(input).slice(0, 2), null, 2));
      const submitInput = (file: string) =>
        batchCli(['submit', file, '--queue', url, '--run', 'x', '--results', results, ...SUBMIT]);
      const notJsonl = await submitInput(array);
      expect(notJsonl).toMatchObject({ code: 2, err: expect.stringMatching(/is not JSONL/) });
      expect(existsSync(results)).toBe(false);
      const stdin = await submitInput('-');
      expect(stdin).toMatchObject({
        code: 2,
        err: expect.stringMatching(/^input: standard input cannot be a distributed run/),
      });
      expect(existsSync(results)).toBe(false);
    });

    it('counts a chunk delivered twice once and keeps its first part; collects the single-machine output', async () => {
      const results = tmp.file('twice');
      expect((await submit('twice', results)).code).toBe(0);
      // The same chunk once more under another job id: what a redelivery after a lost acknowledgement does.
      const connection = new Redis(url, { maxRetriesPerRequest: null });
      const queue = new Queue(QUEUE_NAME, { connection });
      const original = await queue.getJob(jobId('twice', 2));
      await queue.add('chunk', original!.data, { jobId: 'twice.again' });
      await queue.close();
      connection.disconnect();

      const report = await workHere(url);
      expect(report).toMatchObject({ written: 6, records: RECORDS, duplicates: 1, failed: 0 });
      expect(await statusOf(url, 'twice')).toMatchObject({ complete: true, done: 6, recordsDone: RECORDS });
      const out = tmp.file('twice.jsonl');
      const { code, err } = await collect('twice', results, out);
      expect(code).toBe(1); // as `refract batch`: some records were repaired
      expect(withoutTimes(out)).toBe(withoutTimes(reference));
      // A second collect keeps the output it would replace, unless told to overwrite it; a summary onto the
      // output is refused before anything is read.
      const kept = readFileSync(out);
      const again = await collect('twice', results, out);
      expect(again).toMatchObject({
        code: 2,
        err: expect.stringMatching(/--out: .* already holds \d+ bytes: add --overwrite/),
      });
      expect(readFileSync(out)).toEqual(kept);
      const asJson = tmp.file('twice-out.json');
      const onOut = await collect('twice', results, asJson, '--summary', tmp.file('twice-out'));
      expect(onOut).toMatchObject({
        code: 2,
        err: expect.stringMatching(/--summary: .*twice-out\.json is the --out file/),
      });
      expect(existsSync(asJson)).toBe(false);
      expect(readFileSync(out)).toEqual(kept);
      const overwritten = await collect('twice', results, out, '--overwrite');
      expect(overwritten.code).toBe(1);
      expect(withoutTimes(out)).toBe(withoutTimes(reference));
      const summary = JSON.parse(readFileSync(`${results}/summary.json`, 'utf8')) as Record<string, unknown>;
      const single = await batchCli([
        '--catalog',
        CATALOG,
        '-q',
        input,
        '--out',
        tmp.file('s.jsonl'),
        '--summary',
        tmp.file('s'),
      ]);
      expect(single.code).toBe(1);
      const expected = JSON.parse(readFileSync(tmp.file('s.json'), 'utf8')) as Record<string, unknown>;
      expect({ ...summary, latencyMs: null }).toEqual({ ...expected, latencyMs: null });
      expect(err).toMatch(/6 chunks collected; 300 records: 285 valid, 15 repaired/);
    }, 60_000);

    it('refuses an input changed after submit: its chunks fail, collect and resume refuse it', async () => {
      const results = tmp.file('changed');
      const changed = tmp.file('changed.jsonl');
      writeFileSync(changed, readFileSync(input));
      const args = ['--queue', url, '--run', 'changed', '--results', results, ...SUBMIT, ...CHUNK];
      expect((await batchCli(['submit', changed, ...args])).code).toBe(0);
      const later = new Date(Date.now() + 5_000);
      utimesSync(changed, later, later);
      const report = await workHere(url);
      expect(report).toMatchObject({ written: 0, failed: 6 });
      const status = await statusOf(url, 'changed');
      expect(status).toMatchObject({ complete: false, stopped: true, failed: 6, done: 0 });
      expect(status.failures[0].reason).toMatch(/changed\.jsonl changed since run changed was submitted/);
      const text = await batchCli(['status', '--queue', url, '--run', 'changed']);
      // Stopped: nothing more happens until a person acts; the hint is a new run, not a resume.
      expect(text.code).toBe(3);
      expect(text.out).toMatch(/chunks: 0 waiting, 0 active, 0 done, 6 failed \(of 6\)/);
      expect(text.out).toMatch(/chunk 0: .*changed since/);
      expect(text.out).toMatch(
        /\(the input changed since it was submitted: submit it as a new run\)\nstopped: /,
      );
      // --watch ends there too, its progress line counting the failed chunks.
      const watched = await batchCli(['status', '--queue', url, '--run', 'changed', '--watch', '0.1']);
      expect(watched.code).toBe(3);
      expect(watched.out).toMatch(/^run changed: .*, 6 chunks failed$/m);
      const collected = await collect('changed', results, tmp.file('changed-out.jsonl'));
      expect(collected).toMatchObject({
        code: 2,
        err: expect.stringMatching(/changed since run changed was submitted/),
      });
      const resumed = await batchCli(['submit', changed, ...args, '--resume']);
      expect(resumed).toMatchObject({ code: 2, err: expect.stringMatching(/changed since/) });
      const again = await batchCli(['submit', input, ...args]);
      expect(again).toMatchObject({
        code: 2,
        err: expect.stringMatching(/--run: run changed is already on this queue .*continue it with --resume/),
      });
    }, 60_000);

    it("reads a catalog a record names by path from the input file's folder, as a single machine does", async () => {
      // The records carry no catalog of their own but its file name, beside them; --catalog is not used.
      const folder = tmp.file('named');
      mkdirSync(folder);
      copyFileSync(CATALOG, join(folder, 'tools.json'));
      const named = join(folder, 'in.jsonl');
      const lines = readLines(input)
        .slice(0, 100)
        .map((record) => JSON.stringify({ ...record, catalog: 'tools.json', gold: record.sequence }));
      writeFileSync(named, lines.join('\n') + '\n');
      const single = tmp.file('named-single.jsonl');
      await runBatch({
        input: createReadStream(named),
        out: single,
        request: {},
        workers: 1,
        recordBase: folder,
      });
      const results = tmp.file('named-results');
      const run = ['--queue', url, '--run', 'named', '--results', results, '--quiet', ...CHUNK];
      expect((await batchCli(['submit', named, ...run])).code).toBe(0);
      expect(await workHere(url)).toMatchObject({ written: 2, failed: 0 });
      const out = tmp.file('named-out.jsonl');
      expect((await collect('named', results, out)).code).toBe(1);
      expect(withoutTimes(out)).toBe(withoutTimes(single));
      expect(readFileSync(out, 'utf8')).not.toContain('"status":"error"');
      const summary = JSON.parse(readFileSync(`${results}/summary.json`, 'utf8')) as Summary;
      expect(summary.scores!.overall).toMatchObject({ n: 100, catalogJudged: 100 });
    }, 60_000);

    it('lists chunks that fail for good with their errors, and redoes them on resume', async () => {
      const results = tmp.file('failing');
      expect((await submit('failing', results, '--attempts', '2')).code).toBe(0);
      // Attempts cannot be written: tmp/ is a file. Each chunk is tried twice (a backoff between).
      writeFileSync(`${results}/tmp`, '');
      expect(await workHere(url)).toMatchObject({ written: 0, failed: 6 });
      const status = await statusOf(url, 'failing');
      expect(status).toMatchObject({ complete: false, failed: 6, done: 0 });
      expect(status.failures.map((f) => f.chunk)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(status.failures[0].reason).toMatch(/ENOTDIR|EEXIST/);
      rmSync(`${results}/tmp`);
      const resumed = await batchCli(
        ['submit', input, '--queue', url, '--run', 'failing', '--results', results].concat([
          ...SUBMIT,
          ...CHUNK,
          '--attempts',
          '2',
          '--resume',
        ]),
      );
      expect(resumed.code).toBe(0);
      expect(await workHere(url)).toMatchObject({ written: 6, failed: 0 });
      expect(await statusOf(url, 'failing')).toMatchObject({
        complete: true,
        failed: 0,
        recordsDone: RECORDS,
      });
    }, 60_000);

    it('names missing and tampered parts, writes nothing, and collects once they are redone', async () => {
      const results = tmp.file('tampered');
      expect((await submit('tampered', results)).code).toBe(0);
      await workHere(url);
      const other = await submit('other', results);
      expect(other).toMatchObject({
        code: 2,
        err: expect.stringMatching(/already holds run tampered: pass --resume/),
      });
      const out = tmp.file('tampered.jsonl');
      rmSync(partDir(results, 4), { recursive: true });
      const missing = await collect('tampered', results, out);
      // 6: nothing written, the run is not whole (3 is a repair that dropped a call, as in a batch).
      expect(missing).toMatchObject({
        code: 6,
        err: expect.stringMatching(/1 of 6 chunks have no result part \(50 records\): chunks 4;/),
      });
      expect(existsSync(out)).toBe(false);
      // With the queue, a missing part the queue does not hold is told lost, not still running.
      const lost = await collect('tampered', results, out, '--queue', url);
      expect(lost).toMatchObject({
        code: 6,
        err: expect.stringMatching(
          /\(50 records\): chunk 4 is neither queued nor in progress \(lost, or failed for good\): submit --resume\n$/,
        ),
      });
      expect(existsSync(out)).toBe(false);

      const lines = `${partDir(results, 1)}/lines.jsonl`;
      writeFileSync(lines, readFileSync(lines, 'utf8').replace('"status":"valid"', '"status":"error"'));
      const otherFlags = await submit('tampered', results, '--resume', '--types', 'strict');
      expect(otherFlags).toMatchObject({
        code: 2,
        err: expect.stringMatching(/--resume: .*other settings \(request\)/),
      });
      const resumed = await submit('tampered', results, '--resume');
      expect(resumed).toMatchObject({ code: 0, err: '' });
      await workHere(url);
      const tampered = await collect('tampered', results, out);
      expect(tampered).toMatchObject({
        code: 6,
        err: expect.stringMatching(/chunk 1: its lines differ from its summary/),
      });
      expect(existsSync(out)).toBe(false);

      rmSync(partDir(results, 1), { recursive: true });
      await submit('tampered', results, '--resume');
      await workHere(url);
      expect((await collect('tampered', results, out)).code).toBe(1);
      expect(withoutTimes(out)).toBe(withoutTimes(reference));
    }, 90_000);
  },
);
