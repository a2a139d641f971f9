/**
 * The distributed batch end to end on a real Redis (loopback): 20,000 records, `work` processes killed
 * outright and restarted, Redis emptied mid-run; after `collect`, every record exactly once, in input order,
 * byte-identical to the single-machine batch except for the measured `timeMs`. Locks of 4 s and a stall check every
 * second (flags of `work`) bring a killed worker's chunks back in about 5 s instead of a minute or more
 * (the defaults, 30 s each, suit production); the chunk size (500) is the default.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readLines, tempDir } from './fixtures/batch/records.ts';
import { testRedis } from './fixtures/redis.ts';
import {
  batchCli,
  exitOf,
  killWorkers,
  leftoversOf,
  partsIn,
  partWriters,
  singleMachine,
  startWorker,
  statusOf,
  SUBMIT,
  until,
  withoutTimes,
  workHere,
  writeClusterDataset,
} from './fixtures/cluster.ts';

const RECORDS = 20_000;
const CHUNKS = RECORDS / 500;
const redis = await testRedis(1);
const tmp = tempDir();
const input = tmp.file('in.jsonl');
const reference = tmp.file('single.jsonl');

afterEach(killWorkers);
afterAll(async () => {
  await redis.stop();
  tmp.remove();
});

describe.skipIf(!redis.url)(
  `distributed batch on Redis${redis.reason ? ` (skipped: ${redis.reason})` : ''}`,
  () => {
    const url = redis.url!;

    beforeAll(async () => {
      writeClusterDataset(input, RECORDS);
      await singleMachine(input, reference);
    }, 120_000);

    it('survives a worker killed mid-run and restarted: 0 missing, 0 duplicated, as on one machine', async () => {
      const results = tmp.file('killed');
      const submitted = await batchCli([
        'submit',
        input,
        '--queue',
        url,
        '--run',
        'killed',
        '--results',
        results,
        ...SUBMIT,
      ]);
      expect(submitted).toMatchObject({ code: 0, err: '' });

      const doomed = startWorker(url);
      const steady = startWorker(url);
      // Killed once both work and it is in the middle of a chunk (an attempt of its is under tmp/).
      await until(
        () => partsIn(results) >= 4 && leftoversOf(results, doomed.pid).length > 0,
        'the first parts, and a chunk in progress in the worker to kill',
      );
      doomed.child.kill('SIGKILL');
      expect(await exitOf(doomed.child)).toBe('SIGKILL');
      // The kill landed mid-chunk: its half-written attempts are left under tmp/, never in parts/.
      const interrupted = leftoversOf(results, doomed.pid).map((name) => Number(name.split('-')[0]));
      expect(interrupted.length).toBeGreaterThan(0);
      expect(partsIn(results)).toBeLessThan(CHUNKS);
      const restarted = startWorker(url);

      await until(async () => (await statusOf(url, 'killed')).complete, 'the run to complete');
      // The chunks the kill interrupted are done all the same.
      const writers = partWriters(results);
      for (const chunk of interrupted) expect(writers.has(chunk)).toBe(true);
      const status = await statusOf(url, 'killed');
      expect(status).toMatchObject({ done: CHUNKS, failed: 0, chunks: CHUNKS, recordsDone: RECORDS });
      // SIGTERM: each finishes what it holds and leaves.
      await restarted.ready;
      steady.child.kill('SIGTERM');
      restarted.child.kill('SIGTERM');
      expect([await exitOf(steady.child), await exitOf(restarted.child)]).toEqual([0, 0]);

      const out = tmp.file('killed.jsonl');
      const collected = await batchCli(['collect', '--run', 'killed', '--results', results, '--out', out]);
      expect(collected.err).toMatch(
        /40 chunks collected; 20000 records: \d+ valid, \d+ repaired, \d+ partial, 0 uncertain, 0 exhausted, 0 timeout, 2 error/,
      );
      expect(collected.code).toBe(2); // as `refract batch`: some records are errors (the malformed lines)
      const ids = readLines(out).map((line) => line.id);
      expect(ids).toEqual(readLines(reference).map((line) => line.id));
      expect(new Set(ids).size).toBe(RECORDS);
      expect(withoutTimes(out)).toBe(withoutTimes(reference));
    }, 240_000);

    it('resumes after every worker is stopped or killed and Redis is emptied: the same output', async () => {
      const results = tmp.file('resumed');
      const run = ['--queue', url, '--run', 'resumed', '--results', results, ...SUBMIT];
      expect((await batchCli(['submit', input, ...run])).code).toBe(0);
      const stopped = startWorker(url);
      const killed = startWorker(url);
      // Both in the middle of a chunk (an attempt of each under tmp/).
      await until(
        () => [stopped, killed].every((worker) => leftoversOf(results, worker.pid).length > 0),
        'both workers in the middle of a chunk',
      );
      stopped.child.kill('SIGTERM');
      killed.child.kill('SIGKILL');
      expect([await exitOf(stopped.child), await exitOf(killed.child)]).toEqual([0, 'SIGKILL']);
      // The stopped worker finished the chunks it held before leaving; the killed one did not.
      expect(leftoversOf(results, stopped.pid)).toEqual([]);
      const before = partsIn(results);
      expect(before).toBeLessThan(CHUNKS);

      await redis.flush();
      const lost = await batchCli(['status', '--queue', url, '--run', 'resumed']);
      expect(lost).toMatchObject({ code: 2 });
      expect(lost.err).toMatch(/no run resumed on this queue/);
      const early = await batchCli([
        'collect',
        '--run',
        'resumed',
        '--results',
        results,
        '--out',
        tmp.file('early.jsonl'),
      ]);
      expect(early.code).toBe(6);
      expect(early.err).toMatch(new RegExp(`${CHUNKS - before} of ${CHUNKS} chunks have no result part`));

      const resubmitted = await batchCli([
        'submit',
        input,
        ...run.filter((x) => x !== '--quiet'),
        '--resume',
      ]);
      expect(resubmitted.code).toBe(0);
      expect(resubmitted.err).toContain(`${CHUNKS - before} enqueued, ${before} already done`);
      // The rest in this process (a spawned worker would add nothing but its start-up).
      const report = await workHere(url, 2);
      expect(report).toMatchObject({ written: CHUNKS - before, duplicates: 0, failed: 0 });
      expect(await statusOf(url, 'resumed')).toMatchObject({ complete: true, recordsDone: RECORDS });

      const out = tmp.file('resumed.jsonl');
      expect((await batchCli(['collect', '--run', 'resumed', '--results', results, '--out', out])).code).toBe(
        2,
      );
      expect(withoutTimes(out)).toBe(withoutTimes(reference));
    }, 240_000);
  },
);
