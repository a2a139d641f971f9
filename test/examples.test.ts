/**
 * The worked examples (mistakes on the first NESTFUL gold sequence) with the exact repairs we want under
 * the default cost model, and the alternatives under other presets.
 */
import { describe, expect, it } from 'vitest';
import { repair } from '../src/repair/repair.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import { validate } from '../src/validate/validate.ts';
import type { RepairOptions } from '../src/model/options.ts';
import { AIRPORT_MAPPINGS, GOLD, corrupt, executable, seq, text } from './helpers.ts';

const FLIGHT = (args: string) => `var3 = SkyScrapperFlightSearch(${args})`;
const GOLD_FLIGHT_ARGS =
  'originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15"';

async function fix(broken: string, options: RepairOptions = {}) {
  const result = await repair(seq(broken), executable, options);
  expect(result.status).toBe('repaired');
  expect(result.determination).toBe(false);
  expect(result.optimal).toBe(true);
  expect(validate(result.sequence, executable, { pseudoSteps: true, memory: options.memory }).valid).toBe(
    true,
  );
  return result;
}

describe('worked examples on the NESTFUL executable catalog', () => {
  it('gold sequence is valid without a solve', async () => {
    const r = await repair(seq(GOLD), executable);
    expect(r).toMatchObject({ determination: true, status: 'valid', solver: 'none', edits: [] });
  });

  it('1: misspelt API is renamed in place, order kept', async () => {
    const r = await fix(corrupt(GOLD, 'SkyScrapperFlightSearch', 'SkyCrapperFlightSearch'));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => [e.kind, e.from, e.to])).toEqual([
      ['renameApi', 'SkyCrapperFlightSearch', 'SkyScrapperFlightSearch'],
    ]);
  });

  it('2: a wrong label is relabelled, no duplicate call', async () => {
    const r = await fix(corrupt(GOLD, 'var2 = Sky', 'var20 = Sky'));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => e.kind)).toEqual(['relabel']);
  });

  it('3: a missing label is added', async () => {
    const r = await fix(corrupt(GOLD, 'var2 = Sky', 'Sky'));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => e.kind)).toEqual(['addLabel']);
  });

  it("4: a missing parameter is mapped by default (the catalog's own mappings), asked without them or under prefer-slot-fill", async () => {
    const broken = corrupt(GOLD, 'originSkyId="$var1.skyId$", ', '');
    const mapped = await fix(broken);
    expect(mapped.sequence[2].arguments.originSkyId).toBe('$var1.skyId$');
    expect(mapped.edits.map((e) => e.kind)).toEqual(['newMap']);
    expect(mapped.isExecutable).toBe(true);
    const asked = await fix(broken, { catalogMappings: false });
    expect(asked.sequence[2]).toEqual({
      name: 'ask',
      arguments: { slot: 'originSkyId' },
      label: 'originSkyId',
    });
    expect(asked.sequence[3].arguments.originSkyId).toBe('$originSkyId$');
    expect(asked.isExecutable).toBe(false);
    const given = await fix(broken, { catalogMappings: false, mappings: AIRPORT_MAPPINGS });
    expect(given.sequence[2].arguments.originSkyId).toBe('$var1.skyId$');
    const slot = await fix(broken, { mappings: AIRPORT_MAPPINGS, cost: loadCostModel('prefer-slot-fill') });
    expect(slot.edits.map((e) => e.kind)).toEqual(['slotFill']);
  });

  it('5: a misnamed parameter is renamed, its value kept', async () => {
    const r = await fix(corrupt(GOLD, 'originSkyId=', 'originalSkyId='));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => [e.kind, e.from, e.to])).toEqual([
      ['renameParam', 'originalSkyId', 'originSkyId'],
    ]);
  });

  it('6: a reference to a made-up label goes to the closest label with that field', async () => {
    const r = await fix(corrupt(GOLD, '$var2.skyId$', '$var20.skyId$'));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => [e.kind, e.from, e.to])).toEqual([
      ['reassign', '$var20.skyId$', '$var2.skyId$'],
    ]);
  });

  it('7: a reference to a made-up field goes to the closest field of the same label', async () => {
    const r = await fix(corrupt(GOLD, '$var2.skyId$', '$var2.skyayeId$'));
    expect(text(r.sequence)).toBe(GOLD);
  });

  it('8: a missing step is put back under its label, its query reusing the closest literal', async () => {
    const r = await fix(corrupt(GOLD, 'var4 = TripadvisorSearchLocation(query="London")\n', ''));
    expect(text(r.sequence)).toBe(GOLD);
    expect(r.edits.map((e) => e.kind).sort()).toEqual(['restoreStep', 'reuseLiteral']);
  });

  it('9: a missing date with no source is asked, no unrelated call inserted', async () => {
    const r = await fix(corrupt(GOLD, ', date="2024-08-15"', ''));
    expect(r.sequence.map((s) => s.name)).toEqual([
      'SkyScrapperSearchAirport',
      'SkyScrapperSearchAirport',
      'ask',
      'SkyScrapperFlightSearch',
      'TripadvisorSearchLocation',
      'TripadvisorSearchHotels',
      'var_result',
    ]);
    expect(r.edits.map((e) => [e.kind, e.param])).toEqual([['slotFill', 'date']]);
  });

  it('10: under allow-deletes the mislabelled step stays and its consumers point at var20, never at the origin var1', async () => {
    // The reference tool deletes var20 and points the destination at var1: a flight from New York to New
    // York. One source per role forbids it; relabelling costs 3 under this preset, two re-points 2.
    const r = await fix(corrupt(GOLD, 'var2 = Sky', 'var20 = Sky'), { cost: loadCostModel('allow-deletes') });
    const flight = FLIGHT(GOLD_FLIGHT_ARGS)
      .replace('$var2.skyId$', '$var20.skyId$')
      .replace('$var2.entityId$', '$var20.entityId$');
    expect(text(r.sequence).split('\n')).toEqual([
      'var1 = SkyScrapperSearchAirport(query="New York")',
      'var20 = SkyScrapperSearchAirport(query="London")',
      flight,
      'var4 = TripadvisorSearchLocation(query="London")',
      'var5 = TripadvisorSearchHotels(geoId="$var4.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")',
      'var_result(flights="$var3$", hotels="$var5$")',
    ]);
    expect(r.edits.map((e) => e.kind)).toEqual(['reassign', 'reassign']);
  });

  it('11: with maps preferred, the misnamed parameter is re-mapped to var1 (the sibling origin), never at random', async () => {
    const r = await fix(corrupt(GOLD, 'originSkyId=', 'originalSkyId='), {
      mappings: AIRPORT_MAPPINGS,
      cost: loadCostModel('prefer-maps'),
    });
    expect(r.sequence[2].arguments.originSkyId).toBe('$var1.skyId$');
    expect(r.edits.map((e) => e.kind)).toEqual(['dropParam', 'newMap']);
  });

  it('memory: fields come from memory and the sequence, nothing asked', async () => {
    const memory = {
      var1: { skyId: 'NYCA', entityId: '27537542' },
      var2: { skyId: 'SJO', entityId: '2572131' },
      var3: { datetime: { date: '2024-08-15' } },
    };
    const broken = `var4 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$")
var5 = TripadvisorSearchLocation(query="London")
var6 = TripadvisorSearchHotels(checkIn="2024-08-15", checkOut="2024-08-18")`;
    const r = await fix(broken, { memory, mappings: AIRPORT_MAPPINGS, givenOnly: true });
    expect(r.sequence[0].arguments).toMatchObject({
      destinationSkyId: '$var2.skyId$',
      date: '$var3.datetime.date$',
    });
    expect(r.sequence[2].arguments.geoId).toBe('$var5.geoId$');
    expect(r.isExecutable).toBe(true);
  });

  it('a reference with a space in its key inside a longer string is repaired with its text kept', async () => {
    const r = await fix(`var1 = SkyScrapperSearchAirport(query="New York")
var_result(answer="5 * $var1.Exchange Rate$ and $var1.skyId$")`);
    // Exchange Rate is not an output of the airport search: its producer is inserted, the text around kept.
    expect(r.sequence.at(-1)!.arguments.answer).toBe('5 * $var2.Exchange Rate$ and $var1.skyId$');
    expect(r.sequence.at(-2)!.name).toBe('Alpha_Vantage_CURRENCY_EXCHANGE_RATE');
  });
});
