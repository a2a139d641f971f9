/** Parts of the server that need no worker: serve flags, catalog persistence, catalog shipping to workers. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../src/model/errors.ts';
import { byteSize, serveOptions } from '../src/cli/serve.ts';
import { SERVE_DEFAULTS } from './serve-flags.ts';
import { CatalogStore } from '../src/server/catalogs.ts';
import type { Job } from '../src/server/jobs.ts';
import type { PoolSlot } from '../src/workers/pool.ts';
import { jobMessage, WORKER_CATALOGS } from '../src/server/solve.ts';

const catalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
const flags = SERVE_DEFAULTS;

function fieldOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof InputError) return error.field;
    throw error;
  }
  return undefined;
}

describe('serve flags', () => {
  it('reads sizes, limits, the token from the environment and catalogs by name', () => {
    const options = serveOptions(
      {
        ...flags,
        bodyLimit: '1m',
        maxInflight: '8',
        workers: '3',
        catalog: ['nestful=data/nestful/executable-spec.json'],
      },
      { REFRACT_TOKEN: 'from-env' },
    );
    expect(options).toMatchObject({
      token: 'from-env',
      workers: 3,
      bodyLimit: 1 << 20,
      maxInflight: 8,
      requestTimeoutMs: 30_000,
      logLevel: 'info',
    });
    expect(Object.keys(options.catalogs ?? {})).toEqual(['nestful']);
    expect(serveOptions({ ...flags, token: 'flag' }, { REFRACT_TOKEN: 'env' }).token).toBe('flag');
    expect([byteSize('b', '512k'), byteSize('b', '2048'), byteSize('b', '1MiB')]).toEqual([
      524288,
      2048,
      1 << 20,
    ]);
  });

  it('names the flag at fault', () => {
    expect(fieldOf(() => serveOptions({ ...flags, bodyLimit: 'lots' }, {}))).toBe('--body-limit');
    expect(fieldOf(() => serveOptions({ ...flags, maxInflight: '0' }, {}))).toBe('--max-inflight');
    expect(fieldOf(() => serveOptions({ ...flags, requestTimeout: '-5' }, {}))).toBe('--request-timeout');
    expect(fieldOf(() => serveOptions({ ...flags, logLevel: 'loud' }, {}))).toBe('--log-level');
    expect(fieldOf(() => serveOptions({ ...flags, catalog: ['no-equals'] }, {}))).toBe('--catalog');
    expect(fieldOf(() => serveOptions({ ...flags, catalog: ['x=missing.json'] }, {}))).toBe('--catalog');
    expect(fieldOf(() => serveOptions({ ...flags }, { REFRACT_TOKEN: ' ' }))).toBe('--token');
  });
});

describe('catalog store', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('persists registrations in the catalog directory and loads them at start-up', async () => {
    dir = mkdtempSync(join(tmpdir(), 'refract-catalogs-'));
    const store = new CatalogStore(dir);
    await store.put('nestful', catalog);
    await store.put('small', catalog.slice(0, 2));
    await store.delete('small');
    expect(readdirSync(dir)).toEqual(['nestful.json']);
    const reloaded = new CatalogStore(dir);
    expect(reloaded.list()).toEqual([{ name: 'nestful', apis: catalog.length, version: 1 }]);
  });

  it('keeps one Catalog object per registration and per inline catalog', () => {
    const store = new CatalogStore();
    store.add('a', catalog);
    const first = store.resolve('a', undefined);
    expect(store.resolve('a', undefined).catalog).toBe(first.catalog);
    const inline = store.resolve(undefined, catalog);
    expect(store.resolve(undefined, JSON.parse(JSON.stringify(catalog))).catalog).toBe(inline.catalog);
    expect(inline.ref.key).toMatch(/^inline:[0-9a-f]{64}$/);
    store.add('a', catalog);
    expect(store.resolve('a', undefined).ref.version).toBeGreaterThan(first.ref.version);
  });
});

describe('catalog shipping', () => {
  const job: Job = { kind: 'fix', sequence: [], options: {} };
  const resolved = (key: string, version = 1) => ({ ref: { key, version }, catalog: { apis: [] } });

  it('sends a catalog to a worker once per version, and evicts the least recently used', () => {
    const slot: PoolSlot = { id: 0, memo: new Map() };
    expect(jobMessage(slot, job, resolved('name:a')).catalogData).toBeDefined();
    expect(jobMessage(slot, job, resolved('name:a')).catalogData).toBeUndefined();
    expect(jobMessage(slot, job, resolved('name:a', 2)).catalogData).toBeDefined();
    for (let i = 0; i < WORKER_CATALOGS - 1; i++) jobMessage(slot, job, resolved(`name:k${i}`));
    jobMessage(slot, job, resolved('name:a', 2));
    const over = jobMessage(slot, job, resolved('name:new'));
    expect(over.drop).toEqual(['name:k0']);
    expect(slot.memo.size).toBe(WORKER_CATALOGS);
    expect(jobMessage(slot, job, resolved('name:a', 2)).catalogData).toBeUndefined();
  });
});
