/**
 * The queue side of a distributed run: BullMQ and ioredis, loaded only when a distributed command runs (they
 * are optional dependencies), one connection per command, and the few keys the run's progress lives in
 * beside BullMQ's own: the run's description, a bitmap of done chunks with a records counter (setting a
 * bit once counts a chunk once, however often it is delivered), the chunks being worked on and the chunks
 * that failed for good.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { InputError } from '../model/errors.ts';

/** The one BullMQ queue every run shares (a Redis database number in the URL separates clusters). */
export const QUEUE_NAME = 'refract-batch';

export type Libraries = { bullmq: typeof import('bullmq'); IORedis: typeof import('ioredis').Redis };

export async function loadQueueLibraries(): Promise<Libraries> {
  try {
    const [bullmq, ioredis] = await Promise.all([import('bullmq'), import('ioredis')]);
    return { bullmq, IORedis: ioredis.Redis };
  } catch {
    throw new InputError(
      '--queue',
      'a distributed batch needs the optional packages bullmq and ioredis (npm install bullmq@6.7.0 ioredis@5.11.1)',
    );
  }
}

/** Checks a `redis://` or `rediss://` URL, for a clear error before any connection attempt. */
export function queueUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      '--queue',
      `expected a Redis URL such as redis://HOST:6379, received ${JSON.stringify(value)}`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new InputError(
      '--queue',
      `expected a redis:// or rediss:// URL, received ${JSON.stringify(value)}`,
    );
  }
  if (!/^\/?\d*$/.test(url.pathname)) {
    throw new InputError(
      '--queue',
      `the path of a Redis URL is a database number, received ${JSON.stringify(url.pathname)}`,
    );
  }
  return value;
}

/** Redis in the error messages, without a password. */
export function redactedUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '***';
  return url.toString();
}

/** Redis cannot be reached (or refuses the connection): a one-line input error naming `--queue`. */
export class RedisUnreachable extends InputError {
  constructor(url: string, reason: Error) {
    super(
      '--queue',
      reason.name === 'ReplyError'
        ? `Redis at ${redactedUrl(url)} refused the connection: ${firstSentence(reason.message)}`
        : `cannot reach Redis at ${redactedUrl(url)} (${reason.message})`,
    );
    this.name = 'RedisUnreachable';
  }
}

/** Redis's refusals run on for a paragraph (protected mode lists four ways out): the first sentence. */
function firstSentence(text: string): string {
  return /^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
}

/** An error about the connection itself (refused, reset, closed, timed out), not about a command. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return (
    /^(Connection is closed\.|Stream isn't writeable|Reached the max retries per request limit)/.test(
      error.message,
    ) || /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)\b/.test(error.message)
  );
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Connects, failing fast with a one-line error when Redis cannot be reached, naming Redis's refusal when it
 * sends one (protected mode, a password missing or wrong). `reconnect`: afterwards, keep reconnecting
 * for as long as it takes (a worker outlives a Redis restart); otherwise a lost connection is an error (a
 * command run once).
 */
export async function connect(libraries: Libraries, url: string, reconnect: boolean): Promise<Redis> {
  let last: Error | undefined;
  const redis = new libraries.IORedis(queueUrl(url), {
    lazyConnect: true,
    // BullMQ's workers need commands to wait through a reconnection instead of failing.
    maxRetriesPerRequest: reconnect ? null : 1,
    retryStrategy: () => null,
    connectTimeout: 5_000,
    // The first command is then the ready check, whose error is Redis's refusal of a client it turns away
    // (the client-name command sent before it otherwise takes the refusal and ignores it).
    disableClientInfo: true,
  });
  // A refusal is what Redis said: the socket errors that follow it (a reset) do not replace it.
  redis.on('error', (error: Error) => {
    if (last?.name !== 'ReplyError') last = error;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnreachable(url, last ?? (error as Error));
  }
  if (reconnect) redis.options.retryStrategy = (times: number) => Math.min(100 * times, 2_000);
  return redis;
}

/**
 * The queue, for a command run once: the errors it emits also reject the calls awaited on it, which say
 * them (unheard, BullMQ would print each with its stack).
 */
export function openQueue(libraries: Libraries, redis: Redis): Queue {
  const queue = new libraries.bullmq.Queue(QUEUE_NAME, { connection: redis });
  queue.on('error', () => {});
  return queue;
}

/** The Redis keys of run `run`. */
export function runKeys(run: string) {
  const base = `refract:run:${run}`;
  return { meta: base, done: `${base}:done`, active: `${base}:active`, failed: `${base}:failed` };
}

/** The BullMQ job id of a chunk (BullMQ ids may not contain `:`). */
export function jobId(run: string, chunk: number): string {
  return `${run}.${chunk}`;
}

/** What `submit` tells the queue about a run, for `status` (which reads nothing else). */
export interface RunMeta {
  readonly results: string;
  readonly input: string;
  readonly chunks: number;
  readonly records: number;
  readonly chunkSize: number;
  readonly submittedAt: number;
  /** Records already done when the run was (re)submitted: not counted in the rate. */
  readonly resumedRecords: number;
}

/** A run's keys expire this long after its last progress: Redis does not fill up with old runs. */
const RUN_TTL_MS = 7 * 24 * 3600 * 1000;

// KEYS: done bitmap, meta, active, failed. ARGV: chunk, records, now, ttl.
const MARK_DONE = `
if redis.call('SETBIT', KEYS[1], ARGV[1], 1) == 0 then
  redis.call('HINCRBY', KEYS[2], 'doneRecords', ARGV[2])
  redis.call('HINCRBY', KEYS[2], 'doneChunks', 1)
  redis.call('HSET', KEYS[2], 'lastDoneAt', ARGV[3])
end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[4]) end
return 1`;

/** Counts chunk `chunk` (of `records` records) done, once however often it is reported. */
export async function markDone(redis: Redis, run: string, chunk: number, records: number): Promise<void> {
  const k = runKeys(run);
  await redis.eval(MARK_DONE, 4, k.done, k.meta, k.active, k.failed, chunk, records, Date.now(), RUN_TTL_MS);
}

export async function markActive(redis: Redis, run: string, chunk: number): Promise<void> {
  const k = runKeys(run);
  const now = Date.now();
  await redis
    .multi()
    .zadd(k.active, now, String(chunk))
    .hsetnx(k.meta, 'startedAt', now)
    .pexpire(k.active, RUN_TTL_MS)
    .exec();
}

export async function markFailed(redis: Redis, run: string, chunk: number, reason: string): Promise<void> {
  const k = runKeys(run);
  await redis
    .multi()
    .zrem(k.active, String(chunk))
    .hset(k.failed, String(chunk), reason.slice(0, 2_000))
    .pexpire(k.failed, RUN_TTL_MS)
    .exec();
}

/**
 * Starts the run's progress afresh, with the chunks the result store already holds counted as done and
 * those a worker holds (`active`, on resume) as in progress.
 */
export async function resetRun(
  redis: Redis,
  run: string,
  meta: RunMeta,
  done: readonly number[],
  active: readonly number[] = [],
): Promise<void> {
  const k = runKeys(run);
  const tx = redis.multi().del(k.meta, k.done, k.active, k.failed);
  for (const chunk of done) tx.setbit(k.done, chunk, 1);
  const now = Date.now();
  for (const chunk of active) tx.zadd(k.active, now, String(chunk));
  tx.hset(k.meta, {
    ...meta,
    doneRecords: meta.resumedRecords,
    doneChunks: done.length,
  });
  for (const key of [k.meta, k.done, k.active]) tx.pexpire(key, RUN_TTL_MS);
  await tx.exec();
}
