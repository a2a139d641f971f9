/**
 * Bounded work per repair: names are capped where they enter (argument keys, reference keys), every memo
 * of the name similarity is bounded in entries and bytes, an argument holds a bounded number of
 * references, and one deadline covers compiling and solving, with the model-size caps enforced while the
 * model is built (the solver is never reached past them).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { buildServer } from '../src/server/app.ts';
import { runRealCli } from './cli-run.ts';
import { runBatch } from '../src/batch/run.ts';
import { Readable } from 'node:stream';
import { repair } from '../src/repair/repair.ts';
import { parseSequence } from '../src/read/sequence.ts';
import { similarity, tieDistance, role } from '../src/catalog/names.ts';
import { boundedMemo, boundedPairMemo, memoStats } from '../src/model/memo.ts';
import type { MilpModel, Solution, SolverBackend } from '../src/model/milp.ts';
import type { Sequence } from '../src/model/types.ts';
import { executable } from './helpers.ts';
import { tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
const CATALOG = 'data/nestful/executable-spec.json';

/** `count` references to earlier outputs in one argument of each of `steps` flight searches. */
function heavy(steps: number, count: number): Sequence {
  const out = [{ name: 'SkyScrapperSearchAirport', arguments: { query: 'NY' }, label: 'var1' }];
  for (let s = 1; s < steps; s++) {
    const refs = Array.from({ length: count }, (_, i) => `$var${s}.skyId${i % 50}$`).join(' ');
    out.push({
      name: 'SkyScrapperFlightSearch',
      arguments: { originSkyId: refs, destinationSkyId: refs, date: '2024-01-01' } as never,
      label: `var${s + 1}`,
    });
  }
  return out;
}

/** A backend that counts its calls and solves nothing (the tests below must never reach it). */
function countingBackend(): SolverBackend & { calls: number } {
  const backend = {
    name: 'counting',
    calls: 0,
    async solve(model: MilpModel): Promise<Solution> {
      backend.calls++;
      return {
        status: 'error',
        values: null,
        objective: null,
        optimal: false,
        solver: 'counting',
        timeMs: 0,
        reason: `${model.numVars}`,
      } as unknown as Solution;
    },
  };
  return backend;
}

let app: FastifyInstance;
beforeAll(() => {
  app = buildServer({ workers: 1, catalogs: { nestful: JSON.parse(readFileSync(CATALOG, 'utf8')) } });
});
afterAll(async () => {
  await app.close();
  tmp.remove();
});

describe('names are capped where they enter', () => {
  const long = (c: string) => c.repeat(20_000);
  const steps = [
    { name: 'SkyScrapperSearchAirport', arguments: { query: 'NY' }, label: 'var1' },
    {
      name: 'SkyScrapperFlightSearch',
      arguments: { [long('a')]: `$var1.${long('b')}$`, [long('c')]: 1, date: '2024-01-01' },
      label: 'var2',
    },
  ];

  it('refuses a parameter name or a reference key over 256 characters, naming the field', () => {
    expect(() => parseSequence(steps)).toThrow(
      /^sequence\[1\]\.arguments: a parameter name longer than 256 characters \(20000\)/,
    );
    const refOnly = [steps[0], { ...steps[1], arguments: { originSkyId: `$var1.${long('b')}$` } }];
    expect(() => parseSequence(refOnly)).toThrow(
      /^sequence\[1\]\.arguments\.originSkyId: a reference names a key longer than 256 characters/,
    );
  });

  it('the server answers 400 at once instead of comparing the names', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/v1/fix',
      payload: { catalogName: 'nestful', sequence: steps, timeout: 5 },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ field: 'sequence[1].arguments' });
  });
});

