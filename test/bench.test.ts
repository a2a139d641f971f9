import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { InputError } from '../src/model/errors.ts';
import { DEFAULT_GENERATE, generateSet, toJsonl } from '../research/bench/corrupt.ts';
import { corruptedPath, loadGoldSet, SET_NAMES, type CorruptionRecord } from '../research/bench/data.ts';
import { evaluate } from '../research/bench/evaluate.ts';
import { MISTAKE_KINDS } from '../research/bench/mistakes.ts';
import { hashSeed, mulberry32 } from '../src/model/prng.ts';
import { sameDataFlow } from '../src/score/flow.ts';
import { parseOnly } from '../research/bench/suite.ts';
import { cloneCatalog, concatenateGold } from '../research/bench/synthetic.ts';
import { registerBench } from '../research/cli/bench.ts';
import { crossover, type Bucket } from '../research/bench/crossover.ts';
import { syntheticFamily } from '../research/bench/solver-family.ts';
import { runCommands } from './cli-run.ts';
import { LABELLED_CATALOG, writeLabelled } from './labelled.ts';
import { validate } from '../src/validate/validate.ts';
import { GOLD, seq } from './helpers.ts';

const sets = SET_NAMES.map(loadGoldSet);
const generated = new Map(sets.map((set) => [set.name, generateSet(set, DEFAULT_GENERATE)]));

