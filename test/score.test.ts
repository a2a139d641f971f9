import { describe, expect, it } from 'vitest';
import {
  asksPerRepair,
  mergeScoreSummaries,
  scoreRepair,
  summariseVerdicts,
  type RepairVerdict,
} from '../src/index.ts';
import { alignCalls, matchModuloAsks } from '../src/score/index.ts';
import { readFileSync } from 'node:fs';
import { corrupt, GOLD, seq } from './helpers.ts';

const gold = seq(GOLD);
const judge = (input: string, repaired: string | null, goldText = GOLD): RepairVerdict =>
  scoreRepair({ input: seq(input), gold: seq(goldText), repaired: repaired === null ? null : seq(repaired) });

const NO_NEW_YORK = corrupt(GOLD, 'var1 = SkyScrapperSearchAirport(query="New York")\n', '');
const NO_LONDON_AIRPORT = corrupt(GOLD, 'var2 = SkyScrapperSearchAirport(query="London")\n', '');

describe('restored', () => {
  it('counts the gold under other labels and another order, not a different wiring', () => {
    const relabelled = `a = TripadvisorSearchLocation(query="London")
b = SkyScrapperSearchAirport(query="London")
c = SkyScrapperSearchAirport(query="New York")
d = SkyScrapperFlightSearch(originSkyId="$c.skyId$", destinationSkyId="$b.skyId$", originEntityId="$c.entityId$", destinationEntityId="$b.entityId$", date="2024-08-15")
e = TripadvisorSearchHotels(geoId="$a.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")
var_result(flights="$d$", hotels="$e$")`;
    const v = judge(NO_NEW_YORK, relabelled);
    expect([v.restored, v.restoredModuloAsks, v.asks, v.roleCollapses, v.droppedCalls]).toEqual([
      true,
      true,
      0,
      0,
      0,
    ]);
    const swapped = corrupt(GOLD, 'originSkyId="$var1.skyId$"', 'originSkyId="$var1.entityId$"');
    expect(judge(NO_NEW_YORK, swapped).restored).toBe(false);
    expect(judge(NO_NEW_YORK, swapped).restoredModuloAsks).toBe(false);
  });

  it('modulo unknowns, a repair may leave out an argument whose gold literal the input does not hold', () => {
    // The gold's hotel search (deleted) also passed an optional sort order that appears nowhere else.
    const goldText = corrupt(GOLD, 'checkOut="2024-08-18")', 'checkOut="2024-08-18", sort="price")');
    const hotels = goldText.split('\n').find((line) => line.startsWith('var5 = '))!;
    const input = corrupt(goldText, `${hotels}\n`, '');
    const without = corrupt(goldText, ', sort="price"', '');
    const v = judge(input, without, goldText);
    expect([v.restored, v.restoredModuloAsks, v.restoredModuloUnknowns]).toEqual([false, false, true]);
    // Leaving out a literal the input holds ("2024-08-18" is the flight's return date there) is a loss.
    const inputWithDate = corrupt(input, 'date="2024-08-15")', 'date="2024-08-15", returnDate="2024-08-18")');
    const goldWithDate = corrupt(
      goldText,
      'date="2024-08-15")',
      'date="2024-08-15", returnDate="2024-08-18")',
    );
    const noCheckOut = corrupt(corrupt(goldWithDate, ', sort="price"', ''), ', checkOut="2024-08-18"', '');
    const w = judge(inputWithDate, noCheckOut, goldWithDate);
    expect([w.restoredModuloAsks, w.restoredModuloUnknowns]).toEqual([false, false]);
    // A wrong value is no omission.
    const wrong = corrupt(goldText, 'sort="price"', 'sort="rating"');
    expect(judge(input, wrong, goldText).restoredModuloUnknowns).toBe(false);
  });

  it('an unanswered repair restores nothing', () => {
    const v = judge(NO_NEW_YORK, null);
    expect([v.answered, v.restored, v.restoredModuloAsks, v.asks]).toEqual([false, false, false, 0]);
  });
});

describe('role collapse', () => {
  // The deleted New York search replaced by re-pointing the origin at London: a flight London → London.
  const londonToLondon = corrupt(
    corrupt(NO_NEW_YORK, 'originSkyId="$var1.skyId$"', 'originSkyId="$var2.skyId$"'),
    'originEntityId="$var1.entityId$"',
    'originEntityId="$var2.entityId$"',
  );

  it('counts the parameter pairs that the gold fed from two outputs and the repair from one', () => {
    const v = judge(NO_NEW_YORK, londonToLondon);
    // origin/destination × skyId/entityId: four pairs kept apart by the gold; the two pairs of one airport
    // (originSkyId + originEntityId from var1) share a source in the gold too and do not count.
    expect(v.roleCollapses).toBe(4);
    expect(v.restored).toBe(false);
    expect(v.restoredModuloAsks).toBe(false);
  });

  it('does not count a shared source the gold shares as well', () => {
    expect(judge(NO_NEW_YORK, GOLD).roleCollapses).toBe(0);
    const oneAirport = `var1 = A(q="x")
var2 = Flight(from="$var1.id$", to="$var1.id$")`;
    expect(judge(oneAirport, oneAirport, oneAirport).roleCollapses).toBe(0);
  });

  it('counts one memory item feeding two roles the gold fed from two items', () => {
    const goldText = 'var1 = Flight(from="$home.id$", to="$away.id$")';
    expect(
      judge('var1 = Flight(from="$home.id$")', 'var1 = Flight(from="$home.id$", to="$home.id$")', goldText)
        .roleCollapses,
    ).toBe(1);
  });
});

