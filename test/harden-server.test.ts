/**
 * A service one client cannot take down: slow senders are cut by the body and header time-outs (408 in
 * the service's shape) without taking solve slots from anyone; bodies arriving at once share a byte
 * budget (503 past it); a client that goes away cancels its work in the worker, and its slot stays taken
 * until that work has ended, so abandoned requests never queue up behind the limit.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/server/app.ts';
import { HealthSchema } from '../src/api/result.ts';

const catalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
const gold = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8'))[0].output;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let app: FastifyInstance;
let base: string;
let port: number;
/** Requests whose headers the server has read; admitted ones by id; ids whose client went away; errors. */
const seen = {
  slow: 0,
  admitted: new Set<string>(),
  gone: new Set<string>(),
  errors: new Map<string, string>(),
};

beforeAll(async () => {
  app = buildServer({
    workers: 1,
    maxInflight: 8,
    requestTimeoutMs: 4000,
    bodyTimeoutMs: 1000,
    headersTimeoutMs: 500,
    receiveBudget: 64 * 1024,
    testHooks: true,
    catalogs: { nestful: catalog },
  });
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-slow'] !== undefined) seen.slow++;
  });
  app.addHook('preHandler', async (request, reply) => {
    const id = (request.body as { id?: string } | undefined)?.id;
    if (id === undefined) return;
    seen.admitted.add(id);
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) seen.gone.add(id);
    });
  });
  app.addHook('onError', async (request, _reply, error) => {
    const id = (request.body as { id?: string } | undefined)?.id;
    if (id !== undefined) seen.errors.set(id, `${(error as { kind?: string }).kind}: ${error.message}`);
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(base).port);
  await until((h) => h.workers.ready === 1);
});
afterAll(() => app.close());

async function health() {
  return HealthSchema.parse(await (await fetch(`${base}/v1/health`)).json());
}

/** Polls until the condition holds (no time assertion: the test's own time-out bounds it). */
async function until(condition: (h: Awaited<ReturnType<typeof health>>) => boolean): Promise<void> {
  while (!condition(await health())) await sleep(20);
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

function fix(id: string, signal?: AbortSignal) {
  return fetch(`${base}/v1/fix`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, sequence: gold, catalogName: 'nestful' }),
    signal,
  });
}

/** A raw connection that sends `text` and records everything it gets until the server closes it. */
function rawClient(text: string): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(text);
  const answer = new Promise<string>((resolve) => {
    let got = '';
    socket.on('data', (chunk) => (got += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve(got));
  });
  return { socket, answer };
}

function parseAnswer(raw: string): { status: number; json: unknown } {
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0),
    json: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
  };
}

describe('slow senders', () => {
  it('a slow body takes no solve slot and is cut with 408 {error, field}', async () => {
    const head = 'POST /v1/fix HTTP/1.1\r\nhost: x\r\nx-slow: 1\r\ncontent-type: application/json\r\n';
    // More slow senders than solve slots, each one byte into a 400-byte body.
    const slow = Array.from({ length: 10 }, () => rawClient(`${head}content-length: 400\r\n\r\n{`));
    await waitFor(() => seen.slow === 10);
    const legit = await fix('legit-during-slow');
    expect(legit.status).toBe(200);
    expect(await legit.json()).toMatchObject({ id: 'legit-during-slow', status: 'valid' });
    for (const client of slow) {
      const answer = parseAnswer(await client.answer);
      expect(answer.status).toBe(408);
      expect(answer.json).toEqual({ error: 'request not received in time', field: 'body' });
    }
  });

  it('headers that never end are cut with 408 too', async () => {
    const client = rawClient('POST /v1/fix HTTP/1.1\r\nhost: x\r\nx-half: ');
    const answer = parseAnswer(await client.answer);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ field: 'body' });
  });

  it('bodies arriving at once share the receive budget: past it 503 with Retry-After', async () => {
    const head = 'POST /v1/validate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n';
    // 60 KiB of a 64 KiB budget held by one slow body, then a body that does not fit.
    const holder = rawClient(`${head}content-length: 70000\r\n\r\n${' '.repeat(60 * 1024)}`);
    await waitFor(() => app.admission.receiving >= 60 * 1024);
    const big = await fetch(`${base}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ catalogName: 'nestful', sequence: gold, pad: ' '.repeat(8 * 1024) }),
    });
    expect(big.status).toBe(503);
    expect(big.headers.get('retry-after')).toBe('1');
    expect(await big.json()).toMatchObject({ field: 'body' });
    expect(parseAnswer(await holder.answer).status).toBe(408);
    const after = await fix('after-budget');
    expect(after.status).toBe(200);
  });
});

describe('clients that go away', () => {
  it('leave no work queued: a legitimate request behind them is answered in time', async () => {
    await until((h) => h.inflight === 0 && h.workers.busy === 0);
    const controllers = Array.from({ length: 6 }, () => new AbortController());
    // Six jobs of 0.9 s on one worker would hold a request behind them past its 4 s limit.
    const ids = controllers.map((_, i) => `test:block:${900 + i}`);
    const requests = controllers.map((c, i) => fix(ids[i], c.signal).catch(() => undefined));
    await waitFor(() => ids.every((id) => seen.admitted.has(id)));
    for (const c of controllers) c.abort();
    await Promise.all(requests);
    await waitFor(() => ids.every((id) => seen.gone.has(id)));
    const legit = await fix('legit-after-abandon');
    expect(legit.status).toBe(200);
    expect(await legit.json()).toMatchObject({ id: 'legit-after-abandon', status: 'valid' });
    // The five that had not started were dropped from the queue without running.
    const dropped = ids.filter(
      (id) => seen.errors.get(id) === 'cancelled: the job was cancelled before it started',
    );
    expect(dropped).toHaveLength(5);
  }, 15_000);

  it('cancels running work in the worker, which is not replaced', async () => {
    await until((h) => h.inflight === 0 && h.workers.busy === 0);
    const before = (await health()).workers.replaced;
    const controller = new AbortController();
    // A minute of work that looks at its signal, as the compile loops do.
    const id = 'test:sleep:60000';
    const request = fix(id, controller.signal).catch(() => undefined);
    await waitFor(() => seen.admitted.has(id));
    await until((h) => h.workers.busy === 1);
    controller.abort();
    await request;
    await until((h) => h.inflight === 0 && h.workers.busy === 0);
    expect(seen.errors.get(id)).toBe('cancelled: the job was cancelled while it ran');
    expect((await health()).workers.replaced).toBe(before);
  }, 15_000);

  it('keeps an abandoned request counted while its work still runs', async () => {
    await until((h) => h.inflight === 0 && h.workers.busy === 0);
    const controller = new AbortController();
    // A blocked thread stands for a solve that cannot stop at once: its slot stays taken meanwhile.
    const id = 'test:block:2500';
    const request = fix(id, controller.signal).catch(() => undefined);
    await waitFor(() => seen.admitted.has(id));
    controller.abort();
    await request;
    await waitFor(() => seen.gone.has(id));
    const during = await health();
    expect(during.workers.busy).toBe(1);
    expect(during.inflight).toBe(1);
    await until((h) => h.inflight === 0);
    expect((await fix('after-abandoned-work')).status).toBe(200);
  }, 15_000);
});