describe('corruption generator', () => {
  it('is deterministic and reproduces the shipped files byte for byte', () => {
    for (const set of sets) {
      const again = toJsonl(generateSet(set, DEFAULT_GENERATE));
      expect(again).toBe(toJsonl(generated.get(set.name)!));
      const stale = `${corruptedPath(set.name)} is stale: run npx tsx benchmarks/generate.ts`;
      expect(readFileSync(corruptedPath(set.name), 'utf8'), stale).toBe(again);
    }
  });

  it('gives a different corpus for another seed', () => {
    const set = sets[0];
    expect(toJsonl(generateSet(set, { ...DEFAULT_GENERATE, seed: 7 }))).not.toBe(
      toJsonl(generated.get(set.name)!),
    );
  });

  it('produces every kind, each record invalid, combinations of 2 and 3', () => {
    const all: CorruptionRecord[] = [...generated.values()].flat();
    for (const kind of MISTAKE_KINDS)
      expect(
        all.some((r) => r.kind === kind),
        kind,
      ).toBe(true);
    const sizes = new Set(all.map((r) => r.kind.split('+').length));
    expect([...sizes].sort()).toEqual([1, 2, 3]);
    for (const set of sets) {
      for (const r of generated.get(set.name)!) {
        expect(validate(r.sequence, set.catalog).valid, r.id).toBe(false);
        expect(validate(r.gold, set.catalog).valid, r.id).toBe(true);
      }
    }
  });

  it('draws reproducible numbers in [0, 1)', () => {
    const a = mulberry32(hashSeed('x'));
    const b = mulberry32(hashSeed('x'));
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('restoration metric', () => {
  const gold = seq(GOLD);
  it('counts the same data flow under other labels and another order as restored', () => {
    const relabelled = seq(`a = TripadvisorSearchLocation(query="London")
b = SkyScrapperSearchAirport(query="London")
c = SkyScrapperSearchAirport(query="New York")
d = SkyScrapperFlightSearch(originSkyId="$c.skyId$", destinationSkyId="$b.skyId$", originEntityId="$c.entityId$", destinationEntityId="$b.entityId$", date="2024-08-15")
e = TripadvisorSearchHotels(geoId="$a.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")
var_result(flights="$d$", hotels="$e$")`);
    expect(sameDataFlow(relabelled, gold)).toBe(true);
  });

  it('tells a different wiring or literal apart', () => {
    expect(
      sameDataFlow(
        seq(GOLD.replace('destinationSkyId="$var2.skyId$"', 'destinationSkyId="$var1.skyId$"')),
        gold,
      ),
    ).toBe(false);
    expect(sameDataFlow(seq(GOLD.replace('query="London")\nvar3', 'query="Paris")\nvar3')), gold)).toBe(
      false,
    );
    expect(sameDataFlow(gold.slice(0, -1), gold)).toBe(false);
  });
});

describe('evaluation and synthetic inputs', () => {
  it('repairs a handful of records, every repair valid', async () => {
    const set = sets[0];
    const records = generated
      .get(set.name)!
      .filter((_, i) => i % 40 === 0)
      .slice(0, 10);
    const outcomes = await evaluate(records, () => set.catalog);
    expect(outcomes.map((o) => o.id)).toEqual(records.map((r) => r.id));
    expect(outcomes.every((o) => o.detected && o.valid)).toBe(true);
  });

  it('builds valid long sequences and large catalogs', () => {
    const set = sets[0];
    const chain = concatenateGold(mulberry32(1), set.gold, 30);
    expect(chain.filter((s) => s.name !== 'var_result')).toHaveLength(30);
    expect(validate(chain, set.catalog).valid).toBe(true);
    const big = cloneCatalog(set.catalog, 500);
    expect(big.apis).toHaveLength(500);
    expect(new Set(big.apis.map((a) => a.name)).size).toBe(500);
  });
});

describe('solver study', () => {
  const bucket = (lo: number, hi: number, vars: number, ratio: number) =>
    ({ lo, hi, models: 3, medianVars: vars, solvers: {}, ratio }) as Bucket;

  it('places the crossover where lp-solver ÷ HiGHS passes 1 for good', () => {
    const list = [
      bucket(0, 50, 30, 0.2),
      bucket(50, 100, 70, 1.3),
      bucket(100, 200, 150, 0.5),
      bucket(200, 500, 300, 2),
    ];
    const x = crossover(list)!;
    expect(x.above.lo).toBe(200);
    expect(x.below!.lo).toBe(100);
    // log-linear between (150, 0.5) and (300, 2): ratio 1 at 150·√2.
    expect(x.vars).toBeCloseTo(150 * Math.SQRT2, 6);
    expect(crossover([bucket(0, 50, 30, 0.2), bucket(50, 100, 70, 0.9)])).toBeNull();
    expect(crossover([bucket(0, 50, 30, 1.5)])!.vars).toBe(0);
  });

  it('grows a seeded synthetic family of repair models', () => {
    const a = syntheticFamily(sets[0], { maxVars: 400, instances: 2 });
    const b = syntheticFamily(sets[0], { maxVars: 400, instances: 2 });
    expect(a.map((m) => m.model.numVars)).toEqual(b.map((m) => m.model.numVars));
    expect(a.every((m) => m.model.numVars <= 400)).toBe(true);
    expect(Math.max(...a.map((m) => m.model.numVars))).toBeGreaterThan(200);
  });

  it('keeps a committed page with models up to 10⁴ variables and the crossover', () => {
    const page = readFileSync('benchmarks/results/solvers.md', 'utf8');
    expect(page).toMatch(/^\| (5,001–10,000|> 10,000) \| +\d+ \|/m);
    expect(page).toMatch(/\*\*Crossover: HiGHS overtakes lp-solver at about \d+ variables\.\*\*/);
  });
});

describe('bench command', () => {
  it('writes a solver study of any records file into the folder given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-bench-'));
    const data = writeLabelled(dir);
    const out = join(dir, 'study');
    const result = await runCommands(
      [registerBench],
      [
        'bench',
        ...['--data', data, '--catalog', LABELLED_CATALOG],
        ...['--solvers', 'highs,lp-solver', '--repeat', '2', '--synthetic', '0', '--out', out],
      ],
    );
    expect(result.code).toBe(0);
    const page = readFileSync(join(out, 'solvers.md'), 'utf8');
    expect(page).toContain('Models: `mine.jsonl`');
    expect(page).toMatch(/\| mine +\| highs +\|/);
    expect(page).not.toContain('portfolio');
    const doc = JSON.parse(readFileSync(join(out, 'solvers.json'), 'utf8')) as {
      cases: { id: string; results: Record<string, { times: number[]; status: string }> }[];
    };
    expect(doc.cases.map((c) => c.id).sort()).toEqual(['api', 'both', 'label', 'typo']);
    for (const c of doc.cases) {
      expect(Object.keys(c.results).sort()).toEqual(['highs', 'lp-solver']);
      for (const r of Object.values(c.results)) {
        expect(r.status).toBe('optimal');
        expect(r.times).toHaveLength(2);
      }
    }
    expect(readdirSync(out).sort()).toEqual([
      'README.md',
      'solvers.json',
      'solvers.md',
      'solvers.svg',
      'solvers.vl.json',
    ]);
  });

  it('writes into the current directory by default and refuses bad flags', async () => {
    const program = new Command().exitOverride();
    registerBench(program);
    const out = program.commands[0].options.find((o) => o.long === '--out')!;
    expect(out.defaultValue).toBe('refract-bench');
    expect(isAbsolute(String(out.defaultValue))).toBe(false);
    expect(parseOnly('latency, solvers')).toEqual(['latency', 'solvers']);
    expect(() => parseOnly('latency,nope')).toThrow(InputError);
    for (const [args, message] of [
      [['--only', 'nope'], /--only: unknown benchmark "nope"/],
      [['--solvers', 'highs,cplex'], /--solvers: expected one of highs, lp-solver, portfolio/],
      [['--repeat', '0'], /--repeat: expected an integer/],
      [['--data', 'x.jsonl', '--only', 'latency'], /--data: applies to the solvers benchmark only/],
    ] as const) {
      const result = await runCommands([registerBench], ['bench', ...args]);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(message);
    }
  });
});
