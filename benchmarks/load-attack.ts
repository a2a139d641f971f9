/**
 * Hostile clients for the load test (benchmarks/load.ts): slow senders that trickle a body one byte at a
 * time and come back when cut off, clients that send a request and leave at once, and a mix of hostile
 * requests (abandoned 1 MB bodies, a deep chain of long keys as a catalog, 300 KB field names, 60,000
 * references in one argument, invalid UTF-8, slow bodies). Everything runs on loopback.
 */
import { connect, type Socket } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function request(method: string, path: string, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const head =
    `${method} ${path} HTTP/1.1\r\nhost: load\r\ncontent-type: application/json\r\n` +
    `connection: close\r\ncontent-length: ${bytes.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), bytes]);
}

/** Sends `bytes` and resolves with the status of the answer (0: none) once the server closes. */
export function exchange(port: number, bytes: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let head = '';
    socket.on('data', (chunk) => {
      if (head.length < 16) head += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.write(bytes);
  });
}

export interface Attack {
  /** Requests sent by the abandoning clients, and connections the slow senders opened. */
  readonly counts: { abandoned: number; slowConnections: number; slowCut: number };
  stop(): Promise<void>;
}

/**
 * `slow` sockets, each declaring a 10,000-byte body and sending one byte every `trickleMs`, reconnecting
 * when the server cuts them; `abandoning` clients, each sending one of `bodies` to /v1/fix and closing
 * at once, every `periodMs`.
 */
export function startAttack(
  port: number,
  options: { slow: number; abandoning: number; trickleMs: number; periodMs: number; bodies: string[] },
): Attack {
  const counts = { abandoned: 0, slowConnections: 0, slowCut: 0 };
  let running = true;
  const sockets = new Set<Socket>();
  const slow = async () => {
    while (running) {
      counts.slowConnections++;
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        sockets.add(socket);
        socket.write(
          'POST /v1/fix HTTP/1.1\r\nhost: load\r\ncontent-type: application/json\r\ncontent-length: 10000\r\n\r\n',
        );
        const timer = setInterval(() => socket.writable && socket.write('{'), options.trickleMs);
        socket.on('error', () => {});
        socket.on('close', () => {
          clearInterval(timer);
          sockets.delete(socket);
          if (running) counts.slowCut++;
          resolve();
        });
      });
    }
  };
  let next = 0;
  const abandoning = async () => {
    while (running) {
      const body = options.bodies[next++ % options.bodies.length];
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(request('POST', '/v1/fix', body), () => {
            counts.abandoned++;
            socket.destroy();
            resolve();
          });
        });
        socket.on('error', () => resolve());
      });
      await sleep(options.periodMs);
    }
  };
  const loops = [
    ...Array.from({ length: options.slow }, slow),
    ...Array.from({ length: options.abandoning }, abandoning),
  ];
  return {
    counts,
    async stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
      await Promise.all(loops);
    },
  };
}

/** Deep chain of long keys: every prefix path of it would be kept by an unbounded parser. */
function deepChainCatalog(depth: number, keyLength: number): string {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = depth - 1; i >= 1; i--)
    node = { type: 'object', properties: { [`k${i}`.padEnd(keyLength, 'x')]: node } };
  return JSON.stringify([{ name: 'Deep', output_parameters: { ['k0'.padEnd(keyLength, 'x')]: node } }]);
}

/** The hostile requests, by kind: each a function that sends one and resolves with its status. */
export function hostileKinds(port: number, sequence: unknown): Record<string, () => Promise<number>> {
  const steps = sequence as { name: string; arguments: Record<string, unknown>; label?: string }[];
  const bigBody = JSON.stringify({
    catalogName: 'nestful',
    sequence: steps.map((s, i) =>
      i === 0 ? { ...s, arguments: { ...s.arguments, note: 'x'.repeat(900_000) } } : s,
    ),
  });
  const longNames = JSON.stringify({
    catalogName: 'nestful',
    timeout: 5,
    sequence: [
      { ...steps[0], arguments: Object.fromEntries(['a', 'b', 'c'].map((c) => [c.repeat(300_000), 1])) },
    ],
  });
  const refs = Array.from({ length: 60_000 }, (_, i) => `$var1.k${i}$`).join('');
  const manyRefs = JSON.stringify({
    catalogName: 'nestful',
    sequence: [
      steps[0],
      { name: 'SkyScrapperFlightSearch', arguments: { originSkyId: refs }, label: 'var9' },
    ],
  });
  const badUtf8 = Buffer.from(JSON.stringify({ catalogName: 'nestful', sequence: steps }));
  badUtf8[40] = 0xff;
  const deep = deepChainCatalog(100, 8_700);
  const inlineDeep = `{"sequence":${JSON.stringify(steps)},"catalog":${deep}}`;
  return {
    'abandoned 1 MB body': () =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(request('POST', '/v1/fix', bigBody), () => (socket.destroy(), resolve(0))),
        );
        socket.on('error', () => resolve(0));
      }),
    'deep chain catalog (PUT)': () => exchange(port, request('PUT', '/v1/catalogs/hostile', deep)),
    'deep chain catalog (inline)': () => exchange(port, request('POST', '/v1/validate', inlineDeep)),
    'three 300 KB field names': () => exchange(port, request('POST', '/v1/fix', longNames)),
    '60,000 references in one argument': () => exchange(port, request('POST', '/v1/fix', manyRefs)),
    'invalid UTF-8': () => exchange(port, request('POST', '/v1/validate', badUtf8)),
    'slow body': () =>
      exchange(
        port,
        Buffer.from(
          'POST /v1/fix HTTP/1.1\r\nhost: load\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{',
        ),
      ),
  };
}

/** Runs `total` requests from `make` with `concurrency` at a time; counts the statuses. */
export async function runMany(
  total: number,
  concurrency: number,
  make: (i: number) => Promise<number | string>,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const key = String(await make(next++));
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}
