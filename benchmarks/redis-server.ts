/**
 * A Redis for the distributed-batch benchmark and tests: a running server named by URL (checked with a
 * PING), or a `redis-server` started for the occasion on a free loopback port, without persistence, and
 * stopped afterwards.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
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

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

export async function startRedisServer(binary = 'redis-server'): Promise<LocalRedis> {
  const port = await freePort();
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'];
  const child = spawn(binary, args, { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}/0`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill();
    await once(child, 'exit');
  };
  for (let i = 0; i < 100; i++) {
    try {
      await pingRedis(url);
      return { url, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new Error(`${binary} did not answer on port ${port}`);
}

/** The server at `url`, or one started here. */
export async function localRedis(url?: string): Promise<LocalRedis> {
  if (url === undefined) return startRedisServer();
  await pingRedis(url);
  return { url, stop: async () => {} };
}
