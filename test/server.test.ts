/** The HTTP API over real loopback HTTP: every route, auth, catalogs by name, bad bodies, body limit. */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/server/app.ts';
import {
  CatalogListSchema,
  ErrorSchema,
  HealthSchema,
  LoopJsonSchema,
  RepairJsonSchema,
  ValidationJsonSchema,
} from '../src/api/result.ts';

const catalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
const gold = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8'))[0].output;
const broken = readFileSync('samples/broken-nestful.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { id: string; sequence: unknown });
const TOKEN = 'test-token';

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = buildServer({ workers: 1, token: TOKEN, bodyLimit: 512 * 1024 });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

async function call(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

describe('token', () => {
  it('leaves health open and answers it with the pool state', async () => {
    const r = await call('GET', '/v1/health', undefined, null);
    expect(r.status).toBe(200);
    expect(HealthSchema.parse(r.json).workers.size).toBe(1);
  });

  it('refuses other routes without the token or with a wrong one', async () => {
    const missing = await call('POST', '/v1/validate', { sequence: gold, catalog }, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.json).toEqual({ error: 'missing bearer token', field: 'authorization' });
    expect((await call('GET', '/v1/catalogs', undefined, 'nope')).status).toBe(401);
    expect((await call('GET', '/openapi.json', undefined, null)).status).toBe(401);
  });
});

describe('solve routes', () => {
  it('validates without repairing', async () => {
    const ok = await call('POST', '/v1/validate', { sequence: gold, catalog, id: 'g' });
    expect(ok.status).toBe(200);
    expect(ValidationJsonSchema.parse(ok.json)).toMatchObject({ id: 'g', valid: true, determination: true });
    const bad = await call('POST', '/v1/validate', { sequence: broken[0].sequence, catalog });
    expect(bad.json.valid).toBe(false);
    expect(bad.json.issues.map((i: { tag: string }) => i.tag)).toContain('unknown_api');
  });

  it('fixes a broken sequence with the CLI result shape', async () => {
    const r = await call('POST', '/v1/fix', { id: 'made-up', sequence: broken[0].sequence, catalog });
    expect(r.status).toBe(200);
    const result = RepairJsonSchema.parse(r.json);
    expect(result).toMatchObject({
      id: 'made-up',
      determination: false,
      status: 'repaired',
      isExecutable: true,
    });
    expect(result.edits.map((e) => e.kind)).toContain('renameApi');
    expect(result.sequence.map((s) => s.name)).toContain('SkyScrapperFlightSearch');
  });

  it('takes the string form and OpenAI tool calls', async () => {
    const text = 'var1 = SkyScrapperSearchAirport(query="New York")';
    const r = await call('POST', '/v1/fix', { sequence: text, catalog });
    expect(r.json).toMatchObject({ determination: true, status: 'valid' });
    const calls = [
      { type: 'function', function: { name: 'SkyScrapperSearchAirport', arguments: '{"query":"Rome"}' } },
    ];
    expect((await call('POST', '/v1/validate', { sequence: calls, catalog })).json.valid).toBe(true);
  });

  it('answers only what the OpenAPI document describes: healed arguments and exhausted calls included', async () => {
    const strict = RepairJsonSchema.strict();
    const healed = [
      { type: 'function', function: { name: 'SkyScrapperSearchAirport', arguments: '{"query": "Rome"' } },
    ];
    const h = await call('POST', '/v1/fix', { sequence: healed, catalog, heal: true });
    expect(strict.parse(h.json).heal).toMatchObject([{ kind: 'repairJson', step: 1 }]);
    const executed = readFileSync('samples/executed-calls.txt', 'utf8');
    const plan = readFileSync('samples/retry-plan.txt', 'utf8');
    const e = await call('POST', '/v1/fix', { sequence: plan, catalog, executed, maxTries: 2 });
    expect(strict.parse(e.json)).toMatchObject({ status: 'exhausted', isExecutable: false });
    expect(e.json.exhausted).toHaveLength(2);
  });

  it('compresses: a repeated call goes', async () => {
    const repeated = [gold[0], { ...gold[0], label: 'var9' }, ...gold.slice(1)];
    const r = await call('POST', '/v1/compress', { sequence: repeated, catalog });
    expect(r.status).toBe(200);
    const result = RepairJsonSchema.parse(r.json);
    expect(result.determination).toBe(true);
    expect(result.sequence).toHaveLength(gold.length);
    // Steps are numbered from 1: the repeated call is step 2.
    expect(result.edits).toEqual([expect.objectContaining({ kind: 'deleteStep', step: 2 })]);
  });

  it('runs the repair loop with the optimiser', async () => {
    const r = await call('POST', '/v1/loop', { sequence: broken[0].sequence, catalog, maxRounds: 3 });
    expect(r.status).toBe(200);
    const result = LoopJsonSchema.parse(r.json);
    expect(result.stop).toBe('solved');
    expect(result.history[result.history.length - 1]).toBe(0);
  });
});

describe('catalogs by name', () => {
  it('registers, lists, uses, replaces and deletes a catalog', async () => {
    const put = await call('PUT', '/v1/catalogs/nestful', catalog);
    expect(put.status).toBe(201);
    expect(put.json).toMatchObject({ name: 'nestful', apis: catalog.length });
    const list = CatalogListSchema.parse((await call('GET', '/v1/catalogs')).json);
    expect(list.catalogs).toEqual([put.json]);

    const fixed = await call('POST', '/v1/fix', { sequence: broken[1].sequence, catalogName: 'nestful' });
    expect(fixed.json.status).toBe('repaired');

    const again = await call('PUT', '/v1/catalogs/nestful', catalog.slice(0, 3));
    expect(again.status).toBe(200);
    expect(again.json.version).toBeGreaterThan(put.json.version);
    // The worker gets the new version: the flight search is no longer in the catalog.
    const v = await call('POST', '/v1/fix', { sequence: gold, catalogName: 'nestful' });
    expect(v.json.issues.map((i: { tag: string }) => i.tag)).toContain('unknown_api');

    expect((await call('DELETE', '/v1/catalogs/nestful')).status).toBe(200);
    expect((await call('DELETE', '/v1/catalogs/nestful')).status).toBe(404);
    const gone = await call('POST', '/v1/fix', { sequence: gold, catalogName: 'nestful' });
    expect(gone.status).toBe(400);
    expect(gone.json.field).toBe('catalogName');
  });

  it('rejects a bad catalog with the field at fault', async () => {
    const r = await call('PUT', '/v1/catalogs/bad', [{ name: 'A', parameters: 3 }]);
    expect(r.status).toBe(400);
    expect(r.json.field).toMatch(/^catalog\[0\]/);
    expect((await call('PUT', '/v1/catalogs/bad%20name', catalog)).json.field).toBe('name');
  });
});

describe('bad requests', () => {
  const cases: [string, unknown, string][] = [
    ['malformed JSON', '{"sequence": [', 'body'],
    ['unknown solver', { sequence: gold, catalog, solver: 'cplex' }, 'solver'],
    ['negative timeout', { sequence: gold, catalog, timeout: -1 }, 'timeout'],
    ['sequence of the wrong type', { sequence: 42, catalog }, 'sequence'],
    ['step without a name', { sequence: [{ arguments: {} }], catalog }, 'sequence[0].name'],
    ['unknown field', { sequence: gold, catalog, sovler: 'highs' }, 'sovler'],
    ['no catalog', { sequence: gold }, 'catalog'],
    ['two catalogs', { sequence: gold, catalog, catalogName: 'x' }, 'catalog'],
    ['unknown cost preset', { sequence: gold, catalog, costModel: '/etc/passwd' }, 'costModel'],
    ['unknown weight', { sequence: gold, catalog, weights: { speed: 1 } }, 'weights.speed'],
    ['bad memory', { sequence: gold, catalog, memory: 5 }, 'memory'],
    ['not an object', [1, 2], 'body'],
    ['threshold above 1', { sequence: gold, catalog, minConfidence: 2 }, 'minConfidence'],
    [
      'threshold without a calibration',
      { sequence: gold, catalog, minConfidence: 0.9, costModel: 'hand' },
      'minConfidence',
    ],
  ];
  it.each(cases)('%s -> 400 naming the field', async (_name, body, field) => {
    const r = await call('POST', '/v1/fix', body);
    expect(r.status).toBe(400);
    expect(ErrorSchema.parse(r.json).field).toBe(field);
  });

  it('a catalog’s name where the catalog goes: says the catalog itself goes there', async () => {
    const r = await call('POST', '/v1/fix', { sequence: gold, catalog: 'nestful' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error:
        'catalog: expected an array of APIs, {"tools": [...]} or {"apis": [...]}, received string: the catalog itself, not its name or path',
      field: 'catalog',
    });
  });

  it('answers 413 to a body over the limit', async () => {
    const r = await call('POST', '/v1/fix', { sequence: 'x'.repeat(600 * 1024), catalog });
    expect(r.status).toBe(413);
    expect(r.json.field).toBe('body');
  });

  it('says why JSON is malformed, refuses __proto__ keys, and allows DELETE with a JSON content type', async () => {
    const r = await call('POST', '/v1/fix', '{"sequence": [}');
    expect(r.json.error).toMatch(/^body: malformed JSON: Unexpected token/);
    const proto = await call('POST', '/v1/fix', '{"sequence": [], "catalog": [], "__proto__": {"x": 1}}');
    expect(proto.json).toEqual({
      error: 'body: malformed JSON: a __proto__ key is not allowed',
      field: 'body',
    });
    const empty = await call('POST', '/v1/fix', '');
    expect(empty.status).toBe(400);
    const res = await fetch(`${base}/v1/catalogs/none`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(404);
  });

  it('answers 415 to a body of another media type, JSON or not, on every JSON route', async () => {
    const send = async (method: string, path: string, type: string, body: string) => {
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': type };
      const response = await fetch(base + path, { method, headers, body });
      return { status: response.status, json: await response.json() };
    };
    const media = { error: 'unsupported media type: send application/json', field: 'content-type' };
    const valid = JSON.stringify({ sequence: gold, catalog });
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
      expect(await send('POST', '/v1/validate', type, valid), type).toEqual({ status: 415, json: media });
      expect(await send('POST', '/v1/fix', type, 'not json'), type).toEqual({ status: 415, json: media });
    }
    const put = await send('PUT', '/v1/catalogs/plain', 'text/plain', JSON.stringify(catalog));
    expect(put).toEqual({ status: 415, json: media });
    // A compressed body is a coding the server does not take: 415 naming it, not a 400 on its bytes.
    const gzipped = await fetch(`${base}/v1/validate`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(valid),
    });
    expect({ status: gzipped.status, json: await gzipped.json() }).toEqual({
      status: 415,
      json: {
        error: 'content-encoding gzip is not supported: send the body uncompressed',
        field: 'content-encoding',
      },
    });
    // JSON is UTF-8: a body declared in another charset is refused, not read as UTF-8; utf-8 in any case is fine.
    expect(await send('POST', '/v1/validate', 'application/json; charset=latin1', valid)).toEqual({
      status: 415,
      json: { error: 'charset latin1 is not supported: send the body as UTF-8', field: 'content-type' },
    });
    expect((await send('POST', '/v1/validate', 'application/json; charset=UTF-8', valid)).status).toBe(200);
    // A request without its sequence says the field is missing.
    expect((await call('POST', '/v1/fix', { catalog })).json).toEqual({
      error: 'sequence: required: expected string or array or object',
      field: 'sequence',
    });
  });

  it('never reads a cost model from a path it is given', async () => {
    const r = await call('POST', '/v1/fix', { sequence: gold, catalog, costModel: '/etc/passwd' });
    expect(r.json.error).toMatch(/^costModel: no preset named "\/etc\/passwd" \(presets: /);
    expect(r.json.error).not.toContain('root:');
  });

  it('answers 404 as JSON', async () => {
    const r = await call('GET', '/v2/nothing');
    expect(r.status).toBe(404);
    expect(r.json.error).toMatch(/no route/);
  });
});

describe('openapi.json', () => {
  it('is JSON with every path and the request schemas', async () => {
    const r = await call('GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    expect(Object.keys(r.json.paths).sort()).toEqual(
      [
        '/v1/catalogs',
        '/v1/catalogs/{name}',
        '/v1/compress',
        '/v1/fix',
        '/v1/health',
        '/v1/loop',
        '/v1/validate',
      ].sort(),
    );
    const repair = r.json.components.schemas.RepairRequest;
    expect(repair.properties.solver.enum).toEqual(['highs', 'lp-solver', 'portfolio']);
    expect(repair.additionalProperties).toBe(false);
    // Every status the catalog routes answer with is documented.
    for (const route of ['/v1/validate', '/v1/fix', '/v1/compress', '/v1/loop'])
      expect(Object.keys(r.json.paths[route].post.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '408', '413', '414', '415', '431', '503']),
      );
    expect(Object.keys(r.json.paths['/v1/catalogs'].get.responses)).toEqual(['200', '401']);
    const registry = r.json.paths['/v1/catalogs/{name}'];
    expect(Object.keys(registry.put.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '403', '413', '415', '507']),
    );
    expect(Object.keys(registry.delete.responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404']),
    );
    const refs = JSON.stringify(r.json).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs)
      expect(r.json.components.schemas).toHaveProperty(ref.split('/').pop()!.replace('"', ''));
  });
});

describe('minConfidence', () => {
  it('holds back a repair below minConfidence as uncertain, the repair in the answer', async () => {
    const sequence = broken[0].sequence;
    const plain = RepairJsonSchema.parse((await call('POST', '/v1/fix', { sequence, catalog })).json);
    expect(plain.status).toBe('repaired');
    const r = await call('POST', '/v1/fix', { sequence, catalog, minConfidence: 1 });
    expect(r.status).toBe(200);
    const held = RepairJsonSchema.parse(r.json);
    expect(held.status).toBe('uncertain');
    expect(held.sequence).toEqual(plain.sequence);
    // Held back: a client gating execution on isExecutable does not run it (the agent hook agrees).
    expect(plain.isExecutable).toBe(true);
    expect(held.isExecutable).toBe(false);
    expect(held.reason).toBe(`confidence ${plain.confidence} is below minConfidence 1`);
  });
});
