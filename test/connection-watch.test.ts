/**
 * What a distributed command says about its hold on Redis, on a clock set by the test: one line when the
 * connection goes and one when it is back however many failures come between, connection errors kept out
 * of the log and other errors let through, and a worker's lock warnings (a lock overdue, renewed again,
 * lost) each told once. The same lines against a real Redis, restarted and cut off: cluster-faults.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionWatch, LockWatch } from '../src/cluster/connection-watch.ts';

const URL = 'redis://:secret@127.0.0.1:6379/0';
let lines: string[];
const log = (line: string) => lines.push(line);

beforeEach(() => {
  lines = [];
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => vi.useRealTimers());

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

describe('ConnectionWatch', () => {
  it('tells a loss once and the way back once, with the time in between and the password hidden', () => {
    const watch = new ConnectionWatch(URL, log);
    watch.up();
    for (let i = 0; i < 20; i++) {
      watch.down();
      watch.error(refused());
      watch.error(new Error('Connection is closed.'));
      vi.advanceTimersByTime(1_800);
    }
    watch.up();
    watch.up();
    expect(lines).toEqual([
      'lost Redis at redis://:***@127.0.0.1:6379/0, retrying',
      'reconnected to Redis at redis://:***@127.0.0.1:6379/0 after 36 s',
    ]);
  });

  it('logs the errors that are not about the connection, and nothing once stopped', () => {
    const watch = new ConnectionWatch(URL, log);
    watch.error(new Error('NOSCRIPT No matching script'));
    watch.stop();
    watch.down();
    watch.error(new Error('another'));
    expect(lines).toEqual(['queue: NOSCRIPT No matching script']);
  });

  it('says what a lost lock means for the run, in the words of BullMQ and its own', () => {
    const watch = new ConnectionWatch(URL, log);
    watch.error(new Error('Lock mismatch for job fl3.3. Cmd moveToFinished from active'));
    expect(lines).toEqual([
      "queue: Lock mismatch for job fl3.3. Cmd moveToFinished from active (chunk fl3.3's lock was lost, as " +
        'after a Redis restart or flush: the chunk is done again by whichever worker takes it, and its first ' +
        'complete part stays)',
    ]);
  });
});

describe('LockWatch', () => {
  const name = (id: string) => `chunk ${id}`;

  it('warns once when a lock goes unrenewed longer than a lock lasts, and says when it is renewed', () => {
    const locks = new LockWatch(2_000, URL, log, name);
    locks.taken('a');
    vi.advanceTimersByTime(1_500);
    locks.check();
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(800);
    locks.check();
    vi.advanceTimersByTime(5_000);
    locks.check();
    locks.renewed(['a']);
    expect(lines).toEqual([
      'no lock renewal for 2.3 s (a lock lasts 2.0 s) on chunk a: Redis at redis://:***@127.0.0.1:6379/0 ' +
        'does not answer; another worker may take it over (the first complete part stays)',
      'locks renewed again after 7.3 s',
    ]);
  });

  it('tells a lost lock once, however often BullMQ reports it, and again only for a lock taken anew', () => {
    const locks = new LockWatch(2_000, URL, log, name);
    locks.taken('a');
    locks.taken('b');
    locks.refused(['a', 'b']);
    locks.refused(['a', 'b']);
    locks.refused(['b']);
    expect([locks.wasLost('a'), locks.wasLost('c')]).toEqual([true, false]);
    locks.taken('a');
    locks.refused(['a', 'b']);
    expect(lines).toEqual([
      "Redis no longer holds the lock of chunk a, chunk b (expired, or lost with Redis's data): another " +
        'worker may work on them too (the first complete part stays)',
      "Redis no longer holds the lock of chunk a (expired, or lost with Redis's data): another worker may " +
        'work on it too (the first complete part stays)',
    ]);
  });

  it('ends a warning without a line when the overdue lock is released or lost', () => {
    const locks = new LockWatch(2_000, URL, log, name);
    locks.taken('a');
    vi.advanceTimersByTime(3_000);
    locks.check();
    locks.released('a');
    locks.taken('b');
    vi.advanceTimersByTime(3_000);
    locks.check();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^no lock renewal for 3\.0 s .* on chunk b:/);
  });
});
