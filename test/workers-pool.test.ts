import { afterEach, describe, expect, it } from 'vitest';
import { PoolError, WorkerPool, type WorkerPoolOptions } from '../src/workers/pool.ts';
import type { EchoJob } from './fixtures/workers/echo.ts';

const entry = new URL('./fixtures/workers/echo.ts', import.meta.url);
let pool: WorkerPool<EchoJob, string> | undefined;

function start(options: Partial<WorkerPoolOptions> = {}): WorkerPool<EchoJob, string> {
  pool = new WorkerPool<EchoJob, string>({ entry, size: 1, data: '>', ...options });
  return pool;
}

const kindOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: PoolError) => error.kind,
  );

afterEach(async () => {
  await pool?.terminate();
  pool = undefined;
});

describe('the worker pool', () => {
  it('answers jobs in order with several sent ahead to one worker', async () => {
    const p = start({ depth: 3 });
    const values = ['a', 'b', 'c', 'd', 'e'];
    const results = await Promise.all(values.map((value) => p.submit({ value, ms: 5 })));
    expect(results).toEqual(values.map((v) => `>${v}`));
    expect(p.stats()).toMatchObject({ size: 1, ready: 1, busy: 0, queued: 0, replaced: 0 });
  });

  it('keeps the worker when a job throws, replaces it on a fault and re-sends the jobs sent ahead', async () => {
    const p = start({ depth: 2 });
    await expect(p.submit({ value: 'x', fail: 'throw' })).rejects.toMatchObject({ kind: 'failed' });
    expect(p.stats().replaced).toBe(0);
    const faulty = p.submit({ value: 'y', ms: 50, fail: 'fault' });
    const behind = p.submit({ value: 'z' });
    await expect(faulty).rejects.toMatchObject({ kind: 'fault', message: 'fault on y' });
    expect(await behind).toBe('>z');
    expect(p.stats().replaced).toBe(1);
  });

  it('replaces a worker whose running job overruns its run time limit; queued time does not count', async () => {
    const p = start({ depth: 2 });
    const first = p.submit({ value: 'slow', ms: 300 }, { runTimeoutMs: 1_000 });
    const second = p.submit({ value: 'next', ms: 10 }, { runTimeoutMs: 200 });
    expect(await first).toBe('>slow');
    expect(await second).toBe('>next');
    const stuck = p.submit({ value: 'stuck', block: true, ms: 5_000 }, { runTimeoutMs: 200 });
    await expect(stuck).rejects.toThrow(/time limit of 0.2 s; its worker was replaced/);
    expect(p.stats().replaced).toBe(1);
    expect(await p.submit({ value: 'after' })).toBe('>after');
  });

  it('starts the run time limit of a job again at each progress report: it bounds one item', async () => {
    const p = start();
    // Five items of 120 ms: 600 ms in all, each well within the 400 ms limit.
    expect(await p.submit({ value: 'items', steps: 5, ms: 120 }, { runTimeoutMs: 400 })).toBe('>items');
    expect(p.stats().replaced).toBe(0);
    // One item past the limit still ends the worker.
    const stuck = p.submit({ value: 'stuck', steps: 2, ms: 1_500 }, { runTimeoutMs: 400 });
    await expect(stuck).rejects.toThrow(/time limit of 0.4 s; its worker was replaced/);
    expect(p.stats().replaced).toBe(1);
  });

  it('drains: lets running jobs finish, refuses new ones, then stops', async () => {
    const p = start({ size: 2 });
    const running = [p.submit({ value: 'a', ms: 100 }), p.submit({ value: 'b', ms: 100 })];
    const drained = p.drain();
    expect(await kindOf(p.submit({ value: 'late' }))).toBe('closed');
    expect(await Promise.all(running)).toEqual(['>a', '>b']);
    await drained;
    expect(p.stats().size).toBe(0);
  });

  it('gives up after the allowed boot failures', async () => {
    let broken: string | undefined;
    const p = start({
      entry: new URL('./fixtures/workers/missing.ts', import.meta.url),
      bootFailures: 1,
      onBroken: (reason) => (broken = reason),
    });
    expect(await kindOf(p.submit({ value: 'a' }))).toBe('broken');
    expect(broken).toMatch(/^worker failed: /);
    expect(p.stats().size).toBe(0);
    expect(await kindOf(p.submit({ value: 'b' }))).toBe('broken');
  });
});
