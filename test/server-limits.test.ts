/**
 * The server under pressure: 503 when saturated, 504 when a worker overruns the request limit, 500 when a
 * worker dies (both replaced), and a graceful close that lets an in-flight request finish. Jobs whose id is
 * `test:block:<ms>` / `test:exit:<code>` stall or kill their worker (the `testHooks` option).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/server/app.ts';
import { HealthSchema } from '../src/api/result.ts';

const gold = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8'))[0].output;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let app: FastifyInstance;
let base: string;

async function health() {
  return HealthSchema.parse(await (await fetch(`${base}/v1/health`)).json());
}

/** Polls until the condition holds (no time assertion: the test's own time-out bounds it). */
async function until(condition: (h: Awaited<ReturnType<typeof health>>) => boolean): Promise<void> {
  while (!condition(await health())) await sleep(20);
}

async function fix(id: string) {
  const response = await fetch(`${base}/v1/fix`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, sequence: gold, catalogName: 'nestful' }),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

beforeAll(async () => {
  app = buildServer({
    // Two workers: one serves while the other is being replaced.
    workers: 2,
    maxInflight: 1,
    requestTimeoutMs: 2000,
    testHooks: true,
    catalogs: { nestful: JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8')) },
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  await until((h) => h.workers.ready === 2);
});
afterAll(() => app.close());

describe('limits', () => {
  it('answers 503 with Retry-After while the in-flight limit is reached', async () => {
    const slow = fix('test:block:1000');
    await until((h) => h.inflight === 1);
    const refused = await fix('second');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json.error).toMatch(/busy/);
    const first = await slow;
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ id: 'test:block:1000', status: 'valid' });
  });

  it('answers 504 when a worker overruns the request limit, and replaces the worker', async () => {
    const before = (await health()).workers.replaced;
    const r = await fix('test:block:600000');
    expect(r.status).toBe(504);
    expect(r.json).toMatchObject({ status: 'timeout', determination: null });
    expect(r.json.reason).toMatch(/time limit of 2 s; its worker was replaced/);
    expect((await health()).workers).toMatchObject({ size: 2, replaced: before + 1 });
    expect((await fix('after-timeout')).json.status).toBe('valid');
  });

  it('answers 500 when a worker dies, and replaces the worker', async () => {
    await until((h) => h.workers.ready === 2);
    const before = (await health()).workers.replaced;
    const r = await fix('test:exit:3');
    expect(r.status).toBe(500);
    expect(r.json).toMatchObject({
      status: 'error',
      determination: null,
      reason: 'worker exited with code 3',
    });
    expect((await health()).workers.replaced).toBe(before + 1);
    expect((await fix('after-crash')).status).toBe(200);
    await until((h) => h.workers.ready === 2);
  });
});

describe('graceful shutdown', () => {
  it('finishes an in-flight request after close() is called', async () => {
    const slow = fix('test:block:800');
    await until((h) => h.inflight === 1);
    const closed = app.close();
    const r = await slow;
    expect(r.status).toBe(200);
    expect(r.json.id).toBe('test:block:800');
    await closed;
    await expect(fetch(`${base}/v1/health`)).rejects.toThrow();
  });
});
