/** Shared fixtures for the tests: the NESTFUL catalogs and the first gold sequence of EXAMPLES. */
import { loadCatalog } from '../src/read/catalog.ts';
import { formatStringForm, parseStringForm } from '../src/read/sequence.ts';
import type { Mapping, Sequence } from '../src/model/types.ts';

export const executable = loadCatalog('data/nestful/executable-spec.json');

export const GOLD = `var1 = SkyScrapperSearchAirport(query="New York")
var2 = SkyScrapperSearchAirport(query="London")
var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15")
var4 = TripadvisorSearchLocation(query="London")
var5 = TripadvisorSearchHotels(geoId="$var4.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")
var_result(flights="$var3$", hotels="$var5$")`;

export const AIRPORT_MAPPINGS: Mapping[] = [
  { from: 'skyId', to: 'originSkyId', score: 1 },
  { from: 'skyId', to: 'destinationSkyId', score: 1 },
  { from: 'entityId', to: 'originEntityId', score: 1 },
  { from: 'entityId', to: 'destinationEntityId', score: 1 },
];

/** Replaces exactly one occurrence (a typo in a test's corruption should fail loudly). */
export function corrupt(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`corrupt: ${from} must occur once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

export const seq = (text: string): Sequence => parseStringForm(text);
export const text = (s: Sequence): string => formatStringForm(s);

/** The catalog of a habit that returns ids as `ref` and takes them as `<entity>_ref` (`artst_ref`). */
export const TERSE_REFS_SPEC = 'test/cases/catalogs/terse-refs-spec.json';

/** A labelled record over that catalog: a lost artist search (`missing_producer`), input and gold as text. */
export const terseRecord = (id: string, input: string, gold: string) => ({
  id,
  kind: 'missing_producer',
  set: 'terse',
  catalog: loadCatalog(TERSE_REFS_SPEC),
  sequence: seq(input),
  gold: seq(gold),
});
