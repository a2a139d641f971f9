/**
 * Strict inputs: invalid UTF-8 is refused naming the byte offset (CLI exit 2, server 400, batch error
 * line); a label outside the reference grammar is an input error; a catalog entry's parameters under a
 * known variant key are read and under an unknown key are an error naming it; a sequence is not a
 * catalog; catalog names up to the documented 128 characters; every error of the server, fastify's and
 * Node's included, in the shape `{error, field}`; `--timeout` takes decimal seconds only.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { readFileSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRealCli } from './cli-run.ts';
import { buildServer } from '../src/server/app.ts';
import { parseCatalog } from '../src/read/catalog.ts';
import { parseMemory } from '../src/read/memory.ts';
import { readRecords } from '../src/read/records.ts';
import { parseSequence, parseSequenceText } from '../src/read/sequence.ts';
import { InputError } from '../src/model/errors.ts';
import { tempDir } from './fixtures/batch/records.ts';
import { GOLD } from './helpers.ts';

const tmp = tempDir();
const CATALOG = 'data/nestful/executable-spec.json';
const catalog = JSON.parse(readFileSync(CATALOG, 'utf8'));
const gold = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8'))[0].output;

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = buildServer({ workers: 1 });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  tmp.remove();
});

const cli = (...args: string[]) => runRealCli([...args]);

/** Sends raw bytes over one connection and returns the status and body of the answer. */
function raw(request: Buffer | string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(request);
  });
}

function post(path: string, body: Buffer, extra: Record<string, string> = {}): Buffer {
  const headers = { 'content-type': 'application/json', ...extra };
  const head =
    `POST ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    `content-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** `{"catalogName"…` with the byte 0xff at offset `at` inside a string value. */
function withBadByte(json: string, marker: string): { bytes: Buffer; at: number } {
  const at = Buffer.byteLength(json.slice(0, json.indexOf(marker)));
  const bytes = Buffer.from(json, 'utf8');
  bytes[at] = 0xff;
  return { bytes, at };
}

describe('invalid UTF-8', () => {
  it('fix exits 2 naming the byte offset', async () => {
    const { bytes, at } = withBadByte(JSON.stringify(gold), 'New York');
    const file = tmp.file('bad-utf8.json');
    writeFileSync(file, bytes);
    const r = await cli('fix', '--catalog', CATALOG, file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`invalid UTF-8 at byte ${at}\\b`));
  });

  it('a catalog file with invalid UTF-8 is refused naming the byte offset', async () => {
    const { bytes, at } = withBadByte(readFileSync(CATALOG, 'utf8'), 'Search');
    const file = tmp.file('bad-utf8-catalog.json');
    writeFileSync(file, bytes);
    const r = await cli('fix', '--catalog', file, tmp.file('bad-utf8.json'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`bad-utf8-catalog.json: invalid UTF-8 at byte ${at}\\b`));
  });

  it('the server answers 400 naming the byte offset', async () => {
    const { bytes, at } = withBadByte(JSON.stringify({ catalog, sequence: gold }), 'New York');
    const r = await raw(post('/v1/validate', bytes));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ error: `body: invalid UTF-8 at byte ${at}`, field: 'body' });
  });

  it('batch reads the other records and gives the bad one an error line naming the file offset', async () => {
    const good = JSON.stringify({ id: 'a', sequence: gold });
    const { bytes, at } = withBadByte(JSON.stringify({ id: 'b', sequence: gold }), 'New York');
    const input = Buffer.concat([
      Buffer.from(good + '\n'),
      bytes,
      Buffer.from('\n' + good.replace('"a"', '"c"')),
    ]);
    const items = [];
    for await (const item of readRecords(Readable.from([input.subarray(0, 7), input.subarray(7)])))
      items.push(item);
    expect(items.map((item) => [item.id, item.error === undefined])).toEqual([
      ['a', true],
      ['1', false],
      ['c', true],
    ]);
    expect(items[1].error).toBe(`line 2: invalid UTF-8 at byte ${good.length + 1 + at}`);
  });
});

