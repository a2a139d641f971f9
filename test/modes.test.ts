/** Modes of the same compiler: goals, optimal/compress, defensive confirms, several fixes, strict types, limits. */
import { describe, expect, it } from 'vitest';
import { repair } from '../src/repair/repair.ts';
import { compress } from '../src/repair/compress.ts';
import { loadCostModel, withWeights } from '../src/read/cost-models.ts';
import { validate } from '../src/validate/validate.ts';
import { formatStringForm } from '../src/read/sequence.ts';
import type { Catalog } from '../src/model/types.ts';
import { AIRPORT_MAPPINGS, GOLD, corrupt, executable, seq, text } from './helpers.ts';

const p = (name: string, required = true) => ({ name, type: 'string' as const, required });
const o = (path: string) => ({ path, type: 'string' as const });
/** The HR/travel catalog: hr_bot takes either input (both optional), so w3 can be dropped. */
const HR: Catalog = {
  apis: [
    { name: 'w3', description: 'directory lookup', params: [p('email')], outputs: [o('id')] },
    { name: 'author_workbench', description: 'papers by author', params: [p('id')], outputs: [o('papers')] },
    {
      name: 'hr_bot',
      description: 'employee record',
      params: [p('id', false), p('email', false)],
      outputs: [o('info'), o('id')],
    },
    {
      name: 'concur',
      description: 'travel request',
      params: [p('employee_info'), p('travel_justification')],
      outputs: [o('request_id')],
    },
  ],
};
const HR_SEQUENCE = `var1 = w3(email="jo@example.com")
var2 = author_workbench(id="$var1.id$")
var3 = hr_bot(id="$var1.id$", email="jo@example.com")
var4 = concur(employee_info="$var3.info$", travel_justification="$var2.papers$")`;
const INFO_MAP = [{ from: 'info', to: 'employee_info', score: 1 }];
// Slot-filling switched off (by weight) and re-pointing cheap, so a call that only fed an id can go.
const HR_COST = withWeights(loadCostModel('compress'), {
  perCall: 3,
  slotFill: 20,
  reassign: 1,
  moveStep: 1,
});

describe('goals and optimal mode', () => {
  it('a valid sequence meeting its goals in valid mode is valid, with no edits', async () => {
    const r = await repair(seq(HR_SEQUENCE), HR, { goals: { apis: ['concur'] }, mode: 'valid' });
    expect(r.status).toBe('valid');
    expect(r.determination).toBe(true);
    expect(r.edits).toEqual([]);
  });

  it('unmet field and step goals make the determination false in valid and optimal mode', async () => {
    for (const mode of ['valid', 'optimal'] as const) {
      const fields = await repair(seq(HR_SEQUENCE), HR, { goals: { fields: ['nothing_like_it'] }, mode });
      expect(fields.determination).toBe(false);
      const steps = await repair(seq(HR_SEQUENCE), HR, {
        goals: { steps: [{ name: 'w3', arguments: { email: 'al@example.com' } }] },
        mode,
      });
      expect(steps.determination).toBe(false);
      const met = await repair(seq(HR_SEQUENCE), HR, {
        goals: { steps: [{ name: 'w3', arguments: { email: 'jo@example.com' } }], fields: ['papers'] },
        mode,
      });
      expect(met.determination).toBe(true);
    }
  });

  it('a memory item labelled like a step: the step shadows it, in every mode', async () => {
    // GetDetails(var1) has no output `city`; memory var1 has one, but the step named var1 hides it.
    const catalog: Catalog = {
      apis: [
        { name: 'GetDetails', description: '', params: [p('query')], outputs: [o('name')] },
        { name: 'BookTrip', description: '', params: [p('city'), p('name')], outputs: [o('id')] },
      ],
    };
    const input = seq(`var1 = GetDetails(query="v0")
var2 = BookTrip(city="$var1.city$", name="$var1.name$")`);
    for (const mode of ['sound', 'valid', 'optimal'] as const) {
      const r = await repair(input, catalog, {
        memory: { var1: { city: 'Rome', id: 'x' } },
        mode,
        goals: mode === 'sound' ? undefined : { fields: ['id'] },
      });
      expect(r.status).not.toBe('error');
      expect(
        validate(r.sequence, catalog, { pseudoSteps: true, memory: { var1: { city: 'Rome' } } }).valid,
      ).toBe(true);
    }
  });

  it('valid mode inserts a call an API goal requires; the input misses the goal: determination false', async () => {
    const r = await repair(seq(GOLD), executable, {
      goals: { apis: ['TripadvisorSearchRestaurants'] },
      mode: 'valid',
    });
    expect(r.status).toBe('repaired');
    expect(r.determination).toBe(false);
    expect(r.sequence.some((s) => s.name === 'TripadvisorSearchRestaurants')).toBe(true);
    expect(validate(r.sequence, executable, { pseudoSteps: true }).valid).toBe(true);
  });

  it('optimal mode with the goal "call concur": w3 goes, hr_bot takes the email and feeds author_workbench', async () => {
    const r = await repair(seq(HR_SEQUENCE), HR, {
      goals: { apis: ['concur'] },
      mode: 'optimal',
      cost: HR_COST,
    });
    expect(text(r.sequence)).toBe(`var3 = hr_bot(email="jo@example.com")
var2 = author_workbench(id="$var3.id$")
var4 = concur(employee_info="$var3.info$", travel_justification="$var2.papers$")`);
    expect(r.edits.map((e) => e.kind).sort()).toEqual(['deleteStep', 'dropParam', 'moveStep', 'reassign']);
  });

  it('optimal mode with the memory goal "employee_info known": only hr_bot(email) remains', async () => {
    const r = await repair(seq(HR_SEQUENCE), HR, {
      goals: { fields: ['employee_info'] },
      mode: 'optimal',
      cost: HR_COST,
      mappings: INFO_MAP,
    });
    expect(text(r.sequence)).toBe('var3 = hr_bot(email="jo@example.com")');
  });

  it('a step goal forces a call with the given values', async () => {
    const r = await repair(seq(HR_SEQUENCE), HR, {
      goals: { steps: [{ name: 'w3', arguments: { email: 'al@example.com' } }] },
      mode: 'valid',
    });
    expect(r.sequence.filter((s) => s.name === 'w3').map((s) => s.arguments.email)).toContain(
      'al@example.com',
    );
  });

  it('an impossible goal is an error with the reason, not a crash; the valid input misses it', async () => {
    const r = await repair(seq(HR_SEQUENCE), HR, { goals: { apis: ['nope'] }, mode: 'valid' });
    expect(r).toMatchObject({ status: 'error', determination: false });
    expect(r.reason).toMatch(/nope/);
  });
});

