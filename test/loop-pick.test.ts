import { describe, expect, it } from 'vitest';
import type { Sequence } from '../src/model/types.ts';
import { milpFixer, withoutPseudoSteps } from '../src/loop/fixers/milp.ts';
import { openIssues } from '../src/loop/issues.ts';
import { pick } from '../src/loop/pick.ts';
import { signature } from '../src/score/flow.ts';
import { loopToolCalls } from '../src/loop/toolcalls.ts';
import { validate } from '../src/validate/validate.ts';
import { repair } from '../src/repair/repair.ts';
import { parseSequenceText } from '../src/read/sequence.ts';
import { broken, catalog, gold, worse } from './fixtures/loop/samples.ts';

/** Gold with every label renamed (`var3` -> `flights`, …) and arguments in another order. */
const relabelled: Sequence = JSON.parse(
  JSON.stringify(
    gold.map((s) => ({ ...s, arguments: Object.fromEntries(Object.entries(s.arguments).reverse()) })),
  )
    .replaceAll('var1', 'ny')
    .replaceAll('var2', 'ldn')
    .replaceAll('var3', 'flights')
    .replaceAll('var4', 'loc')
    .replaceAll('var5', 'hotels'),
);
const paris = gold.map((s) => (s.label === 'var2' ? { ...s, arguments: { query: 'Paris' } } : s));

describe('signature', () => {
  it('ignores label names and argument order, not values or flow', () => {
    expect(relabelled[2].label).toBe('flights');
    expect(signature(relabelled)).toBe(signature(gold));
    expect(signature(paris)).not.toBe(signature(gold));
    const swapped = gold.map((s) =>
      s.label === 'var3'
        ? {
            ...s,
            arguments: { ...s.arguments, originSkyId: '$var2.skyId$', destinationSkyId: '$var1.skyId$' },
          }
        : s,
    );
    expect(signature(swapped)).not.toBe(signature(gold));
  });

  it('keeps names of labels the sequence never defines (memory items)', () => {
    const a: Sequence = [{ name: 'X', arguments: { p: '$mem.f$' }, label: 'v' }];
    const b: Sequence = [{ name: 'X', arguments: { p: '$other.f$' }, label: 'w' }];
    expect(signature(a)).toBe('[{"name":"X","label":"#1","arguments":{"p":"$mem.f$"}}]');
    expect(signature(a)).not.toBe(signature(b));
  });
});

describe('pick', () => {
  it('drops invalid candidates and takes the most common data flow among the valid ones', async () => {
    const result = await pick([paris, broken, relabelled, gold], catalog);
    expect(result).toMatchObject({ index: 2, by: 'majority', votes: 2 });
    expect(result.sequence).toBe(relabelled);
    expect(result.reason).toBe('3 of 4 candidates valid; candidate 2 has the most common data flow (2 of 3)');
    expect(result.candidates.map((c) => [c.index, c.valid, c.errors])).toEqual([
      [0, true, 0],
      [1, false, 3],
      [2, true, 0],
      [3, true, 0],
    ]);
  });

  it('breaks a tie by order of appearance', async () => {
    expect((await pick([paris, gold], catalog)).index).toBe(0);
  });

  it('repairs every candidate when none is valid and takes the cheapest repair', async () => {
    const result = await pick([worse, broken], catalog);
    expect(result).toMatchObject({ index: 1, by: 'cheapest-repair' });
    const [c0, c1] = result.candidates;
    expect(c1.cost).toBeLessThan(c0.cost!);
    expect(result.repair?.cost).toBe(c1.cost);
    expect(result.sequence).toEqual(gold);
    expect(validate(result.sequence!, catalog).valid).toBe(true);
    expect(result.reason).toBe(
      `no candidate is valid; candidate 1 has the cheapest repair (cost ${c1.cost})`,
    );
  });

  it('says so when the cheapest repair is held back as uncertain (every repair is)', async () => {
    // Above every step of the calibration: no repair is that sure.
    const result = await pick([worse, broken], catalog, { repair: { minConfidence: 0.999 } });
    expect(result).toMatchObject({ index: 1, by: 'cheapest-repair' });
    expect(result.repair?.status).toBe('uncertain');
    expect(result.reason).toMatch(/cheapest repair \(cost [\d.]+\), uncertain: confidence 0\.\d+ is below/);
  });

  it('refuses an empty list', async () => {
    await expect(pick([], catalog)).rejects.toThrow(/at least one candidate/);
  });
});

