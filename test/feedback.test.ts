import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadSequence } from '../src/read/sequence.ts';
import type { Sequence } from '../src/model/types.ts';
import { feedback, FEEDBACK_FORMATS, isFeedbackFormat } from '../src/feedback/index.ts';
import type { RepairResult } from '../src/model/options.ts';
import { feedbackFor } from '../src/loop/toolcalls.ts';
import { validate } from '../src/validate/validate.ts';
import * as nestful from './fixtures/loop/samples.ts';

const catalog = loadCatalog('test/fixtures/loop/catalog.json');
const broken = loadSequence('test/fixtures/loop/broken.json');
const gold: Sequence = [
  { name: 'SearchAirport', arguments: { query: 'New York' }, label: 'var1' },
  { name: 'SearchAirport', arguments: { query: 'London' }, label: 'var2' },
  {
    name: 'FlightSearch',
    arguments: { originSkyId: '$var1.skyId$', destinationSkyId: '$var2.skyId$', date: '2024-08-15' },
    label: 'var3',
  },
  { name: 'var_result', arguments: { flights: '$var3$' } },
];

const ISSUES = [
  'not valid: 4 errors, 0 warnings',
  '- [unknown_parameter] step 3 (var3 = FlightSearch), parameter originalSkyId: FlightSearch has no parameter "originalSkyId"',
  '- [missing_parameter] step 3 (var3 = FlightSearch), parameter originSkyId: FlightSearch requires originSkyId',
  '- [unknown_field] step 3 (var3 = FlightSearch), parameter destinationSkyId, reference $var2.skyid$: SearchAirport (step 2) has no output skyid',
  '- [unknown_label] step 4 (var4 = SearchHotels), parameter geoId, reference $var5.geoId$: no earlier step or memory item is labelled var5',
];

/** A repair of `broken` as the optimiser reports it (edits index the input steps). */
const repair: RepairResult = {
  determination: false,
  status: 'repaired',
  sequence: [
    broken[0],
    broken[1],
    {
      name: 'FlightSearch',
      arguments: { originSkyId: '$var1.skyId$', destinationSkyId: '$var2.skyId$', date: '2024-08-15' },
      label: 'var3',
    },
    { name: 'ask', arguments: { slot: 'query' }, label: 'query' },
    { name: 'SearchLocation', arguments: { query: '$query$' }, label: 'var5' },
    broken[3],
    broken[4],
  ],
  edits: [
    {
      kind: 'renameParam',
      step: 2,
      param: 'originalSkyId',
      from: 'originalSkyId',
      to: 'originSkyId',
      cost: 1.2,
      detail: 'keep the value',
    },
    {
      kind: 'reassign',
      step: 2,
      param: 'destinationSkyId',
      from: '$var2.skyid$',
      to: '$var2.skyId$',
      cost: 0.5,
      detail: 'closest field',
    },
    { kind: 'insertCall', step: 3, to: 'SearchLocation', cost: 3, detail: 'produces geoId' },
    { kind: 'slotFill', step: 3, param: 'query', cost: 2, detail: 'input of the inserted call' },
  ],
  cost: 6.7,
  optimal: true,
  issues: validate(broken, catalog).issues,
  diff: '',
  solver: 'highs',
  timeMs: 1,
};