describe('bounded memos', () => {
  it('lists the parsed-file memos with the others', async () => {
    await import('../src/mcp/tools.ts');
    await import('../src/read/cost-models.ts');
    expect(Object.keys(memoStats())).toEqual(
      expect.arrayContaining(['cost-model-files', 'mcp-catalog-files']),
    );
  });

  it('evicts the least recently used entries past the entry and byte limits', () => {
    const square = boundedMemo('test-square', { max: 10, maxBytes: 2_000, maxKey: 50 }, (key) =>
      key.repeat(2),
    );
    for (let i = 0; i < 100; i++) square(`key-${i}`);
    expect(memoStats()['test-square'].entries).toBe(10);
    for (let i = 0; i < 100; i++) square(`${i}`.padStart(40, 'k'));
    expect(memoStats()['test-square'].bytes).toBeLessThanOrEqual(2_000);
    expect(memoStats()['test-square'].entries).toBeLessThan(10);
    expect(square('z'.repeat(60))).toHaveLength(120);
  });

  it('keeps pair memos within their limits, a generation at a time, and keeps the pairs still in use', () => {
    let computed = 0;
    const joined = boundedPairMemo('test-pairs', { max: 10, maxBytes: 10_000, maxKey: 20 }, (a, b) => {
      computed++;
      return a.length * 100 + b.length;
    });
    expect(joined('ab', 'c')).toBe(201);
    for (let i = 0; i < 100; i++) {
      joined(`x${i}`, 'y');
      // Used all along: it moves back into the young generation before the old one is dropped.
      expect(joined('ab', 'c')).toBe(201);
      expect(memoStats()['test-pairs'].entries).toBeLessThanOrEqual(10);
    }
    expect(computed).toBe(101);
    joined('x0', 'y');
    expect(computed).toBe(102);
    // Bytes: 2 per character of both strings plus 32 an entry, within half the limit per generation.
    const wide = boundedPairMemo('test-wide', { max: 1_000, maxBytes: 1_000, maxKey: 200 }, () => 1);
    for (let i = 0; i < 100; i++) wide(`${i}`.padStart(40, 'a'), 'b'.repeat(40));
    expect(memoStats()['test-wide'].bytes).toBeLessThanOrEqual(1_000);
    expect(memoStats()['test-wide'].entries).toBeGreaterThan(0);
    // A pair longer than `maxKey` together is computed, never stored.
    const before = memoStats()['test-wide'].entries;
    wide('c'.repeat(150), 'd'.repeat(60));
    expect(memoStats()['test-wide'].entries).toBe(before);
  });

  it('keeps every name memo within its bytes and entries, and never stores an overlong key', () => {
    const name = (i: number) => `field${i}_${'x'.repeat(100)}`;
    for (let i = 0; i < 2_000; i++) {
      similarity(name(i), name(i + 1));
      tieDistance(name(i), 'var1');
      role(name(i));
    }
    const stats = memoStats();
    for (const memo of ['similarity', 'tieDistance', 'role']) {
      expect(stats[memo].entries, memo).toBeGreaterThan(0);
      expect(stats[memo].bytes, memo).toBeLessThanOrEqual(32 * 1024 * 1024);
    }
    // 2,000 pairs of 110-character names: each entry is counted at its real size.
    expect(stats.similarity.bytes).toBeGreaterThan(2_000 * 2 * 220);
    const before = memoStats().similarity.entries;
    const huge = 'q'.repeat(300_000);
    // Compared on their first 256 characters: equal heads, so nearly equal names.
    expect(similarity(`${huge}1`, `${huge}2`)).toBeGreaterThan(0.9);
    expect(memoStats().similarity.entries).toBeLessThanOrEqual(before + 1);
    expect(memoStats().similarity.bytes).toBeLessThan(stats.similarity.bytes + 4096);
  });
});

describe('references per argument', () => {
  it('refuses more than 256 references in one argument: parser, CLI and library', async () => {
    const sequence = heavy(2, 300);
    expect(() => parseSequence(sequence)).toThrow(
      /^sequence\[1\]\.arguments\.originSkyId: 300 references in one argument \(at most 256\)/,
    );
    const file = tmp.file('many-refs.json');
    writeFileSync(file, JSON.stringify(sequence));
    const { code, err } = await runRealCli(['fix', '--catalog', CATALOG, '--timeout', '1', file]);
    expect(code).toBe(2);
    expect(err).toMatch(/300 references in one argument/);
    const backend = countingBackend();
    const r = await repair(sequence, executable, { backend });
    expect(r).toMatchObject({ status: 'error', determination: null });
    expect(r.reason).toBe('step 2, argument originSkyId: 300 references in one argument (at most 256)');
    expect(backend.calls).toBe(0);
  });
});

describe('one deadline and the size caps while building', () => {
  // 20 steps, 200 references in two arguments each: several seconds of compiling.
  const sequence = heavy(20, 200);

  it('the time limit covers compiling: the repair stops there and never reaches the solver', async () => {
    const backend = countingBackend();
    const r = await repair(sequence, executable, { timeout: 0.2, backend });
    expect(r).toMatchObject({ status: 'timeout', determination: null });
    expect(r.reason).toBe('time limit reached while compiling the model');
    expect(backend.calls).toBe(0);
  });

  it('a request deadline already past stops the repair before any model is built', async () => {
    const backend = countingBackend();
    const r = await repair(sequence, executable, { deadline: Date.now() - 1, backend });
    expect(r.status).toBe('timeout');
    expect(backend.calls).toBe(0);
  });

  it('the variable and coefficient caps stop the build as soon as they are passed', async () => {
    const backend = countingBackend();
    const vars = await repair(sequence, executable, { maxModelVars: 500, backend });
    expect(vars).toMatchObject({
      status: 'error',
      reason: 'model too large: more than 500 variables (cap 500)',
    });
    const terms = await repair(sequence, executable, { maxModelNonzeros: 2_000, backend });
    expect(terms.reason).toBe('model too large: more than 2000 coefficients (cap 2000)');
    expect(backend.calls).toBe(0);
  });

  it('a batch record gets a deadline within its watchdog: a timeout line, no worker killed', async () => {
    const out = tmp.file('deadline.jsonl');
    const records = [
      // Heavy enough to compile far past the deadline; the watchdog leaves room for a loaded machine.
      JSON.stringify({ id: 'heavy', sequence: heavy(150, 250) }),
      JSON.stringify({ id: 'light', sequence: sequence.slice(0, 1) }),
    ];
    const report = await runBatch({
      input: Readable.from([records.join('\n') + '\n']),
      out,
      request: { catalogPath: CATALOG },
      workers: 1,
      recordTimeoutMs: 3000,
    });
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.id, line.status])).toEqual([
      ['heavy', 'timeout'],
      ['light', 'valid'],
    ]);
    // Compiling or solving, whichever the deadline meets first on this machine.
    expect(lines[0].reason).toMatch(/^time limit reached/);
    expect(report.restarts).toBe(0);
  }, 30_000);

  it('a cancelled request stops compiling', async () => {
    const backend = countingBackend();
    const controller = new AbortController();
    controller.abort();
    const r = await repair(sequence, executable, { signal: controller.signal, backend });
    expect(r).toMatchObject({ status: 'error', reason: 'the request was cancelled' });
    expect(backend.calls).toBe(0);
  });
});
