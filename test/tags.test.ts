import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { parseRecords } from '../src/read/records.ts';
import { align } from '../src/tags/align.ts';
import { countTags, errorTags, type ErrorTag } from '../src/tags/tags.ts';
import { GOLD, corrupt, executable, seq } from './helpers.ts';

/** Trip planning in three tools: look a city up, book between two codes, send a message. */
const tiny = parseCatalog([
  {
    name: 'lookup',
    description: 'Find a city',
    query_parameters: { city: { type: 'string', required: true } },
    output_parameters: { code: { type: 'string' }, name: { type: 'string' } },
  },
  {
    name: 'book',
    description: 'Book a trip',
    query_parameters: {
      from_code: { type: 'string', required: true },
      to_code: { type: 'string', required: true },
      date: { type: 'string', required: false },
    },
    output_parameters: { booking: { type: 'string' } },
  },
  {
    name: 'notify',
    description: 'Send a message',
    query_parameters: { message: { type: 'string', required: true }, urgent: { type: 'boolean' } },
    output_parameters: { sent: { type: 'boolean' } },
  },
]);

const TRIP = `var1 = lookup(city="Paris")
var2 = lookup(city="Rome")
var3 = book(from_code="$var1.code$", to_code="$var2.code$", date="2024-05-01")
var4 = notify(message="$var3.booking$")
var_result(trip="$var3$")`;
const trip = seq(TRIP);
const tags = (pred: string, gold = trip) => errorTags(seq(pred), tiny, { gold });
const short = (list: readonly ErrorTag[]) =>
  list.map((t) => `${t.step}:${t.tag}${t.param ? `:${t.param}` : ''}`);

describe('tags against a gold sequence', () => {
  it('finds nothing when only labels differ or independent calls swap', () => {
    expect(tags(TRIP)).toEqual([]);
    expect(tags(TRIP.replace(/var1/g, 'a').replace(/var2/g, 'b').replace(/var3/g, 'c'))).toEqual([]);
    const swapped = `var1 = lookup(city="Rome")
var2 = lookup(city="Paris")
var3 = book(from_code="$var2.code$", to_code="$var1.code$", date="2024-05-01")
var4 = notify(message="$var3.booking$")
var_result(trip="$var3$")`;
    expect(tags(swapped)).toEqual([]);
    expect(align(seq(swapped), trip, tiny).toGold).toEqual([1, 0, 2, 3, 4]);
  });

  it('made_up_api: a misspelt API stands for the gold call; an unknown one elsewhere is unaligned', () => {
    expect(tags(corrupt(TRIP, 'var3 = book', 'var3 = bok'))).toEqual([
      { tag: 'made_up_api', step: 2, goldStep: 2, detail: 'bok instead of book' },
    ]);
    expect(tags(corrupt(TRIP, 'var4 = notify', 'var5 = teleport(x=1)\nvar4 = notify'))).toEqual([
      { tag: 'made_up_api', step: 3, detail: 'unknown API teleport' },
    ]);
  });

  it('missing_parameter, made_up_parameter and wrong_assignment compare with the gold call', () => {
    expect(tags(corrupt(TRIP, ', date="2024-05-01"', ''))).toEqual([
      { tag: 'missing_parameter', step: 2, goldStep: 2, param: 'date', detail: 'date is not passed' },
    ]);
    expect(short(tags(corrupt(TRIP, 'from_code=', 'origin_code=')))).toEqual([
      '2:missing_parameter:from_code',
      '2:made_up_parameter:origin_code',
    ]);
    // Accepted by the catalog, but not what the gold call passes.
    expect(tags(corrupt(TRIP, 'lookup(city="Rome")', 'lookup(city="Rome", name="x")'))[0]).toMatchObject({
      tag: 'made_up_parameter',
      detail: 'name is not in the catalog',
    });
    expect(tags(corrupt(TRIP, 'date="2024-05-01"', 'date="2024-06-01"'))).toEqual([
      {
        tag: 'wrong_assignment',
        step: 2,
        goldStep: 2,
        param: 'date',
        detail: 'date="2024-06-01", gold "2024-05-01"',
      },
    ]);
    // Origin and destination from the same lookup: the value is a reference to the wrong call.
    expect(short(tags(corrupt(TRIP, 'to_code="$var2.code$"', 'to_code="$var1.code$"')))).toEqual([
      '2:wrong_assignment:to_code',
    ]);
  });

  it('made_up_assignment and missing_memory for references that cannot resolve', () => {
    expect(short(tags(corrupt(TRIP, '$var2.code$', '$var2.cod$')))).toEqual([
      '2:wrong_assignment:to_code',
      '2:made_up_assignment:to_code',
    ]);
    const fromMemory = corrupt(TRIP, 'var2 = lookup(city="Rome")\n', '').replace(
      '$var2.code$',
      '$rome.code$',
    );
    const gold = seq(fromMemory);
    expect(short(errorTags(gold, tiny, { gold }))).toEqual([]);
    expect(short(errorTags(seq(fromMemory.replace('$rome.code$', '$roma.code$')), tiny, { gold }))).toEqual([
      '1:wrong_assignment:to_code',
      '1:made_up_assignment:to_code',
    ]);
  });

  it('missing_call, new_call and bad_repeat for calls without a partner', () => {
    expect(tags(corrupt(TRIP, 'var4 = notify(message="$var3.booking$")\n', ''))).toEqual([
      { tag: 'missing_call', step: 3, goldStep: 3, detail: 'var4 = notify is missing' },
    ]);
    // The reference to the missing call's label is what the gold passes, but it resolves to nothing.
    expect(short(tags(corrupt(TRIP, 'var1 = lookup(city="Paris")\n', '')))).toEqual([
      '0:missing_call',
      '1:missing_memory:from_code',
    ]);
    expect(tags(corrupt(TRIP, 'var4 = notify', 'var9 = notify(message="hi")\nvar4 = notify'))).toEqual([
      { tag: 'bad_repeat', step: 3, detail: 'notify is called more often than in the gold sequence' },
    ]);
    const noNotify = seq(corrupt(TRIP, 'var4 = notify(message="$var3.booking$")\n', ''));
    expect(errorTags(trip, tiny, { gold: noNotify })).toEqual([
      { tag: 'new_call', step: 3, detail: 'notify is not called in the gold sequence' },
    ]);
  });

  it('does not blame a prediction for references its gold makes too', () => {
    for (const file of ['executable', 'non-executable-glaive', 'non-executable-sgd']) {
      const catalog = parseCatalog(JSON.parse(readFileSync(`data/nestful/${file}-spec.json`, 'utf8')));
      const records = parseRecords(readFileSync(`data/nestful/${file}-data.json`, 'utf8'));
      const all = records.flatMap((r) => errorTags(r.sequence!, catalog, { gold: r.sequence! }));
      expect(all, file).toEqual([]);
    }
  });
});

