/**
 * What a long-running distributed command says about its hold on Redis: one line when the connection is
 * lost and one when it is back, however many reconnection attempts fail in between (BullMQ and ioredis
 * report every one of them), and, for a worker, a warning once the locks of the chunks it works on have
 * gone unrenewed for longer than a lock lasts (a link that stops carrying packets closes no connection, so
 * only the missing renewals tell), with a line when they are renewed again or turn out lost.
 */
import type { Redis } from 'ioredis';
import { isConnectionError, redactedUrl } from './redis.ts';

/** `2.3 s` under ten seconds (a lock may last 2 s), `36 s` above. */
const seconds = (ms: number) => (ms < 9_950 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

/** Lost locks remembered, to keep BullMQ's own errors about them quiet. */
const MAX_LOST = 1_000;

/** The connection's state, from ioredis's events and from errors about it; other errors pass through. */
export class ConnectionWatch {
  #lostAt: number | undefined;
  #stopped = false;

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
  ) {}

  get lost(): boolean {
    return this.#lostAt !== undefined;
  }

  /** Follows `redis` (connected): its drops and reconnections; its own errors are only about the connection. */
  follow(redis: Redis): this {
    redis.on('close', () => this.down());
    redis.on('ready', () => this.up());
    redis.on('error', (error: Error) => this.error(error));
    return this;
  }

  /** The connection is gone (said once until it is back). */
  down(reason?: string): void {
    if (this.#stopped || this.#lostAt !== undefined) return;
    this.#lostAt = Date.now();
    this.log(`lost Redis at ${redactedUrl(this.url)}${reason ? ` (${reason})` : ''}, retrying`);
  }

  /** The connection answers again. */
  up(): void {
    if (this.#stopped || this.#lostAt === undefined) return;
    const ms = Date.now() - this.#lostAt;
    this.#lostAt = undefined;
    this.log(`reconnected to Redis at ${redactedUrl(this.url)} after ${seconds(ms)}`);
  }

  /** An error event: about the connection, it is the state lines' business; otherwise it is logged. */
  error(error: Error): void {
    if (this.#stopped || isConnectionError(error)) return;
    this.log(`queue: ${explained(error.message)}`);
  }

  /** The command is closing its connections: their closing is no loss. */
  stop(): void {
    this.#stopped = true;
  }
}

/**
 * BullMQ's own words with what they mean for a run: a lost lock (Redis emptied, or the lock outlived while
 * the worker was cut off) means another worker may take the chunk, whose first complete part stays.
 */
function explained(message: string): string {
  const lost = /^(Missing lock|Lock mismatch) for job ([^.]+\.\d+)/.exec(message);
  return lost
    ? `${message} (chunk ${lost[2]}'s lock was lost, as after a Redis restart or flush: the chunk is done again ` +
        `by whichever worker takes it, and its first complete part stays)`
    : message;
}

/**
 * The locks of the chunks a worker holds: when each was last known held (taken, or renewed), checked
 * against the lock's duration. BullMQ renews every lock each half lock; a renewal that hangs (the link is
 * down) reports nothing, so the age of the oldest lock is what tells.
 */
export class LockWatch {
  readonly #held = new Map<string, number>();
  /** Jobs whose lock was found lost (told once): BullMQ's errors about finishing them say it again. */
  readonly #lost = new Set<string>();
  #lateSince: number | undefined;

  constructor(
    private readonly lockMs: number,
    private readonly url: string,
    private readonly log: (line: string) => void,
    /** How a job is named in the lines (`run plans chunk 12`). */
    private readonly name: (id: string) => string,
  ) {}

  taken(id: string, at = Date.now()): void {
    this.#lost.delete(id);
    this.#held.set(id, at);
  }

  /** Whether `id`'s lock was told lost. */
  wasLost(id: string): boolean {
    return this.#lost.has(id);
  }

  released(id: string): void {
    this.#held.delete(id);
    this.settle();
  }

  renewed(ids: readonly string[]): void {
    const now = Date.now();
    for (const id of ids) if (this.#held.has(id)) this.#held.set(id, now);
    this.settle((since) => `locks renewed again after ${seconds(now - since)}`);
  }

  /** Redis answered that these locks are gone (expired, or lost): another worker may hold the chunks. */
  refused(all: readonly string[]): void {
    // BullMQ reports a lost lock at each renewal it tries: told once.
    const ids = all.filter((id) => !this.#lost.has(id));
    if (ids.length === 0) return;
    this.log(
      `Redis no longer holds the lock of ${ids.map((id) => this.name(id)).join(', ')} (expired, or lost with ` +
        `Redis's data): another worker may work on ${ids.length === 1 ? 'it' : 'them'} too (the first ` +
        `complete part stays)`,
    );
    for (const id of ids) {
      this.#held.delete(id);
      this.#lost.add(id);
      if (this.#lost.size > MAX_LOST) this.#lost.delete(this.#lost.values().next().value!);
    }
    this.settle();
  }

  /** Warns once the oldest lock has gone unrenewed for longer than a lock lasts. */
  check(now = Date.now()): void {
    if (this.#lateSince !== undefined) return;
    const late = [...this.#held].filter(([, at]) => now - at > this.lockMs);
    if (late.length === 0) return;
    this.#lateSince = Math.min(...late.map(([, at]) => at));
    this.log(
      `no lock renewal for ${seconds(now - this.#lateSince)} (a lock lasts ${seconds(this.lockMs)}) on ` +
        `${late.map(([id]) => this.name(id)).join(', ')}: Redis at ${redactedUrl(this.url)} does not answer; ` +
        `another worker may take ${late.length === 1 ? 'it' : 'them'} over (the first complete part stays)`,
    );
  }

  /** Ends a warning once no held lock is overdue, with `line` if given. */
  private settle(line?: (since: number) => string): void {
    if (this.#lateSince === undefined) return;
    const now = Date.now();
    if ([...this.#held.values()].some((at) => now - at > this.lockMs)) return;
    if (line) this.log(line(this.#lateSince));
    this.#lateSince = undefined;
  }
}
