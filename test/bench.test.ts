import { readFileSync } from 'node:fs';
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
import { plot } from '../research/bench/svg.ts';
import { cloneCatalog, concatenateGold } from '../research/bench/synthetic.ts';
import { registerBench } from '../research/cli/bench.ts';
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

describe('svg plot', () => {
  const svg = plot({
    title: 'Time <against> size & more',
    xLabel: 'vars',
    yLabel: 'ms',
    yLog: true,
    lines: [{ y: 678, label: 'reference' }],
    series: [
      {
        name: 'a',
        points: [
          [1, 0.5],
          [10, 5],
          [100, 50],
        ],
      },
      {
        name: 'b',
        style: 'both',
        points: [
          [2, 1],
          [20, 0],
          [200, 2000],
        ],
      },
    ],
  });

  it('is well-formed with a viewBox', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
    const stack: string[] = [];
    for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
      if (m[3] === '/') continue;
      if (m[1] === '/') expect(stack.pop()).toBe(m[2]);
      else stack.push(m[2]);
    }
    expect(stack).toEqual([]);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).toContain('Time &lt;against&gt; size &amp; more');
  });

  it('draws each point, drops those a log axis cannot show, and the reference line', () => {
    // Three circles for series a plus its legend entry; two squares for b (0 has no log position).
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg.match(/<rect x="[^"]*" y="[^"]*" width="7\.0"/g)).toHaveLength(2);
    expect(svg).toContain('stroke-dasharray');
    expect(svg).toContain('>reference<');
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

describe('bench command', () => {
  it('parses --only and rejects unknown names', async () => {
    expect(parseOnly('latency, solvers')).toEqual(['latency', 'solvers']);
    expect(() => parseOnly('latency,nope')).toThrow(InputError);
    const program = new Command().exitOverride();
    registerBench(program);
    await expect(program.parseAsync(['node', 'refract', 'bench', '--only', 'nope'])).rejects.toThrow(
      InputError,
    );
  });
});
