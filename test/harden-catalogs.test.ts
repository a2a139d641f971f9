/**
 * The catalog registry: bounded (catalogs, total bytes, depth of output paths; 507/413 in the shape
 * `{error, field}`), owned by the client whose token registered each catalog (403 to any other), and
 * parsed off the main thread, so the server answers while a large catalog is being checked.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/server/app.ts';
import { serveOptions } from '../src/cli/serve.ts';
import { SERVE_DEFAULTS } from './serve-flags.ts';
import { jobMessage, WORKER_CATALOG_BYTES } from '../src/server/solve.ts';
import type { Job } from '../src/server/jobs.ts';
import type { PoolSlot } from '../src/workers/pool.ts';
import type { InputError } from '../src/model/errors.ts';

const catalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
const gold = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8'))[0].output;
const size = Buffer.byteLength(JSON.stringify(catalog));
const ALICE = 'alice-token';
const BOB = 'bob-token';

let app: FastifyInstance;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'refract-registry-'));
  app = buildServer({
    workers: 1,
    tokens: [ALICE, BOB],
    bodyLimit: 4 * 1024 * 1024,
    catalogDir: dir,
    catalogs: { nestful: catalog },
    // nestful (start-up) + two more of its size fit; a third does not.
    catalogLimits: { maxCatalogs: 5, maxCatalogBytes: Math.floor(3.5 * size), maxOutputDepth: 6 },
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** A catalog whose one API has an output nested `depth` levels deep with keys of `keyLength`. */
function deepCatalog(depth: number, keyLength = 2): unknown {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = depth - 1; i >= 1; i--) {
    node = { type: 'object', properties: { [`k${i}`.padEnd(keyLength, 'x')]: node } };
  }
  return [{ name: 'Deep', query_parameters: {}, output_parameters: { ['k0'.padEnd(keyLength, 'x')]: node } }];
}

describe('registry limits', () => {
  it('refuses output paths nested deeper than the limit with 413 naming the node', async () => {
    expect((await call('PUT', '/v1/catalogs/ok-depth', ALICE, deepCatalog(6))).status).toBe(201);
    const deep = await call('PUT', '/v1/catalogs/too-deep', ALICE, deepCatalog(7));
    expect(deep.status).toBe(413);
    expect(deep.json.error).toMatch(/nested deeper than 6 levels/);
    expect(deep.json.field).toMatch(/^catalog\[0\]\.output_parameters\.k0\.properties\.k1/);
    await call('DELETE', '/v1/catalogs/ok-depth', ALICE);
  });

  it('refuses the deep chain of long keys that used to cost ~55 MB per catalog', async () => {
    // 60 levels of 2 KB keys: every prefix path of the chain would be kept.
    const hostile = await call('PUT', '/v1/catalogs/hostile', ALICE, deepCatalog(60, 2 * 1024));
    expect([400, 413]).toContain(hostile.status);
    expect(hostile.json.field).toMatch(/^catalog\[0\]\.output_parameters/);
  });

  it('refuses a catalog past the total bytes with 507, and past the count with 507 naming the name', async () => {
    const one = await call('PUT', '/v1/catalogs/one', ALICE, catalog);
    expect(one.json).toMatchObject({ name: 'one' });
    expect((await call('PUT', '/v1/catalogs/two', ALICE, catalog)).status).toBe(201);
    const full = await call('PUT', '/v1/catalogs/three', ALICE, catalog);
    expect(full.status).toBe(507);
    expect(full.json).toMatchObject({ field: 'catalog', error: expect.stringMatching(/registry is full/) });
    // One larger than the whole registry is too large, not a full registry.
    const huge = await call(
      'PUT',
      '/v1/catalogs/huge',
      ALICE,
      [...catalog, ...catalog, ...catalog, ...catalog].map((api, i) => ({
        ...api,
        name: `${api.name}_${i}`,
      })),
    );
    expect(huge.status).toBe(413);
    expect(huge.json).toMatchObject({
      field: 'catalog',
      error: expect.stringMatching(/larger than the registry holds/),
    });
    // Replacing one of them is no growth.
    expect((await call('PUT', '/v1/catalogs/two', ALICE, catalog)).status).toBe(200);
    const small = catalog.slice(0, 1);
    expect((await call('PUT', '/v1/catalogs/small1', ALICE, small)).status).toBe(201);
    expect((await call('PUT', '/v1/catalogs/small2', ALICE, small)).status).toBe(201);
    const many = await call('PUT', '/v1/catalogs/small3', ALICE, small);
    expect(many.status).toBe(507);
    expect(many.json).toMatchObject({
      field: 'name',
      error: expect.stringMatching(/5 catalogs \(limit 5\)/),
    });
    for (const name of ['two', 'small1', 'small2']) {
      expect((await call('DELETE', `/v1/catalogs/${name}`, ALICE)).status).toBe(200);
    }
  });
});

