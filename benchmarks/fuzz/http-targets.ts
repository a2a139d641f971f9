/**
 * Fuzz targets over the HTTP transport: hostile requests go to a real server on loopback through a raw
 * socket, so Node's HTTP parser, fastify and the routes all see them. Every answer must be a well-formed
 * HTTP response; every error answer must be JSON of the one shape `{error, field}`, never a 5xx other
 * than 503 (busy); and the server must still answer /v1/health after each input.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/app.ts';
import { fail, type Target } from './harness.ts';
import { hostileJson, hostileJsonText, hostileString } from './inputs.ts';

const CATALOG = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8')) as unknown[];
const GOLD = (
  JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8')) as { output: unknown }[]
)[0].output;

let server: Promise<{ app: FastifyInstance; port: number }> | undefined;

/** One server for every input of the run; it does not keep the process alive. */
function target(): Promise<{ app: FastifyInstance; port: number }> {
  server ??= (async () => {
    const app = buildServer({
      workers: 1,
      bodyLimit: 256 * 1024,
      requestTimeoutMs: 10_000,
      bodyTimeoutMs: 2_000,
      headersTimeoutMs: 1_000,
      catalogs: { nestful: CATALOG },
      catalogLimits: { maxCatalogs: 8 },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    app.server.unref();
    return { app, port: Number(new URL(url).port) };
  })();
  return server;
}

/**
 * Sends raw bytes and returns everything the server wrote until it closed the connection (every request
 * says `connection: close`; an incomplete one is closed by the header or body time-out). The client does
 * not half-close: Node drops the answer owed to a client that did.
 */
function exchange(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(Buffer.concat(chunks)) : reject(error),
    );
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    socket.write(bytes);
  });
}

const STATUSES = new Set([200, 201, 400, 401, 403, 404, 408, 413, 414, 415, 431, 503, 507]);

/** Checks every response in `raw` (keep-alive may carry several): statuses and error bodies. */
function checkAnswer(raw: Buffer, complete: boolean): void {
  const text = raw.toString('utf8');
  if (text === '') {
    if (complete) fail('a complete request got no answer');
    return;
  }
  const head = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  if (!head) fail(`not an HTTP response: ${JSON.stringify(text.slice(0, 80))}`);
  const status = Number(head![1]);
  if (!STATUSES.has(status)) fail(`unexpected status ${status}: ${text.slice(0, 300)}`);
  if (status < 400) return;
  const start = text.indexOf('\r\n\r\n') + 4;
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? NaN);
  const body = Number.isFinite(length)
    ? raw
        .subarray(Buffer.byteLength(text.slice(0, start)), Buffer.byteLength(text.slice(0, start)) + length)
        .toString()
    : text.slice(start);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    fail(`error ${status} without a JSON body: ${JSON.stringify(body.slice(0, 200))}`);
  }
  const shape = json as { error?: unknown; field?: unknown };
  if (typeof shape.error !== 'string' || !('field' in (shape as object))) {
    fail(`error ${status} not in the shape {error, field}: ${body.slice(0, 200)}`);
  }
}

async function checkHealthy(port: number): Promise<void> {
  const answer = await exchange(
    port,
    Buffer.from('GET /v1/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'),
  );
  if (!/^HTTP\/1\.1 200 /.test(answer.toString())) fail('the server stopped answering /v1/health');
}

interface HttpInput {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly [string, string][];
  readonly body: Buffer;
  /** Declared length minus the real one (0: honest; below 0 the rest reads as a next request). */
  readonly lengthSkew: number;
}

function request(input: HttpInput): { bytes: Buffer; complete: boolean } {
  const declared = Math.max(0, input.body.length + input.lengthSkew);
  const head =
    `${input.method} ${input.path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n` +
    input.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    `content-length: ${declared}\r\n\r\n`;
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), input.body]), complete: input.lengthSkew <= 0 };
}

const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
const headers = fc.array(
  fc.tuple(
    fc.constantFrom('content-type', 'authorization', 'x-any', 'transfer-encoding', 'accept'),
    headerValue,
  ),
  { maxLength: 3 },
);
const jsonType = fc.constant<[string, string][]>([['content-type', 'application/json']]);

/** Bodies: hostile JSON text, random bytes (invalid UTF-8 included), or a request with hostile parts. */
const body = (route: 'validate' | 'fix' | 'catalog') =>
  fc.oneof(
    hostileJsonText.map((t) => Buffer.from(t)),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
    fc
      .record({
        sequence: fc.oneof(hostileJson, fc.constant(GOLD)),
        catalogName: fc.constantFrom('nestful', 'none'),
      })
      .map((r) => Buffer.from(JSON.stringify(route === 'catalog' ? r.sequence : r))),
    fc
      .record({
        sequence: fc.constant(GOLD),
        catalog: fc.oneof(hostileJson, fc.constant(CATALOG.slice(0, 3))),
      })
      .map((r) => Buffer.from(JSON.stringify(r))),
  );

/** Percent-encodes every byte of the UTF-8 of `s` that is not unreserved (lone surrogates included). */
const encodePath = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');

const path = (base: string) =>
  fc.oneof(
    fc.constant(base),
    hostileString.map((s) => `${base}/${encodePath(s).slice(0, 300)}`),
  );

function httpTarget(name: string, route: 'validate' | 'fix' | 'catalog', solver: boolean): Target {
  const method =
    route === 'catalog' ? fc.constantFrom('PUT', 'DELETE', 'GET') : fc.constantFrom('POST', 'GET');
  const where =
    route === 'catalog'
      ? path('/v1/catalogs').map((p) => (p === '/v1/catalogs' ? '/v1/catalogs/fuzz' : p))
      : path(`/v1/${route}`);
  return {
    name,
    solver,
    arbitrary: fc.record({
      method,
      path: where,
      headers: fc.oneof(jsonType, headers),
      body: body(route),
      // Shorter than declared would wait for the body time-out: test/harden-server.test.ts covers it.
      lengthSkew: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -5, max: 0 })),
    }),
    run: async (input: HttpInput) => {
      const { port } = await target();
      const { bytes, complete } = request(input);
      checkAnswer(await exchange(port, bytes), complete);
      await checkHealthy(port);
    },
  };
}

/** Bytes that are not quite HTTP: Node's parser answers them, in the service's shape. */
const garbage: Target = {
  name: 'http-garbage',
  solver: false,
  arbitrary: fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
    fc
      .tuple(hostileString, hostileString)
      .map(([a, b]) => Buffer.from(`${a} /v1/health HTTP/1.1\r\n${b}\r\n\r\n`)),
  ),
  run: async (input: Buffer) => {
    const { port } = await target();
    const answer = await exchange(port, input);
    // A partial request may get no answer; whatever comes must be well-formed.
    checkAnswer(answer, false);
    await checkHealthy(port);
  },
};

export function httpTargets(): Target[] {
  return [
    httpTarget('http-validate', 'validate', false),
    httpTarget('http-catalogs', 'catalog', false),
    httpTarget('http-fix', 'fix', true),
    garbage,
  ];
}