describe('labels follow the reference grammar', () => {
  it('refuses a label that no reference can name, in every sequence form', () => {
    const steps = [
      { name: 'SkyScrapperSearchAirport', arguments: { query: 'NY' }, label: 'my-var' },
      { name: 'var_result', arguments: { airport: '$my-var.skyId$' } },
    ];
    expect(() => parseSequence(steps)).toThrow(InputError);
    expect(() => parseSequence(steps)).toThrow(/^sequence\[0\]\.label: "my-var" is not a label/);
    expect(() => parseSequenceText('1st = SkyScrapperSearchAirport(query="NY")')).toThrow(
      /sequence\[0\]\.label: "1st" is not a label/,
    );
    expect(() => parseMemory({ 'my-item': { skyId: 'x' } })).toThrow(
      /^memory.my-item: "my-item" is not a label/,
    );
    expect(parseSequenceText(GOLD)).toHaveLength(6);
  });

  it('the server answers 400 instead of a determination', async () => {
    const sequence = [
      { name: 'SkyScrapperSearchAirport', arguments: { query: 'NY' }, label: 'var-1' },
      { name: 'var_result', arguments: { airport: '$var-1.skyId$' } },
    ];
    const r = await fetch(`${base}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ catalogName: undefined, catalog, sequence }),
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ field: 'sequence[0].label' });
  });
});

describe('catalog parameter keys', () => {
  const spec = { q: { type: 'string', required: true } };

  it('reads parameters under a known variant key', () => {
    for (const key of ['input_parameters', 'inputs']) {
      const [api] = parseCatalog([{ name: 'A', [key]: spec }]).apis;
      expect(api.params.map((p) => [p.name, p.type, p.required])).toEqual([['q', 'string', true]]);
    }
  });

  it('refuses parameters under an unknown key, naming it', () => {
    expect(() => parseCatalog([{ name: 'A', input_params: spec }])).toThrow(
      /^catalog\[0\]\.input_params: unknown key/,
    );
    expect(() => parseCatalog({ tools: [{ name: 'A', args: spec }] })).toThrow(
      /^catalog\.tools\[0\]\.args: unknown key/,
    );
  });

  it('refuses a sequence given as a catalog', async () => {
    expect(() => parseCatalog(gold)).toThrow(InputError);
    const r = await fetch(`${base}/v1/catalogs/sequence`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(gold),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).field).toMatch(/^catalog\[0\]/);
  });
});

describe('catalog names', () => {
  it('accepts names up to 128 characters and refuses longer ones naming the field', async () => {
    const put = (name: string) =>
      fetch(`${base}/v1/catalogs/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(catalog),
      });
    const long = 'c'.repeat(128);
    expect((await put('c'.repeat(101))).status).toBe(201);
    expect((await put(long)).status).toBe(201);
    const over = await put('c'.repeat(129));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ field: 'name' });
  });
});

describe('one error shape', () => {
  const shape = (body: string) => {
    const json = JSON.parse(body);
    expect(Object.keys(json).sort()).toEqual(expect.arrayContaining(['error', 'field']));
    expect(typeof json.error).toBe('string');
    return json;
  };

  it('for requests Node refuses before fastify sees them', async () => {
    const r = await raw('GARBAGE\r\n\r\n');
    expect(r.status).toBe(400);
    shape(r.body);
    const big = await raw(`GET /v1/health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    shape(big.body);
  });

  it('for fastify framework errors and unsupported media types', async () => {
    const badUrl = await raw('GET /v1/catalogs/%zz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(badUrl.status).toBe(400);
    shape(badUrl.body);
    const media = await raw(post('/v1/validate', Buffer.from('x'), { 'content-type': 'application/xml' }));
    expect(media.status).toBe(415);
    shape(media.body);
  });
});

describe('--timeout', () => {
  it('takes decimal seconds only', async () => {
    const file = tmp.file('gold.json');
    writeFileSync(file, JSON.stringify(gold));
    for (const value of ['0x10', '1e1', 'Infinity', ' ']) {
      const r = await cli('fix', '--catalog', CATALOG, '--timeout', value, file);
      expect(r.code, value).toBe(2);
      expect(r.err).toMatch(/--timeout: expected a number of seconds/);
    }
    expect((await cli('fix', '--catalog', CATALOG, '--timeout', '2.5', file)).code).toBe(0);
  });
});