describe('compress', () => {
  it('consolidates the thrashing ReAct trajectory into five calls, origin from New York, destination from Costa Rica', async () => {
    const react = `var1 = TripadvisorSearchLocation(query="Costa Rica")
var2 = TripadvisorSearchHotels(geoId="$var1.geoId$", checkIn="2024-12-01", checkOut="2024-12-15")
var3 = SkyScrapperSearchAirport(query="New York")
var4 = SkyScrapperSearchAirport(query="Costa Rica")
var5 = SkyScrapperFlightSearch(originSkyId="$var3.skyId$", destinationSkyId="$var4.skyId$", date="2024-12-01")
var6 = SkyScrapperSearchAirport(query="New York")
var7 = SkyScrapperFlightSearch(originEntityId="$var6.entityId$", destinationSkyId="$var4.skyId$", date="2024-12-01")
var8 = SkyScrapperSearchAirport(query="New York")
var9 = SkyScrapperFlightSearch(originSkyId="$var8.skyId$", destinationSkyId="$var4.skyId$", originEntityId="$var8.entityId$", date="2024-12-01")`;
    const r = await compress(seq(react), executable, {
      mappings: [{ from: 'entityId', to: 'destinationEntityId', score: 1 }],
    });
    expect(text(r.sequence)).toBe(`var1 = TripadvisorSearchLocation(query="Costa Rica")
var2 = TripadvisorSearchHotels(geoId="$var1.geoId$", checkIn="2024-12-01", checkOut="2024-12-15")
var4 = SkyScrapperSearchAirport(query="Costa Rica")
var8 = SkyScrapperSearchAirport(query="New York")
var9 = SkyScrapperFlightSearch(originSkyId="$var8.skyId$", destinationSkyId="$var4.skyId$", originEntityId="$var8.entityId$", date="2024-12-01", destinationEntityId="$var4.entityId$")`);
    expect(r.isExecutable).toBe(true);
    expect(r.optimal).toBe(true);
  });

  it('a dropped argument whose parameter is filled anew keeps its place in the call', async () => {
    const input = seq(`var1 = SkyScrapperSearchAirport(query="New York")
var2 = SkyScrapperSearchAirport(query="London")
var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.id$", date="2024-08-15")`);
    const result = await compress(input, executable);
    // Compress's weights drop the broken reference and map entityId in anew (not re-point it).
    expect(result.edits.map((e) => e.kind)).toEqual(['dropParam', 'newMap']);
    expect(Object.keys(result.sequence[2].arguments)).toEqual([
      'originSkyId',
      'destinationSkyId',
      'originEntityId',
      'destinationEntityId',
      'date',
    ]);
    expect(result.sequence[2].arguments.destinationEntityId).toBe('$var2.entityId$');
  });

  it('keeps a gold sequence with an answer step whole', async () => {
    const r = await compress(seq(GOLD), executable);
    expect(text(r.sequence)).toBe(GOLD);
  });
});