describe('ownership', () => {
  it('lets only the registering client replace or delete a catalog; others may use it', async () => {
    expect((await call('PUT', '/v1/catalogs/alices', ALICE, catalog)).status).toBe(201);
    const replace = await call('PUT', '/v1/catalogs/alices', BOB, catalog.slice(0, 3));
    expect(replace.status).toBe(403);
    expect(replace.json).toEqual({ error: 'catalog "alices" belongs to another client', field: 'name' });
    const remove = await call('DELETE', '/v1/catalogs/alices', BOB);
    expect(remove.status).toBe(403);
    const used = await call('POST', '/v1/validate', BOB, { catalogName: 'alices', sequence: gold });
    expect(used.status).toBe(200);
    expect(
      (await call('GET', '/v1/catalogs', BOB)).json.catalogs.map((c: { apis: number }) => c.apis),
    ).toContain(catalog.length);
    expect((await call('PUT', '/v1/catalogs/alices', ALICE, catalog.slice(0, 3))).status).toBe(200);
  });

  it('keeps catalogs given at start-up read-only, and ownership across a restart', async () => {
    const startup = await call('PUT', '/v1/catalogs/nestful', ALICE, catalog);
    expect(startup.status).toBe(403);
    expect(startup.json.error).toMatch(/belongs to the server/);
    const removeStartup = await call('DELETE', '/v1/catalogs/nestful', ALICE);
    expect(removeStartup.status).toBe(403);
    expect(removeStartup.json.error).toMatch(/belongs to the server \(registered at start-up\)/);
    expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['alices.json', 'alices.owner']));
    const again = buildServer({ workers: 1, tokens: [ALICE, BOB], catalogDir: dir });
    try {
      const bob = await again.inject({
        method: 'DELETE',
        url: '/v1/catalogs/alices',
        headers: { authorization: `Bearer ${BOB}` },
      });
      expect(bob.statusCode).toBe(403);
      const alice = await again.inject({
        method: 'DELETE',
        url: '/v1/catalogs/alices',
        headers: { authorization: `Bearer ${ALICE}` },
      });
      expect(alice.statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe('parsing off the main thread', () => {
  const apis = Array.from({ length: 1000 }, (_, i) => ({
    name: `Api${i}`,
    description: 'does things '.repeat(5),
    query_parameters: Object.fromEntries(
      Array.from({ length: 12 }, (_, k) => [`param${k}`, { type: 'string', required: k < 2 }]),
    ),
    output_parameters: Object.fromEntries(
      Array.from({ length: 6 }, (_, k) => [
        `out${k}`,
        { type: 'object', properties: { a: { type: 'string' } } },
      ]),
    ),
  }));

  /** What `wide` answered, in order, with `start <METHOD url>` once a request's body is in. */
  const order: string[] = [];
  let wide: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    // Default registry limits: the catalog (1.5 MB) fits.
    wide = buildServer({ workers: 1, bodyLimit: 4 * 1024 * 1024 });
    wide.addHook('preValidation', async (request) => {
      if (request.method !== 'GET') order.push(`start ${request.method} ${request.url}`);
    });
    wide.addHook('onSend', async (request) => {
      order.push(`${request.method} ${request.url}`);
    });
    url = await wide.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => wide.close());

  /** Sends the request and polls /v1/health until it is answered; true when health answered meanwhile. */
  async function healthAnsweredDuring(method: string, path: string, body: unknown): Promise<number> {
    order.length = 0;
    let done = false;
    const sent = fetch(url + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).finally(() => (done = true));
    while (!done) {
      await fetch(`${url}/v1/health`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await sent).status).toBeLessThan(300);
    const start = order.indexOf(`start ${method} ${path}`);
    const end = order.indexOf(`${method} ${path}`);
    expect(start).toBeGreaterThanOrEqual(0);
    return order.slice(start, end).filter((e) => e === 'GET /v1/health').length;
  }

  it('answers /v1/health while a large catalog is registered', async () => {
    expect(await healthAnsweredDuring('PUT', '/v1/catalogs/large', apis)).toBeGreaterThan(0);
  });

  it('answers /v1/health while a large inline catalog is parsed for a validation', async () => {
    const sequence = [{ name: 'Api1', arguments: { param0: 'a', param1: 'b' } }];
    expect(await healthAnsweredDuring('POST', '/v1/validate', { catalog: apis, sequence })).toBeGreaterThan(
      0,
    );
  });
});

describe('serve flags for the limits', () => {
  const flags = SERVE_DEFAULTS;

  it('reads the token file, time-outs, budgets and registry limits', () => {
    const file = join(dir, 'tokens.txt');
    writeFileSync(file, '# one token per client\nalice-token\n\nbob-token\n');
    const options = serveOptions(
      {
        ...flags,
        tokenFile: file,
        bodyTimeout: '2.5',
        headersTimeout: '1',
        receiveBudget: '8m',
        maxConnections: '64',
        maxCatalogs: '10',
        maxCatalogBytes: '512k',
        maxOutputDepth: '8',
      },
      {},
    );
    expect(options).toMatchObject({
      tokens: ['alice-token', 'bob-token'],
      bodyTimeoutMs: 2500,
      headersTimeoutMs: 1000,
      receiveBudget: 8 << 20,
      maxConnections: 64,
      catalogLimits: { maxCatalogs: 10, maxCatalogBytes: 512 << 10, maxOutputDepth: 8 },
    });
  });

  it('names the flag at fault', () => {
    const fault = (extra: Record<string, string>) => {
      try {
        serveOptions({ ...flags, ...extra }, {});
      } catch (error) {
        return (error as InputError).field;
      }
      return undefined;
    };
    writeFileSync(join(dir, 'empty.txt'), '# nothing\n');
    expect(fault({ tokenFile: join(dir, 'empty.txt') })).toBe('--token-file');
    expect(fault({ tokenFile: join(dir, 'missing.txt') })).toBe('--token-file');
    expect(fault({ bodyTimeout: '0x10' })).toBe('--body-timeout');
    expect(fault({ receiveBudget: 'lots' })).toBe('--receive-budget');
    expect(fault({ maxOutputDepth: '500' })).toBe('--max-output-depth');
    expect(fault({ maxCatalogs: '0' })).toBe('--max-catalogs');
  });
});

describe('catalogs kept by a solve worker', () => {
  it('are bounded in bytes as well as in number, the catalog in use always kept', () => {
    const slot: PoolSlot = { id: 0, memo: new Map() };
    const job: Job = { kind: 'fix', sequence: [], options: {} };
    const big = (key: string) => ({
      ref: { key, version: 1 },
      catalog: { apis: [] },
      bytes: WORKER_CATALOG_BYTES / 3,
    });
    for (const key of ['a', 'b', 'c']) jobMessage(slot, job, big(key));
    const over = jobMessage(slot, job, big('d'));
    expect(over.drop).toEqual(['a']);
    expect([...slot.memo.keys()]).toEqual(['b', 'c', 'd']);
    const huge = jobMessage(slot, job, { ...big('e'), bytes: 2 * WORKER_CATALOG_BYTES });
    expect(huge.drop).toEqual(['b', 'c', 'd']);
    expect(huge.catalogData).toBeDefined();
    expect([...slot.memo.keys()]).toEqual(['e']);
  });
});
