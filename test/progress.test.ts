import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../src/batch/progress.ts';

/** A stream that records what is written, posing as a terminal or not. */
function sink(tty: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY: tty, columns: tty ? 100 : undefined });
  return { stream, text: () => text };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 250));

describe('batch progress', () => {
  it('redraws one bar line on a terminal and leaves the last one standing', async () => {
    const out = sink(true);
    const progress = createProgress(out.stream);
    progress.setTotal(200);
    progress.update(50, 0);
    await tick();
    progress.update(200, 0);
    progress.stop();
    const text = out.text();
    expect(text).toContain('\x1b[');
    expect(text).toMatch(/\[#{6}-{18}\] 25% 50\/200 records/);
    expect(text).toMatch(/\[#{24}\] 100% 200\/200 records [\d.]+ rec\/s\x1b\[0K/);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('writes plain lines without escape codes off a terminal, counting resumed records apart', async () => {
    const out = sink(false);
    const progress = createProgress(out.stream);
    progress.setTotal(10);
    progress.update(2, 5);
    progress.stop();
    const lines = out.text().split('\n');
    expect(out.text()).not.toContain('\x1b');
    expect(lines.at(-1)).toBe('');
    expect(lines.every((l) => l === '' || l.startsWith('refract batch: '))).toBe(true);
    expect(lines.at(-2)).toMatch(/^refract batch: 70% 7\/10 records [\d.]+ rec\/s ETA \d+:\d\d$/);
  });

  it('times the rate from the first record of this run: reading back a resumed output is no repair time', async () => {
    const out = sink(false);
    const progress = createProgress(out.stream);
    progress.setTotal(1000);
    progress.update(0, 10);
    // Reading back the resumed lines takes a while…
    await new Promise((resolve) => setTimeout(resolve, 1000));
    progress.update(0, 900);
    // …then this run does its 100 records in a tenth of the time.
    await new Promise((resolve) => setTimeout(resolve, 100));
    progress.update(100, 900);
    progress.stop();
    const rate = Number(/(\d+(\.\d+)?) rec\/s/.exec(out.text().split('\n').at(-2)!)![1]);
    // 100 records in about 0.1 s: far more than 100 a second; timed from the start, at most 100 / 1.1 s.
    expect(rate).toBeGreaterThan(100);
  });

  it('draws nothing for a run stopped before any news (a refused --out, an empty input)', async () => {
    for (const tty of [true, false]) {
      const out = sink(tty);
      createProgress(out.stream).stop();
      await tick();
      expect(out.text()).toBe('');
    }
  });

  it('writes nothing when quiet', async () => {
    const out = sink(true);
    const progress = createProgress(out.stream, { quiet: true });
    progress.setTotal(3);
    progress.update(3, 0);
    progress.stop();
    await tick();
    expect(out.text()).toBe('');
  });
});
