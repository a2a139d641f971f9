import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { parseRecords } from '../src/read/records.ts';
import type { Sequence } from '../src/model/types.ts';
import { computeMappings, scorePairs } from '../src/catalog/computed-mappings.ts';
import { learnedScore, learnPairs, mergeMappings } from '../src/mappings/learn.ts';
import { nameTerms, stem, textTerms } from '../src/catalog/text.ts';
import { normalisePath, stepReferences } from '../src/read/references.ts';
import { executable, seq } from './helpers.ts';

const corpus = (file: string): Sequence[] =>
  parseRecords(readFileSync(file, 'utf8')).map((r) => {
    if (!r.sequence) throw new Error(`record ${r.id}: ${r.error}`);
    return r.sequence;
  });
const executableData = corpus('data/nestful/executable-data.json');
const pairsOf = (list: readonly { from: string; to: string }[]) => list.map((m) => `${m.from} -> ${m.to}`);

/** A small hand-made catalog: airport codes feed a booking, whose id feeds a cancellation. */
const tiny = parseCatalog([
  {
    name: 'find_airport',
    description: 'Find an airport by city',
    query_parameters: { query: { type: 'string', description: 'Name of the city', required: true } },
    output_parameters: {
      airportCode: { type: 'string', description: 'IATA code of the airport' },
      city: { type: 'string', description: 'City of the airport' },
    },
  },
  {
    name: 'book_flight',
    description: 'Book a flight',
    query_parameters: {
      originAirportCode: {
        type: 'string',
        description: 'The airportCode of the origin, from find_airport',
        required: true,
      },
      destinationAirportCode: {
        type: 'string',
        description: 'The airportCode of the destination',
        required: true,
      },
      passengers: { type: 'integer', description: 'Number of passengers' },
    },
    output_parameters: {
      bookingId: { type: 'string', description: 'Reference of the booking' },
      price: { type: 'number', description: 'Total price of the flight' },
    },
  },
  {
    name: 'cancel_booking',
    description: 'Cancel a booking',
    query_parameters: {
      booking_id: { type: 'string', description: 'Reference of the booking to cancel', required: true },
    },
    output_parameters: { refund: { type: 'number', description: 'Refunded amount' } },
  },
]);

describe('terms', () => {
  it('splits names into stemmed words, keeping in/out and from/to', () => {
    expect(nameTerms('username_or_id_or_url')).toEqual(['username', 'id', 'url']);
    expect(nameTerms('check_in_date')).toEqual(['check', 'in', 'date']);
    expect(nameTerms('From_Currency Code')).toEqual(['from', 'currency', 'code']);
    expect(textTerms('The originSkyId code of airports.')).toEqual([
      'origin',
      'sky',
      'id',
      'code',
      'airport',
    ]);
    expect([stem('cities'), stem('status'), stem('class'), stem('ids')]).toEqual([
      'city',
      'status',
      'class',
      'ids',
    ]);
  });
});

describe('computed mappings', () => {
  it('finds the pairs of a small catalog, and only those', () => {
    expect(computeMappings(tiny)).toEqual([
      { from: 'bookingId', to: 'booking_id', score: 0.897 },
      { from: 'airportCode', to: 'destinationAirportCode', score: 0.78 },
      { from: 'airportCode', to: 'originAirportCode', score: 0.777 },
    ]);
  });

  it('honours the threshold and the top k per input', () => {
    expect(pairsOf(computeMappings(tiny, { threshold: 0.8 }))).toEqual(['bookingId -> booking_id']);
    // Unrelated fields of the same catalog stay far below the threshold.
    const tinyPairs = scorePairs(tiny);
    expect(tinyPairs.find((p) => p.from === 'refund' && p.to === 'passengers')).toBeUndefined();
    expect(tinyPairs.find((p) => p.from === 'city' && p.to === 'originAirportCode')?.score).toBeLessThan(0.2);
    const all = computeMappings(executable, { threshold: 0.3, top: 1 });
    expect(new Set(all.map((m) => m.to)).size).toBe(all.length);
  });

  const pairs = scorePairs(executable);
  const score = (from: string, to: string) => pairs.find((p) => p.from === from && p.to === to)?.score ?? 0;

  it('scores the airport and location pairs of NESTFUL high', () => {
    expect(score('skyId', 'originSkyId')).toBe(0.915);
    expect(score('skyId', 'destinationSkyId')).toBe(0.917);
    expect(score('entityId', 'originEntityId')).toBe(0.89);
    expect(score('entityId', 'destinationEntityId')).toBe(0.892);
    expect(score('geoId', 'locationId')).toBe(0.636);
    // Found from the input's description alone: "location geoId of a place".
    expect(pairs.find((p) => p.from === 'geoId' && p.to === 'locationId')).toMatchObject({
      fromApi: 'TripadvisorSearchLocation',
      toApi: 'TripadvisorSearchRestaurants',
      mention: true,
    });
  });

  it('scores unrelated pairs and crossed siblings low', () => {
    for (const [from, to] of [
      ['flightId', 'query'],
      ['title', 'geoId'],
      ['score', 'limit'],
      ['skyId', 'checkIn'],
      ['minPrice', 'adults'],
      ['username', 'originSkyId'],
    ]) {
      expect(score(from, to), `${from} -> ${to}`).toBe(0);
    }
    expect(score('entityId', 'originSkyId')).toBeLessThan(0.15);
    expect(score('skyId', 'originEntityId')).toBeLessThan(0.15);
    // Of 44,536 candidate pairs (different names, different APIs), 3,398 share anything at all, 238 score
    // 0.2 or more and 39 reach the default threshold.
    expect([
      pairs.length,
      pairs.filter((p) => p.score >= 0.2).length,
      pairs.filter((p) => p.score >= 0.6).length,
    ]).toEqual([3398, 238, 39]);
  });

  it('is deterministic and sorted by target, best first', () => {
    const a = computeMappings(executable);
    expect(a).toHaveLength(37);
    expect(computeMappings(executable)).toEqual(a);
    const sorted = [...a].sort((x, y) => (x.to < y.to ? -1 : x.to > y.to ? 1 : y.score - x.score));
    expect(a).toEqual(sorted);
  });
});