describe('tags on the NESTFUL worked examples', () => {
  const gold = seq(GOLD);
  const cases: [string, string, string[], string[]][] = [
    [
      'misspelt API',
      corrupt(GOLD, 'var3 = SkyScrapperFlightSearch', 'var3 = SkyCrapperFlightSearch'),
      ['2:made_up_api'],
      ['2:made_up_api'],
    ],
    [
      'var20 label',
      corrupt(GOLD, '"$var2.skyId$"', '"$var20.skyId$"'),
      ['2:wrong_assignment:destinationSkyId', '2:made_up_assignment:destinationSkyId'],
      ['2:made_up_assignment:destinationSkyId'],
    ],
    [
      'missing originSkyId',
      corrupt(GOLD, 'originSkyId="$var1.skyId$", ', ''),
      ['2:missing_parameter:originSkyId'],
      ['2:missing_parameter:originSkyId'],
    ],
    [
      'originalSkyId',
      corrupt(GOLD, 'originSkyId=', 'originalSkyId='),
      ['2:missing_parameter:originSkyId', '2:made_up_parameter:originalSkyId'],
      ['2:missing_parameter:originSkyId', '2:made_up_parameter:originalSkyId'],
    ],
    [
      'skyayeId',
      corrupt(GOLD, '"$var2.skyId$"', '"$var2.skyayeId$"'),
      ['2:wrong_assignment:destinationSkyId', '2:made_up_assignment:destinationSkyId'],
      ['2:made_up_assignment:destinationSkyId'],
    ],
    [
      'step 4 missing',
      corrupt(GOLD, 'var4 = TripadvisorSearchLocation(query="London")\n', ''),
      ['3:missing_memory:geoId', '3:missing_call'],
      ['3:missing_memory:geoId'],
    ],
    [
      'repeated call',
      corrupt(
        GOLD,
        'var4 = TripadvisorSearchLocation(query="London")\n',
        'var4 = TripadvisorSearchLocation(query="London")\nvar6 = TripadvisorSearchLocation(query="London")\n',
      ),
      ['4:bad_repeat'],
      ['4:bad_repeat'],
    ],
    [
      'unrelated call',
      corrupt(GOLD, 'var5 =', 'var6 = NewsAPISearchByKeyWord(query="London")\nvar5 ='),
      ['4:new_call'],
      [],
    ],
    ['relabelled', GOLD.replace(/var2/g, 'var7'), [], []],
  ];
  it.each(cases)('%s', (_name, pred, withGold, withoutGold) => {
    expect(short(errorTags(seq(pred), executable, { gold }))).toEqual(withGold);
    expect(short(errorTags(seq(pred), executable))).toEqual(withoutGold);
  });
});

describe('tags without a gold sequence', () => {
  it('reads validator issues as tags', () => {
    const pred = `var1 = lookup(city="Paris", zip="75")
var2 = lookup(city="Rome")
var2 = lookup(city="Rome")
var3 = book(to_code="$var2.cod$", date="$var9.day$")
var4 = nofity(message="$var3.booking$")`;
    expect(errorTags(seq(pred), tiny).map((t) => [t.step, t.tag, t.detail])).toEqual([
      [0, 'made_up_parameter', 'lookup has no parameter "zip"'],
      [2, 'bad_repeat', 'label var2 is already used by step 2'],
      [3, 'missing_parameter', 'book requires from_code'],
      [3, 'made_up_assignment', 'lookup (step 3) has no output cod'],
      [3, 'missing_memory', 'no earlier step or memory item is labelled var9'],
      [4, 'made_up_api', 'unknown API "nofity"'],
    ]);
  });

  it('turns literal type errors into wrong_assignment only when types are strict', () => {
    const pred = seq('var1 = notify(message="hi", urgent="soon")');
    expect(errorTags(pred, tiny)).toEqual([]);
    expect(short(errorTags(pred, tiny, { types: 'strict' }))).toEqual(['0:wrong_assignment:urgent']);
  });

  it('finds the four NESTFUL executable gold sequences that contradict their spec', () => {
    const records = parseRecords(readFileSync('data/nestful/executable-data.json', 'utf8'));
    const lists = records.map((r) => errorTags(r.sequence!, executable));
    expect(records.filter((_, k) => lists[k].length > 0).map((r) => r.id)).toEqual(['34', '52', '53', '81']);
    expect(countTags(lists).made_up_assignment).toEqual({ tags: 5, sequences: 4 });
    expect(countTags(lists).missing_call).toEqual({ tags: 0, sequences: 0 });
  });
});
