/**
 * The distributed batch through the faults of a real deployment, on Redis servers this file starts, stops
 * and restarts itself (on the same port): Redis restarted with its append-only file and without
 * persistence, a worker stopped (SIGSTOP) mid-run, a worker cut off by a link that stops carrying packets,
 * and a Redis that refuses the client (protected mode). In each, the output is the single-machine output
 * but for `timeMs`, and what the commands say is one line per change of state, never a stack trace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type LocalRedis } from '../benchmarks/redis-server.ts';
import { CLI, tempDir } from './fixtures/batch/records.ts';
import { redisServerBinary } from './fixtures/redis.ts';
import { startLink, type Link } from './fixtures/link.ts';
import {
  batchCli,
  exitOf,
  killWorkers,
  partsIn,
  singleMachine,
  startWorker,
  statusOf,
  SUBMIT,
  submitRun,
  until,
  withoutTimes,
  writeClusterDataset,
} from './fixtures/cluster.ts';

const RECORDS = 10_000;
const CHUNK = 250;
const CHUNKS = RECORDS / CHUNK;
const { binary, reason } = redisServerBinary();
const tmp = tempDir();
const input = tmp.file('in.jsonl');
const reference = tmp.file('single.jsonl');
const servers = new Set<LocalRedis>();
const links = new Set<Link>();
const watchers = new Set<ChildProcess>();

/** A Redis of this test's own; `dir` keeps its append-only file across a restart. */
async function server(options: Parameters<typeof startRedisServer>[1] = {}): Promise<LocalRedis> {
  const started = await startRedisServer(binary!, options);
  servers.add(started);
  return started;
}

const portOf = (url: string) => Number(new URL(url).port);

/** `refract batch status --watch` as a process: its standard output and error, and its exit. */
function watchStatus(url: string, run: string) {
  const args = ['--import', 'tsx', CLI, 'batch', 'status', '--queue', url, '--run', run, '--watch', '0.2'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  watchers.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (data: Buffer) => (out += String(data)));
  child.stderr!.on('data', (data: Buffer) => (err += String(data)));
  return { child, out: () => out, err: () => err };
}

/** Lines of a log about Redis's comings and goings, and the ones that look like a stack trace. */
function linesOf(log: string) {
  const lines = log.trimEnd().split('\n');
  return {
    lost: lines.filter((line) => /lost Redis at /.test(line)),
    back: lines.filter((line) => /reconnected to Redis at /.test(line)),
    traces: lines.filter((line) => /^\s+at |^\w*Error\b|ECONNREFUSED|errno|syscall/.test(line)),
  };
}

function submit(url: string, run: string, results: string, resume = false) {
  const quiet = SUBMIT.filter((flag) => !resume || flag !== '--quiet');
  return submitRun(input, url, run, results, [
    '--chunk',
    String(CHUNK),
    ...quiet,
    ...(resume ? ['--resume'] : []),
  ]);
}

