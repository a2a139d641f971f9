import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashSeed } from '../src/model/prng.ts';
import { ROOT } from '../research/bench/data.ts';
import { describe, expect, it } from 'vitest';
import { repair } from '../src/repair/repair.ts';
import { scoreRepair } from '../src/score/index.ts';
import { loadBuild, MAX_CACHED_BUILDS } from '../research/bench/build-ref.ts';
import { restorationCli, restorationReport } from '../research/bench/restoration-cli.ts';
import { InputError } from '../src/model/errors.ts';
import { machine } from '../research/bench/markdown.ts';
import {
  loadCorpus,
  measureBuilds,
  spreadByKind,
  type CorpusSet,
} from '../research/bench/restoration-run.ts';
import { restorationPage, readBaseline } from '../research/bench/restoration.ts';
import { summariseRestoration } from '../research/bench/restoration-summary.ts';
import { baselineDocTables } from '../research/bench/restoration-tables.ts';
import type { BenchContext } from '../research/bench/context.ts';

/** One short record per kind group of one set of each recipe (short: the test stays fast). */
const corpus: CorpusSet[] = loadCorpus({ sets: ['sgd', 'synthetic-camel'] }).map((set) => ({
  ...set,
  records: spreadByKind(
    set.records.filter((r) => r.gold.length <= 4),
    1,
  ),
}));

describe('restoration benchmark', () => {
  it('quick mode keeps a few records of every kind, the same ones every time', () => {
    const quick = loadCorpus({ quick: true, sets: ['sgd'], recipes: ['first'] });
    expect(quick).toHaveLength(1);
    const kinds = new Set(
      quick[0].records.map((r) => (r.kind.includes('+') ? r.kind.split('+').length : r.kind)),
    );
    expect(kinds.size).toBe(12);
    expect(quick[0].records.length).toBeLessThanOrEqual(12 * 8);
    expect(loadCorpus({ quick: true, sets: ['sgd'], recipes: ['first'] })[0].records).toEqual(
      quick[0].records,
    );
  });

  it('judges each repair by its sequence and compares the backends', async () => {
    const measured = await measureBuilds(corpus, [{ label: 'now', repair }], {
      backends: ['highs', 'lp-solver'],
      warmUp: 0,
    });
    const outcomes = measured.get('now')!;
    const records = corpus.flatMap((s) => s.records);
    expect(outcomes.map((o) => o.id)).toEqual(records.map((r) => r.id));
    for (const [k, o] of outcomes.entries()) {
      expect(o.detected && o.valid, o.id).toBe(true);
      expect(Object.keys(o.agree)).toEqual(['lp-solver']);
      if (o.verdict.restored) expect(o.verdict.restoredModuloAsks, o.id).toBe(true);
      // The verdict is the one scoreRepair gives for the HiGHS repair (checked on a few records).
      if (k % 4 !== 0) continue;
      const result = await repair(records[k].sequence, corpus.find((s) => s.name === o.set)!.catalog);
      const { askReadings: _, ...expected } = scoreRepair({
        input: records[k].sequence,
        gold: records[k].gold,
        repaired: result.sequence,
      });
      expect(o.verdict).toEqual(expected);
    }
    const summary = summariseRestoration(outcomes, {
      build: 'working tree',
      quick: true,
      backends: ['highs', 'lp-solver'],
      date: 'today',
    });
    const first = summary.recipes.first!;
    expect(first.all.at(-1)).toMatchObject({ kind: 'overall', n: corpus[0].records.length });
    expect(Object.keys(first.sets)).toEqual(['sgd']);
    expect(summary.recipes.second!.all.map((r) => r.kind)).toEqual([
      'deleted_step',
      'wrong_field',
      'missing_ref_param',
      'missing_producer',
      '2 mistakes',
      'overall',
    ]);
    const ctx = { machine: machine(), command: 'npm run bench -- --only restoration' } as BenchContext;
    const page = restorationPage(ctx, {
      corpus,
      now: summary,
      outcomes,
      before: summary,
      beforeSameRun: true,
    });
    expect(page).toContain('## Second recipe');
    expect(page).toContain('Baseline → now, all sets:');
    expect(page).toMatch(/\| deleted_step +\| +\d+ \| \d+\.\d% → \d+\.\d%/);
  });

  it('ships a baseline summary of the model before the intent work, with every set and kind', () => {
    const baseline = readBaseline()!;
    expect(baseline.commit).toMatch(/^e692d8e/);
    expect(baseline.quick).toBe(false);
    expect(Object.keys(baseline.recipes.second!.sets)).toContain('synthetic-descriptive');
    expect(baseline.recipes.first!.all.at(-1)!.n).toBe(1728);
    expect(readFileSync('docs/benchmarks.md', 'utf8')).toContain(baselineDocTables(baseline));
  });

  it('loads another build from git and repairs with it in the same process; the cache stays bounded', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'refract-builds-'));
    try {
      const mine = `-${hashSeed(ROOT).toString(36)}`;
      for (let k = 0; k < MAX_CACHED_BUILDS + 2; k++) mkdirSync(join(cache, `refract-build-old${k}${mine}`));
      // Another checkout's build is not this one's to remove.
      mkdirSync(join(cache, 'refract-build-other-x'));
      const build = await loadBuild('HEAD', cache);
      try {
        expect(build.commit).toMatch(/^[0-9a-f]{40}$/);
        const measured = await measureBuilds(
          corpus.slice(0, 1),
          [{ label: 'before', repair: build.repair }],
          {
            backends: ['highs'],
            warmUp: 0,
          },
        );
        expect(measured.get('before')!.every((o) => o.valid)).toBe(true);
      } finally {
        build.dispose();
      }
      const kept = readdirSync(cache);
      expect(kept).toHaveLength(MAX_CACHED_BUILDS + 1);
      expect(kept).toContain('refract-build-other-x');
      expect(kept).toContain(`refract-build-${build.commit.slice(0, 12)}${mine}`);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
    await expect(loadBuild('no-such-ref-anywhere')).rejects.toThrow(/--against/);
  });

  it('runs from the command line: a quick JSON summary, a table, and a clear error for a bad flag', async () => {
    let out = '';
    const io = { out: (text: string) => (out += text), log: () => {} };
    await restorationCli(
      ['--quick', '--recipe', 'second', '--sets', 'sgd', '--backends', 'highs', '--json'],
      io,
    );
    const summary = JSON.parse(out) as ReturnType<typeof summariseRestoration>;
    expect(summary).toMatchObject({ build: 'working tree', quick: true, backends: ['highs'] });
    expect(Object.keys(summary.recipes)).toEqual(['second']);
    // Quick: up to 8 records per kind (the lost lookups are 8 of them).
    expect(summary.recipes.second!.all.at(-1)!.n).toBe(40);
    const table = restorationReport(summary, null, true);
    expect(table).toContain('second recipe: 1 sets, 40 records (quick)');
    expect(table).toMatch(/\| sgd +\| +40 \|/);
    await expect(restorationCli(['--backends', 'cplex'], io)).rejects.toThrow(InputError);
    await expect(restorationCli(['--sets', 'nestful'], io)).rejects.toThrow(/--sets: unknown "nestful"/);
  });
});