describe('defensive repair', () => {
  it('adds a confirm only for the value the repair invented (example 12)', async () => {
    const broken = corrupt(GOLD, 'originSkyId="$var1.skyId$", ', '');
    const r = await repair(seq(broken), executable, { mappings: AIRPORT_MAPPINGS, defensive: true });
    const confirms = r.sequence.filter((s) => s.name === 'confirm');
    expect(confirms).toEqual([{ name: 'confirm', arguments: { originSkyId: '$var1.skyId$' } }]);
    expect(r.sequence[r.sequence.findIndex((s) => s.name === 'confirm') + 1].name).toBe(
      'SkyScrapperFlightSearch',
    );
    expect(r.isExecutable).toBe(false);
    expect(r.edits.map((e) => e.kind).sort()).toEqual(['confirm', 'newMap']);
  });

  it('confirms values taken from an inserted call, and the values it copied into it', async () => {
    const r = await repair(
      seq(corrupt(GOLD, 'var4 = TripadvisorSearchLocation(query="London")\n', '')),
      executable,
      { defensive: true },
    );
    expect(r.sequence.filter((s) => s.name === 'confirm')).toEqual([
      { name: 'confirm', arguments: { query: 'London' } },
      { name: 'confirm', arguments: { geoId: '$var4.geoId$' } },
    ]);
    // Each confirm says what the value stands for and where the repair took it from.
    expect(r.edits.filter((e) => e.kind === 'confirm').map((e) => e.detail)).toEqual([
      'confirm query="London" for TripadvisorSearchLocation: the value passed at step 2',
      'confirm geoId="$var4.geoId$" for TripadvisorSearchHotels: an output of a call the repair inserted',
    ]);
  });

  it('confirms a value re-pointed at memory or an inserted call, and never an asked one', async () => {
    const r = await repair(
      seq(
        'var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", ' +
          'originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="$date$")',
      ),
      executable,
      {
        defensive: true,
        memory: { var1: { skyId: 'NYCA' }, var2: { skyId: 'LOND', entityId: '27544008' } },
      },
    );
    const confirms = r.edits.filter((e) => e.kind === 'confirm');
    expect(confirms.map((e) => e.param)).toEqual(['originEntityId']);
    expect(confirms[0].detail).toContain('re-pointed from $var1.entityId$, to a call the repair inserted');
    // The date is asked (a whole memory item is no date), and so is the inserted airport search's query.
    expect(r.sequence.filter((s) => s.name === 'ask').map((s) => s.arguments.slot)).toEqual([
      'query',
      'date',
    ]);
  });

  it('adds nothing to a repair that invents nothing', async () => {
    const r = await repair(seq(corrupt(GOLD, 'originSkyId=', 'originalSkyId=')), executable, {
      defensive: true,
    });
    expect(r.sequence.some((s) => s.name === 'confirm')).toBe(false);
  });
});

describe('several fixes', () => {
  it('--fixes 3 on a made-up parameter: three distinct valid repairs in non-decreasing cost, the first the main one', async () => {
    const r = await repair(seq(corrupt(GOLD, 'originSkyId=', 'originalSkyId=')), executable, {
      fixes: 3,
      mappings: AIRPORT_MAPPINGS,
    });
    expect(r.fixes).toHaveLength(3);
    const fixes = r.fixes!;
    expect(formatStringForm(fixes[0].sequence)).toBe(formatStringForm(r.sequence));
    expect(new Set(fixes.map((f) => formatStringForm(f.sequence))).size).toBe(3);
    for (let i = 1; i < fixes.length; i++)
      expect(fixes[i].cost).toBeGreaterThanOrEqual(fixes[i - 1].cost - 1e-9);
    for (const f of fixes) expect(validate(f.sequence, executable, { pseudoSteps: true }).valid).toBe(true);
  });
});

