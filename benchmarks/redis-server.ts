/**
 * A Redis for the distributed-batch benchmark and tests: a running server named by URL (checked with a
 * PING), or a `redis-server` started for the occasion on a free loopback port, without persistence, and
 * stopped afterwards.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface LocalRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function pingRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ServerOptions {
  /** Default: a free loopback port. */
  readonly port?: number;
  /** Default: 127.0.0.1. */
  readonly bind?: string;
  /** Keep an append-only file in `dir` (loaded again by a server started on the same `dir`). */
  readonly appendonly?: boolean;
  readonly dir?: string;
  /** Redis's protected mode (default: Redis's own, on). */
  readonly protectedMode?: boolean;
  /** Started only: not waited for with a PING (one that refuses every client, say). */
  readonly unchecked?: boolean;
}

export async function startRedisServer(
  binary = 'redis-server',
  options: ServerOptions = {},
): Promise<LocalRedis> {
  const port = options.port ?? (await freePort());
  const host = options.bind ?? '127.0.0.1';
  const args = ['--bind', host, '--port', String(port), '--save', ''];
  args.push('--appendonly', options.appendonly ? 'yes' : 'no');
  if (options.dir) args.push('--dir', options.dir);
  if (options.protectedMode !== undefined)
    args.push('--protected-mode', options.protectedMode ? 'yes' : 'no');
  const child = spawn(binary, args, { stdio: 'ignore' });
  const url = `redis://${host}:${port}/0`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill();
    await once(child, 'exit');
  };
  for (let i = 0; i < 100; i++) {
    try {
      if (options.unchecked) await connectable(host, port);
      else await pingRedis(url);
      return { url, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new Error(`${binary} did not answer on port ${port}`);
}

/** Resolves once something accepts connections on `host:port`. */
async function connectable(host: string, port: number): Promise<void> {
  const socket = connect(port, host);
  try {
    await once(socket, 'connect');
  } finally {
    socket.destroy();
  }
}

/** The server at `url`, or one started here. */
export async function localRedis(url?: string): Promise<LocalRedis> {
  if (url === undefined) return startRedisServer();
  await pingRedis(url);
  return { url, stop: async () => {} };
}