describe('asks', () => {
  it('an ask for a literal nowhere in the input is fair: restored modulo asks', () => {
    const repaired = `query = ask(slot="query")
var1 = SkyScrapperSearchAirport(query="$query$")
${NO_NEW_YORK}`;
    const v = judge(NO_NEW_YORK, repaired);
    expect(v.restored).toBe(false);
    expect(v.restoredModuloAsks).toBe(true);
    expect([v.asks, v.asksForUnknownLiterals, v.duplicateAsks]).toEqual([1, 1, 0]);
    expect(matchModuloAsks(seq(repaired), gold, seq(NO_NEW_YORK))).toEqual(
      new Map([['query', '"New York"']]),
    );
  });

  it('an ask for a literal the input holds is not: London is passed to the hotel search', () => {
    const repaired = `query = ask(slot="query")
var2 = SkyScrapperSearchAirport(query="$query$")
${NO_LONDON_AIRPORT}`;
    const v = judge(NO_LONDON_AIRPORT, repaired);
    expect(v.restoredModuloAsks).toBe(false);
    expect([v.asks, v.asksForKnownLiterals]).toEqual([1, 1]);
  });

  it('an ask for an opaque id the gold computes is not fair', () => {
    const input = corrupt(GOLD, 'var4 = TripadvisorSearchLocation(query="London")\n', '');
    const repaired = corrupt(input, 'geoId="$var4.geoId$"', 'geoId="$geoId$"').replace(
      'var5 =',
      'geoId = ask(slot="geoId")\nvar5 =',
    );
    const v = judge(input, repaired);
    expect(v.restoredModuloAsks).toBe(false);
    expect([v.asks, v.asksForComputedValues, v.asksForUnknownLiterals]).toEqual([1, 1, 0]);
    expect(v.askReadings[0]).toMatchObject({ label: 'geoId', slot: 'geoId', meaning: 'computed' });
  });

  const twoConsumers = `var1 = Find(q="x")
var2 = B(id="$var1.id$")
var3 = C(id="$var1.id$", day="2024-01-01")
var4 = D(day="2024-01-01")`;
  const lostFind = `var2 = B(id="$var1.id$")
var3 = C(id="$var1.id$", day="2024-01-01")
var4 = D(day="2024-01-01")`;

  it('two asks for one lost output are one question asked twice', () => {
    const repaired = `id = ask(slot="id")
var2 = B(id="$id$")
id_2 = ask(slot="id")
var3 = C(id="$id_2$", day="2024-01-01")
var4 = D(day="2024-01-01")`;
    const v = judge(lostFind, repaired, twoConsumers);
    expect([v.asks, v.duplicateAsks, v.asksForComputedValues, v.droppedCalls]).toEqual([2, 1, 2, 0]);
    const shared = `id = ask(slot="id")
var2 = B(id="$id$")
var3 = C(id="$id$", day="2024-01-01")
var4 = D(day="2024-01-01")`;
    expect(judge(lostFind, shared, twoConsumers).duplicateAsks).toBe(0);
  });

  it('two asks for one unknown literal are duplicates though each is fair', () => {
    const input = 'var1 = C(id="k")\nvar2 = D()';
    const goldText = 'var1 = C(id="k", day="2024-01-01")\nvar2 = D(day="2024-01-01")';
    const repaired = `day = ask(slot="day")
var1 = C(id="k", day="$day$")
day_2 = ask(slot="day")
var2 = D(day="$day_2$")`;
    const v = judge(input, repaired, goldText);
    expect([v.restoredModuloAsks, v.asksForUnknownLiterals, v.duplicateAsks]).toEqual([true, 2, 1]);
  });

  it('asks for two slots whose gold literals coincide are two questions, not a duplicate', () => {
    const goldText = 'var1 = H(check_in="2025-05-20", check_out="2025-05-20")';
    const repaired = `check_in = ask(slot="check_in")
check_out = ask(slot="check_out")
var1 = H(check_in="$check_in$", check_out="$check_out$")`;
    const v = judge('var1 = H()', repaired, goldText);
    expect([v.restoredModuloAsks, v.asksForUnknownLiterals, v.duplicateAsks]).toEqual([true, 2, 0]);
  });

  it('one ask cannot stand for two different gold values', () => {
    const goldText = 'var1 = C(a="p", b="q")';
    const repaired = 'v = ask(slot="a")\nvar1 = C(a="$v$", b="$v$")';
    expect(judge('var1 = C()', repaired, goldText).restoredModuloAsks).toBe(false);
    const two = 'v = ask(slot="a")\nw = ask(slot="b")\nvar1 = C(a="$v$", b="$w$")';
    expect(judge('var1 = C()', two, goldText).restoredModuloAsks).toBe(true);
  });
});