async function collected(run: string, results: string): Promise<string> {
  const out = tmp.file(`${run}.jsonl`);
  const result = await batchCli(['collect', '--run', run, '--results', results, '--out', out]);
  expect(result.err).toMatch(new RegExp(`${CHUNKS} chunks collected; ${RECORDS} records`));
  return withoutTimes(out);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Run `run` submitted to a Redis of its own (`options`), one worker on it and `status --watch` watching;
 * once the first parts are in, Redis is stopped and, a few seconds later, started again on the same port.
 */
async function restartedMidRun(run: string, options: Parameters<typeof server>[0] = {}) {
  const redis = await server(options);
  const url = redis.url;
  const results = tmp.file(run);
  expect((await submit(url, run, results)).code).toBe(0);
  const worker = startWorker(url);
  await worker.ready;
  const watch = watchStatus(url, run);
  await until(() => partsIn(results) >= 3 && watch.out() !== '', 'the first parts, watched');
  await redis.stop();
  servers.delete(redis);
  // Down for a few seconds: ioredis and BullMQ fail a reconnection attempt after another meanwhile.
  await pause(3_000);
  await server({ ...options, port: portOf(url) });
  return { url, results, worker, watch };
}

/** An address of this machine that is not loopback: Redis's protected mode refuses clients from it. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

afterEach(async () => {
  await killWorkers();
  for (const child of watchers) child.kill('SIGKILL');
  watchers.clear();
  for (const link of links) await link.close();
  links.clear();
  for (const redis of servers) await redis.stop();
  servers.clear();
});
afterAll(() => tmp.remove());

describe.skipIf(!binary)(`distributed batch under faults${reason ? ` (skipped: ${reason})` : ''}`, () => {
  beforeAll(async () => {
    writeClusterDataset(input, RECORDS);
    await singleMachine(input, reference);
  }, 120_000);

  it('through a Redis restart with its append-only file: one line when Redis goes, one when it is back, status --watch waits', async () => {
    const dir = tmp.file('aof');
    mkdirSync(dir);
    const { url, results, worker, watch } = await restartedMidRun('restart', { appendonly: true, dir });

    expect(await exitOf(watch.child), watch.err()).toBe(0);
    expect(await statusOf(url, 'restart')).toMatchObject({ complete: true, done: CHUNKS, failed: 0 });
    worker.child.kill('SIGTERM');
    expect(await exitOf(worker.child)).toBe(0);
    for (const log of [worker.log(), watch.err()]) {
      const { lost, back, traces } = linesOf(log);
      expect(lost).toEqual([
        expect.stringMatching(/: lost Redis at redis:\/\/127\.0\.0\.1:\d+\/0, retrying$/),
      ]);
      expect(back).toEqual([
        expect.stringMatching(/: reconnected to Redis at redis:\/\/127\.0\.0\.1:\d+\/0 after [\d.]+ s$/),
      ]);
      expect(traces).toEqual([]);
    }
    // The watcher went on drawing the progress line, to the end.
    expect(watch.out()).toMatch(/complete: collect the output/);
    expect(await collected('restart', results)).toBe(withoutTimes(reference));
  }, 240_000);

  it('through a Redis restart without persistence: status --watch waits for the run to be resubmitted', async () => {
    const { url, results, worker, watch } = await restartedMidRun('flushed');
    await until(() => /no longer on the queue/.test(watch.err()), 'the watcher to miss the run');
    expect(watch.child.exitCode).toBe(null);
    const resumed = await submit(url, 'flushed', results, true);
    expect(resumed.code).toBe(0);
    expect(resumed.err).toMatch(/\d+ enqueued, \d+ already done/);

    expect(await exitOf(watch.child)).toBe(0);
    worker.child.kill('SIGTERM');
    expect(await exitOf(worker.child)).toBe(0);
    const { lost, back, traces } = linesOf(watch.err());
    expect([lost.length, back.length, traces]).toEqual([1, 1, []]);
    expect(watch.err()).toMatch(
      /run flushed is no longer on the queue at redis:\/\/127\.0\.0\.1:\d+\/0 \(Redis restarted without persistence\?\): waiting for it to be resubmitted \(submit --resume\)\n.*run flushed is on the queue again\n/,
    );
    expect(linesOf(worker.log()).traces).toEqual([]);
    expect(await collected('flushed', results)).toBe(withoutTimes(reference));
  }, 240_000);

  it('a worker stopped mid-run: collect says the run is still running, and submit --resume enqueues nothing the queue holds', async () => {
    const redis = await server();
    const url = redis.url;
    const results = tmp.file('stopped');
    expect((await submit(url, 'stopped', results)).code).toBe(0);
    // Locks that outlast the stop: the chunks it holds stay in progress.
    const worker = startWorker(url, ['--lock', '60']);
    await until(() => partsIn(results) >= 3, 'the first parts');
    worker.child.kill('SIGSTOP');
    try {
      const parts = partsIn(results);
      const early = await batchCli([
        'collect',
        '--run',
        'stopped',
        '--results',
        results,
        '--out',
        tmp.file('early.jsonl'),
        '--queue',
        url,
      ]);
      expect(early.code).toBe(6);
      const [, queued, active] =
        /still running: (\d+) chunks? queued, (\d+) in progress; collect once refract batch status says complete$/m
          .exec(early.err)!
          .map(Number);
      expect(queued + active).toBe(CHUNKS - parts);
      expect(active).toBeGreaterThan(0);
      const resumed = await submit(url, 'stopped', results, true);
      expect(resumed.err).toContain(
        `0 enqueued, ${parts} already done, ${CHUNKS - parts} still queued or in progress`,
      );
      // The chunks the stopped worker holds are in progress for status too, not waiting.
      expect(await statusOf(url, 'stopped')).toMatchObject({ done: parts, active });
    } finally {
      worker.child.kill('SIGCONT');
    }
    await until(async () => (await statusOf(url, 'stopped')).complete, 'the run to complete');
    worker.child.kill('SIGTERM');
    expect(await exitOf(worker.child)).toBe(0);
    // No chunk was delivered to it twice.
    expect(worker.log()).toMatch(
      new RegExp(
        `worker done: ${CHUNKS} chunks \\(${RECORDS} records\\) written, 0 already done elsewhere, 0 failed`,
      ),
    );
    expect(await collected('stopped', results)).toBe(withoutTimes(reference));
  }, 240_000);

  it('a worker cut off from Redis warns once its locks have gone unrenewed longer than a lock, and says when Redis answers', async () => {
    const redis = await server();
    const link = await startLink(redis.url);
    links.add(link);
    const results = tmp.file('cut');
    expect((await submit(redis.url, 'cut', results)).code).toBe(0);
    // Cut while the worker holds a chunk: as it marks its first chunk in progress.
    const cut = link.cutOn(/refract:run:cut:active/);
    const worker = startWorker(link.url, ['--lock', '2']);
    await cut;
    await until(() => /no lock renewal/.test(worker.log()), 'the warning', 60_000);
    expect(worker.log()).toMatch(
      /: no lock renewal for [\d.]+ s \(a lock lasts 2\.0 s\) on run cut chunk \d+(, run cut chunk \d+)?: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 does not answer; another worker may take (it|them) over \(the first complete part stays\)\n/,
    );
    // Nothing but the warning while the link is down: no connection was closed.
    expect(linesOf(worker.log()).lost).toEqual([]);
    link.restore();
    await until(
      () =>
        /locks renewed again after [\d.]+ s|Redis no longer holds the lock of run cut chunk/.test(
          worker.log(),
        ),
      'Redis to answer again',
    );
    await until(async () => (await statusOf(redis.url, 'cut')).complete, 'the run to complete');
    worker.child.kill('SIGTERM');
    expect(await exitOf(worker.child)).toBe(0);
    expect(linesOf(worker.log()).traces).toEqual([]);
    expect(worker.log()).not.toMatch(/Missing (lock|key) for job/);
    expect(await collected('cut', results)).toBe(withoutTimes(reference));
  }, 240_000);

  it.skipIf(!outside)(
    `names Redis's refusal of a client (protected mode)${outside ? '' : ' (skipped: no network address but loopback)'}`,
    async () => {
      const redis = await server({ bind: outside, protectedMode: true, unchecked: true });
      const refused = await batchCli(['status', '--queue', redis.url, '--run', 'any']);
      expect(refused.code).toBe(2);
      expect(refused.err).toBe(
        `--queue: Redis at ${redis.url} refused the connection: DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user.`,
      );
    },
  );
});