describe('learned mappings', () => {
  const learned = learnPairs(executableData, executable);

  it('counts 102 references in 17 distinct pairs on NESTFUL executable', () => {
    expect(learned.occurrences).toBe(102);
    expect(learned.pairs).toHaveLength(17);
    const count = (from: string, to: string) =>
      learned.pairs.find((p) => p.from === from && p.to === to)?.count;
    expect(count('short_name', 'location')).toBe(22);
    expect(count('artist_id', 'artistId')).toBe(17);
    expect(count('name', 'q')).toBe(10);
    expect(count('skyId', 'originSkyId')).toBe(7);
    expect(count('Exchange Rate', 'numbers')).toBe(5);
    expect(count('geoId', 'locationId')).toBe(1);
    // `$var1.location.locationId$` feeding `locationId` is no mapping: the leaf is the parameter's name.
    expect(count('location.locationId', 'locationId')).toBeUndefined();
  });

  it('counts 94 whole-string references in 14 pairs without those inside longer strings', () => {
    const whole = learnPairs(executableData, executable, { inStrings: false });
    expect([whole.occurrences, whole.pairs.length]).toEqual([94, 14]);
  });

  it('reproduces 111 / 20 only when counting full paths once per argument', () => {
    // That reading keys on the whole path (`location.name -> q`, and `company.cik -> cik`, which the
    // compiler needs no mapping for) and counts `"$var1.localtime$ - $var2.localtime$"` once.
    const counts = new Map<string, number>();
    for (const sequence of executableData) {
      for (const step of sequence) {
        if (step.name === 'var_result') continue;
        const pairs = new Set<string>();
        for (const site of stepReferences(step.arguments)) {
          const path = normalisePath(site.ref.path);
          if (path !== '' && path !== site.param) pairs.add(`${path} -> ${site.param}`);
        }
        for (const p of pairs) counts.set(p, (counts.get(p) ?? 0) + 1);
      }
    }
    expect([[...counts.values()].reduce((a, b) => a + b, 0), counts.size]).toEqual([111, 20]);
  });

  it('skips the answer step, whole outputs, unknown APIs and parameters the API does not take', () => {
    const sequence = seq(`var1 = SkyScrapperSearchAirport(query="Rome")
var2 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", madeUp="$var1.entityId$", date="$var1$")
var3 = NoSuchApi(originSkyId="$var1.entityId$")
var_result(answer="$var2.flightId$")`);
    expect(learnPairs([sequence], executable)).toEqual({
      pairs: [{ from: 'skyId', to: 'originSkyId', count: 1, score: 0.9 }],
      occurrences: 1,
    });
  });

  it('learns nothing from SGD, whose references all keep their names', () => {
    const sgd = parseCatalog(JSON.parse(readFileSync('data/nestful/non-executable-sgd-spec.json', 'utf8')));
    const learnedSgd = learnPairs(corpus('data/nestful/non-executable-sgd-data.json'), sgd);
    expect([learnedSgd.occurrences, learnedSgd.pairs.length]).toEqual([0, 0]);
  });

  it('scores by frequency, never below 0.9', () => {
    expect([1, 2, 7, 22].map(learnedScore)).toEqual([0.9, 0.95, 0.986, 0.995]);
  });

  it('recovers 8 of the 17 learned pairs by computation alone', () => {
    const computed = new Set(pairsOf(computeMappings(executable)));
    expect(pairsOf(learned.pairs).filter((p) => computed.has(p))).toEqual([
      'artist_id -> artistId',
      'id -> authorID',
      'entityId -> destinationEntityId',
      'skyId -> destinationSkyId',
      'geoId -> locationId',
      'entityId -> originEntityId',
      'skyId -> originSkyId',
      'username -> username_or_id_or_url',
    ]);
  });
});

describe('mergeMappings', () => {
  it('keeps the highest score of a repeated pair and groups by target', () => {
    expect(
      mergeMappings(
        [
          { from: 'b', to: 'y', score: 0.7 },
          { from: 'a', to: 'x', score: 0.6 },
        ],
        [
          { from: 'a', to: 'x', score: 0.9 },
          { from: 'c', to: 'x', score: 0.95 },
          { from: 'b', to: 'y', score: 0.5 },
        ],
      ),
    ).toEqual([
      { from: 'c', to: 'x', score: 0.95 },
      { from: 'a', to: 'x', score: 0.9 },
      { from: 'b', to: 'y', score: 0.7 },
    ]);
  });
});