describe('types and limits', () => {
  it('strict types: an enum-violating literal is replaced, warn mode only reports it', async () => {
    const bad = corrupt(GOLD, 'date="2024-08-15")', 'date="2024-08-15", cabinClass="luxury")');
    const warn = await repair(seq(bad), executable);
    expect(warn.status).toBe('valid');
    expect(warn.issues.map((x) => [x.tag, x.severity])).toEqual([['enum_mismatch', 'warning']]);
    const strict = await repair(seq(bad), executable, { types: 'strict' });
    expect(strict.status).toBe('repaired');
    expect(strict.sequence[2].arguments.cabinClass).toBeUndefined();
    expect(strict.edits.map((e) => e.kind)).toEqual(['dropParam']);
  });

  it('a model over the size cap is refused with a clear message', async () => {
    const r = await repair(seq(corrupt(GOLD, 'originSkyId=', 'originalSkyId=')), executable, {
      maxModelVars: 10,
    });
    expect(r.status).toBe('error');
    expect(r.determination).toBeNull();
    expect(r.reason).toBe('model too large: more than 10 variables (cap 10)');
  });
});

describe('memory and one call at a time', () => {
  it('executed calls become memory shaped like their outputs', async () => {
    const { memoryFromCalls } = await import('../src/repair/step.ts');
    const memory = memoryFromCalls(seq('var1 = SkyScrapperSearchAirport(query="New York")'), executable);
    expect(memory.var1).toMatchObject({ skyId: null, entityId: null, navigation: { entityId: null } });
  });

  it('checks call 3 against the memory calls 1 and 2 left, and corrects it', async () => {
    const { checkStep } = await import('../src/repair/step.ts');
    const executed = seq(GOLD).slice(0, 2);
    const broken = seq(
      corrupt(GOLD, 'destinationSkyId="$var2.skyId$"', 'destinationSkyId="$var2.skyayeId$"'),
    )[2];
    const r = await checkStep(broken, executable, { executed });
    expect(r.valid).toBe(false);
    expect(r.corrected).toEqual(seq(GOLD)[2]);
    expect(r.pending).toEqual([]);
    const ok = await checkStep(seq(GOLD)[2], executable, { executed });
    expect(ok.valid).toBe(true);
  });

  it('a repair reuses a nested field from memory: $var9.datetime.date$', async () => {
    const memory = { var9: { datetime: { date: '2024-08-15' } } };
    const r = await repair(seq(corrupt(GOLD, ', date="2024-08-15"', '')), executable, { memory });
    expect(r.sequence.find((s) => s.name === 'SkyScrapperFlightSearch')!.arguments.date).toBe(
      '$var9.datetime.date$',
    );
  });
});

describe('inserted calls', () => {
  const TRAVEL: Catalog = {
    apis: [
      { name: 'find_city', description: '', params: [p('name')], outputs: [o('city_id')] },
      { name: 'search_hotels', description: '', params: [p('city_id')], outputs: [o('hotel_id')] },
      { name: 'book', description: '', params: [p('hotel_id'), p('name', false)], outputs: [o('booking')] },
    ],
  };

  it('a deleted producer comes back under its label; its own input comes from a call inserted for it', async () => {
    const broken = seq(`var1 = book(hotel_id="$var7.hotel_id$", name="Rome")
var_result(booking="$var1.booking$")`);
    for (const cost of [loadCostModel('default'), withWeights(loadCostModel('default'), { insertCall: 1 })]) {
      const r = await repair(broken, TRAVEL, { cost });
      // The deleted step is restored under the label the reference names (var7); the new call takes the
      // next free label.
      expect(text(r.sequence)).toBe(`var8 = find_city(name="Rome")
var7 = search_hotels(city_id="$var8.city_id$")
var1 = book(hotel_id="$var7.hotel_id$", name="Rome")
var_result(booking="$var1.booking$")`);
      expect(r.edits.map((e) => e.kind).sort()).toEqual([
        'insertCall',
        'reassign',
        'restoreStep',
        'reuseLiteral',
      ]);
    }
  });

  it('with inserts off (--no-insert) the missing value is asked for in place', async () => {
    const broken = seq(`var1 = book(hotel_id="$var7.hotel_id$", name="Rome")
var_result(booking="$var1.booking$")`);
    const r = await repair(broken, TRAVEL, { allowInsert: false });
    expect(r.edits.map((e) => e.kind)).toEqual(['slotFill']);
    expect(text(r.sequence)).toBe(`hotel_id = ask(slot="hotel_id")
var1 = book(hotel_id="$hotel_id$", name="Rome")
var_result(booking="$var1.booking$")`);
  });
});