describe('milp fixer', () => {
  it('repairs the corrupted sequence in one round', async () => {
    const result = await loopToolCalls({ sequence: broken, catalog, fixer: milpFixer({ catalog }) });
    expect(result).toMatchObject({ rounds: 1, accepted: 1, stop: 'solved', history: [3, 0] });
    expect(result.state).toEqual(gold);
  });

  it('escalates to new calls when narrower stages only ask', async () => {
    const noLocation = gold.filter((s) => s.label !== 'var4');
    const fixer = milpFixer({ catalog });
    const narrow = await fixer.propose(noLocation, '', 1);
    expect(narrow).toEqual(gold);
    const fixed = milpFixer({ catalog, escalate: false, repair: { allowInsert: false } });
    const asked = (await fixed.propose(noLocation, '', 0)) as Sequence;
    expect(asked.map((s) => s.name)).toContain('ask');
    expect(openIssues(asked, catalog).map((i) => i.message)).toEqual(['ask the user for geoId']);
    expect(withoutPseudoSteps(asked, catalog)[3]).toEqual({
      name: 'TripadvisorSearchHotels',
      arguments: { checkIn: '2024-08-15', checkOut: '2024-08-18' },
      label: 'var5',
    });
    // Even without the dangling `$var4.geoId$`, geoId is an id only a location search produces: the next
    // round inserts that call (its query a literal of the sequence) rather than asking a person for it.
    const result = await loopToolCalls({ sequence: asked, catalog, fixer: milpFixer({ catalog }) });
    expect(result).toMatchObject({ rounds: 1, stop: 'solved', history: [1, 0] });
    expect(result.state.map((s) => s.name)).toContain('TripadvisorSearchLocation');
  });

  it('leaves a value only a person can give for a human', async () => {
    const noDate = gold.map((s) => {
      if (s.label !== 'var3') return s;
      const { date: _date, ...rest } = s.arguments;
      return { ...s, arguments: rest };
    });
    const result = await loopToolCalls({ sequence: noDate, catalog, fixer: milpFixer({ catalog }) });
    expect(result).toMatchObject({ rounds: 2, accepted: 0, stop: 'stalled', history: [1, 1, 1] });
    expect(result.leftover.map((i) => i.message)).toEqual(['SkyScrapperFlightSearch requires date']);
    expect(result.log[0].reason).toBe('not better: 1 issue(s), state has 1');
  });

  it('never proposes a repair that drops a call of the user’s: the plan is not called solved without it', async () => {
    const sequence = parseSequenceText(
      'var1 = SkyScrapperSearchAirport(query="New York")\nvar2 = SkyCrapperFlightSearch(originSkyId="$var1.skyId$", date="2024-08-15")',
    );
    // The narrowest stage cannot rename it to an API the plan does not use yet: it would drop it.
    expect((await repair(sequence, catalog, { givenOnly: true, allowInsert: false })).status).toBe('partial');
    const proposed = (await milpFixer({ catalog }).propose(sequence, '', 0)) as Sequence;
    expect(proposed.map((s) => s.name)).toContain('SkyScrapperFlightSearch');
    const result = await loopToolCalls({ sequence, catalog, fixer: milpFixer({ catalog }) });
    expect(result.stop).not.toBe('solved');
    expect(result.state.map((s) => s.name)).toContain('SkyCrapperFlightSearch');
    // Where every stage would drop it, the round stalls with that reason.
    const only = await milpFixer({
      catalog,
      escalate: false,
      repair: { givenOnly: true, allowInsert: false },
    }).propose(sequence, '', 0);
    expect(only).toEqual({ stalled: 'optimiser would drop a call of the plan: SkyCrapperFlightSearch' });
  });
});