describe('sibling copies, lost literals, dropped calls', () => {
  const noQuery = corrupt(GOLD, 'SkyScrapperSearchAirport(query="London")', 'SkyScrapperSearchAirport()');

  it('a call given the literal another call of its API passes is a sibling copy', () => {
    const copied = corrupt(
      GOLD,
      'SkyScrapperSearchAirport(query="London")',
      'SkyScrapperSearchAirport(query="New York")',
    );
    const v = judge(noQuery, copied);
    expect([v.siblingCopies, v.restored, v.lostLiterals]).toEqual([1, false, 0]);
    expect(judge(noQuery, GOLD).siblingCopies).toBe(0);
  });

  it('counts literals the input and the gold share that the repair lost', () => {
    const dropped = corrupt(GOLD, ', date="2024-08-15")', ')');
    expect(judge(GOLD, dropped).lostLiterals).toBe(1);
    expect(judge(noQuery, GOLD).lostLiterals).toBe(0);
  });

  it('counts calls of the input that the repair no longer has, also under a misspelt name', () => {
    const withoutHotels = GOLD.replace(/var5 = .*\n/, '').replace(', hotels="$var5$"', '');
    expect(judge(GOLD, withoutHotels).droppedCalls).toBe(1);
    const misspelt = corrupt(GOLD, 'TripadvisorSearchHotels(', 'TripAdvisorHotelz(');
    expect(judge(misspelt, withoutHotels).droppedCalls).toBe(1);
    expect(judge(misspelt, GOLD).droppedCalls).toBe(0);
  });
});

describe('alignment and summaries', () => {
  it('pairs calls of one API by their arguments, not their position', () => {
    const a = seq('x = S(q="London")\ny = S(q="New York")');
    const b = seq('var1 = S(q="New York")\nvar2 = S(q="London")');
    expect([...alignCalls(a, b)]).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('adds verdicts up; parts merge to the whole', () => {
    const verdicts = [
      judge(NO_NEW_YORK, GOLD),
      judge(NO_NEW_YORK, null),
      judge(
        NO_NEW_YORK,
        `query = ask(slot="query")\nvar1 = SkyScrapperSearchAirport(query="$query$")\n${NO_NEW_YORK}`,
      ),
    ];
    const whole = summariseVerdicts(verdicts);
    expect(whole).toMatchObject({
      n: 3,
      answered: 2,
      restored: 1,
      restoredModuloAsks: 2,
      asks: 1,
      unfairAsks: 0,
    });
    expect(asksPerRepair(whole)).toBe(0.5);
    expect(
      mergeScoreSummaries([summariseVerdicts(verdicts.slice(0, 1)), summariseVerdicts(verdicts.slice(1))]),
    ).toEqual(whole);
  });
});

describe('docs/scoring.md', () => {
  const doc = readFileSync('docs/scoring.md', 'utf8');
  const blocks = [...doc.matchAll(/```(\w*)\n([\s\S]*?)\n```/g)];
  const plain = blocks.filter((m) => m[1] === '').map((m) => seq(m[2]));

  it('shows the verdict scoreRepair gives for its example', () => {
    const [goldPlan, repaired] = plain;
    const input = goldPlan.slice(1);
    const verdict = scoreRepair({ input, gold: goldPlan, repaired });
    const shown = blocks.find((m) => m[1] === 'json')![2];
    expect(JSON.parse(shown)).toEqual(JSON.parse(JSON.stringify(verdict)));
    // The fair alternative the page describes.
    const fair = [
      { name: 'ask', arguments: { slot: 'query' }, label: 'query' },
      { ...goldPlan[0], arguments: { query: '$query$' } },
      ...goldPlan.slice(1),
    ];
    expect(scoreRepair({ input, gold: goldPlan, repaired: fair }).restoredModuloAsks).toBe(true);
  });
});

describe('executed calls', () => {
  it('count as knowable: an ask for a literal an executed call passed is no fair question', () => {
    const executed = seq('var1 = NewsAPISearchByKeyWord(query="economy", region="US")');
    const input = seq('var2 = RedditTopPostsBySubreddit(time="month")');
    const goldRest = seq('var2 = RedditTopPostsBySubreddit(subreddit="economy", time="month")');
    const asked = seq(
      'subreddit = ask(slot="subreddit")\nvar2 = RedditTopPostsBySubreddit(time="month", subreddit="$subreddit$")',
    );
    const alone = scoreRepair({ input, gold: goldRest, repaired: asked });
    expect([alone.restoredModuloAsks, alone.asksForUnknownLiterals]).toEqual([true, 1]);
    const run = scoreRepair({ input, gold: goldRest, repaired: asked, executed });
    expect([run.restoredModuloAsks, run.restoredModuloUnknowns, run.asksForKnownLiterals]).toEqual([
      false,
      false,
      1,
    ]);
    // The literal itself is restored either way.
    expect(scoreRepair({ input, gold: goldRest, repaired: goldRest, executed }).restored).toBe(true);
  });
});