describe('feedback formats on a concrete sequence', () => {
  it('lists the formats', () => {
    expect(FEEDBACK_FORMATS).toEqual(['verdict', 'issues', 'suggestions', 'explain', 'trace']);
    expect(isFeedbackFormat('trace')).toBe(true);
    expect(isFeedbackFormat('diff')).toBe(false);
  });

  it('verdict', () => {
    expect(feedback('verdict', { sequence: broken, catalog })).toBe('verdict: not valid');
    expect(feedback('verdict', { sequence: gold, catalog })).toBe('verdict: valid');
  });

  it('issues', () => {
    expect(feedback('issues', { sequence: broken, catalog })).toBe(ISSUES.join('\n'));
    expect(feedback('issues', { sequence: gold, catalog })).toBe('valid: 0 errors, 0 warnings');
  });

  it('suggestions: issues plus the repair, the corrected calls, the slot-fills and the added calls', () => {
    expect(feedback('suggestions', { sequence: broken, catalog, repair })).toBe(
      [
        ...ISSUES,
        'possible fixes (cost 6.7, optimal):',
        '- step 3: renameParam originalSkyId -> originSkyId (cost 1.2): keep the value',
        '- step 3: reassign destinationSkyId $var2.skyid$ -> $var2.skyId$ (cost 0.5): closest field',
        '- step 4: insertCall SearchLocation (cost 3): produces geoId',
        '- step 4: slotFill query (cost 2): input of the inserted call',
        'corrected calls:',
        '  var3 = FlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", date="2024-08-15")',
        'ask the user:',
        '  query: ask(query)',
        'calls to add:',
        '  var5 = SearchLocation(query="$query$")',
        'repaired sequence:',
        '  var1 = SearchAirport(query="New York")',
        '  var2 = SearchAirport(query="London")',
        '  var3 = FlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", date="2024-08-15")',
        '  query = ask(slot="query")',
        '  var5 = SearchLocation(query="$query$")',
        '  var4 = SearchHotels(geoId="$var5.geoId$", checkIn="2024-08-15")',
        '  var_result(flights="$var3$", hotels="$var4$")',
      ].join('\n'),
    );
    expect(feedback('suggestions', { sequence: broken, catalog })).toBe(
      [...ISSUES, 'no repair available'].join('\n'),
    );
  });

  it('explain: what each call consumes, from where, and what it produces', () => {
    expect(feedback('explain', { sequence: broken, catalog })).toBe(
      [
        'step 1 (var1 = SearchAirport)',
        '  consumes query: literal "New York"',
        '  produces var1.{skyId, entityId, presentation}',
        'step 2 (var2 = SearchAirport)',
        '  consumes query: literal "London"',
        '  produces var2.{skyId, entityId, presentation}',
        'step 3 (var3 = FlightSearch)',
        '  consumes originalSkyId: $var1.skyId$ from step 1 (var1 = SearchAirport), field skyId (not a parameter of FlightSearch)',
        '  consumes destinationSkyId: $var2.skyid$ from step 2 (var2 = SearchAirport), field skyid (not an output of SearchAirport)',
        '  consumes date: literal "2024-08-15"',
        '  misses originSkyId (required, not passed)',
        '  produces var3.{flightId, price}',
        'step 4 (var4 = SearchHotels)',
        '  consumes geoId: $var5.geoId$ from nowhere: no earlier step or memory item is labelled var5',
        '  consumes checkIn: literal "2024-08-15"',
        '  produces var4.{id, title}',
        'step 5 (var_result): the answer',
        '  consumes flights: $var3$ from step 3 (var3 = FlightSearch), whole output',
        '  consumes hotels: $var4$ from step 4 (var4 = SearchHotels), whole output',
      ].join('\n'),
    );
  });

  it('explain: memory, text around references, forward references, unknown APIs, no label', () => {
    const sequence: Sequence = [
      { name: 'SearchHotels', arguments: { geoId: '$loc.geoId$', checkIn: 'on $var2.name$ day' } },
      { name: 'SearchLocation', arguments: { query: '$loc.city$' }, label: 'var2' },
      { name: 'BookHotel', arguments: {}, label: 'var3' },
    ];
    const memory = { loc: { geoId: 'g1' } };
    expect(feedback('explain', { sequence, catalog, memory })).toBe(
      [
        'memory: loc.{geoId}',
        'step 1 (SearchHotels)',
        '  consumes geoId: $loc.geoId$ from memory item loc, field geoId',
        '  consumes checkIn: text "on $var2.name$ day" with $var2.name$ from step 2 (var2 = SearchLocation), which is not run yet (unavailable)',
        '  produces an output without a label (later calls cannot use it)',
        'step 2 (var2 = SearchLocation)',
        '  consumes query: $loc.city$ from memory item loc, field city (not in memory)',
        '  produces var2.{geoId, name}',
        'step 3 (var3 = BookHotel): unknown API',
        '  produces var3 with unknown fields (unknown API)',
      ].join('\n'),
    );
  });

  it('trace: the memory after each step', () => {
    const sequence: Sequence = [...broken.slice(0, 2), { ...broken[1], label: 'var1' }, broken[4]];
    expect(feedback('trace', { sequence, catalog, memory: { loc: { geoId: 'g1' } } })).toBe(
      [
        'memory at start: loc.{geoId}',
        'after step 1 (var1 = SearchAirport): adds var1.{skyId, entityId, presentation}; labels loc, var1',
        'after step 2 (var2 = SearchAirport): adds var2.{skyId, entityId, presentation}; labels loc, var1, var2',
        'after step 3 (var1 = SearchAirport): replaces var1.{skyId, entityId, presentation}; labels loc, var1, var2',
        'after step 4 (var_result): the answer, stores nothing; labels loc, var1, var2',
      ].join('\n'),
    );
  });

  it('is deterministic', () => {
    for (const f of FEEDBACK_FORMATS) {
      expect(feedback(f, { sequence: broken, catalog, repair })).toBe(
        feedback(f, { sequence: broken, catalog, repair }),
      );
    }
  });

  it("suggestions with the optimiser's own repair of a corrupted NESTFUL sequence", async () => {
    const text = await feedbackFor('suggestions', nestful.broken, nestful.catalog);
    const lines = text.split('\n');
    expect(lines[0]).toBe('not valid: 3 errors, 0 warnings');
    expect(lines[4]).toMatch(/^possible fixes \(cost [\d.]+, optimal\):$/);
    expect(lines[5]).toMatch(/^- step 3: renameParam originalSkyId -> originSkyId \(cost [\d.]+\): /);
    expect(lines[6]).toMatch(
      /^- step 3: reassign destinationSkyId \$var2\.skyid\$ -> \$var2\.skyId\$ \(cost [\d.]+\): /,
    );
    expect(lines.slice(7, 9)).toEqual([
      'corrected calls:',
      '  var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15", returnDate="2024-08-18")',
    ]);
    expect(lines[9]).toBe('repaired sequence:');
  });
});
