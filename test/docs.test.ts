/**
 * Docs that cannot drift: every command README.md and docs/*.md show with their output is run, and the
 * shown output must be the real one, timings aside (`mask` in scripts/docs/examples.ts). A stale document
 * fails here; `npm run docs:update` rewrites the shown outputs from real runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DocRunner, findExamples, mask, skippedExamples } from '../scripts/docs/examples.ts';

const DOCUMENTS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const documents = DOCUMENTS.map((file) => {
  const text = readFileSync(file, 'utf8');
  return { file, text, examples: findExamples(file, text) };
});

describe('the masking', () => {
  it('hides timings and nothing else', () => {
    expect(mask('repaired, cost 14.0098, optimal, 302.951 ms, highs, 104 vars x 102 rows')).toBe(
      'repaired, cost 14.0098, optimal, <n> ms, highs, 104 vars x 102 rows',
    );
    expect(mask('10 sequences: 9 repaired; median 19.5 ms per sequence')).toBe(
      '10 sequences: 9 repaired; median <n> ms per sequence',
    );
    expect(mask('{"cost":5.043478,"timeMs":877.004,"uptimeS":2,"step":3}')).toBe(
      '{"cost":5.043478,"timeMs":<n>,"uptimeS":<n>,"step":3}',
    );
    expect(mask('timed out after 0.5 s; 104 vars')).toBe('timed out after 0.5 s; 104 vars');
  });
});

describe('documented examples', () => {
  it('runs every example but the few marked as not run, each for a reason', () => {
    const skipped = Object.fromEntries(
      documents.map((d) => [d.file, skippedExamples(d.text)]).filter(([, n]) => n !== 0),
    );
    expect(skipped).toEqual({ 'docs/research.md': 1 });
  });

  it('finds the examples of every document that shows some', () => {
    const counts = Object.fromEntries(documents.map((d) => [d.file, d.examples.length]));
    expect(counts).toMatchObject({
      'README.md': 4,
      'docs/agents.md': 1,
      'docs/cost-model.md': 13,
      'docs/loop.md': 10,
      'docs/server.md': 7,
    });
  });

  for (const { file, text, examples } of documents.filter((d) => d.examples.length > 0)) {
    describe(file, () => {
      const runner = new DocRunner(file, text);
      afterAll(() => runner.close());
      for (const example of examples) {
        it(`line ${example.line}: ${example.command.split('\n')[0].slice(0, 90)}`, async () => {
          const actual = await runner.run(example);
          expect(
            mask(actual),
            `${file}:${example.line} shows another output than the command gives: run npm run docs:update`,
          ).toBe(mask(example.expected));
        });
      }
    });
  }
});
