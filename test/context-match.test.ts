/**
 * Names in context: which field of which API stands for a parameter of another name, and which parameters
 * are parallel roles; and the repairs they make possible on catalogs with other naming habits.
 */
import { describe, expect, it } from 'vitest';
import type { ApiSpec, ParamSpec } from '../src/model/types.ts';
import { contextFields, contextProducers, describedAlike } from '../src/catalog/context-match.ts';
import { parallel } from '../src/compile/roles.ts';
import { loadCatalog } from '../src/read/catalog.ts';
import { repair } from '../src/repair/repair.ts';
import { executable, seq, text } from './helpers.ts';

const out = (path: string, description?: string) => ({ path, type: 'string' as const, description });
const param = (name: string, description?: string): ParamSpec => ({
  name,
  type: 'string',
  required: true,
  description,
});
const api = (name: string, outputs: ReturnType<typeof out>[]): ApiSpec => ({
  name,
  description: '',
  params: [param('query')],
  outputs,
});

describe('fields in context', () => {
  const searchArtist = api('search_artist', [out('results'), out('results[].id'), out('results[].name')]);
  const searchAirport = api('search_airport', [out('results'), out('results[].id')]);

  it('a one-word field whose producer names the rest: artist_id is the id of search_artist', () => {
    expect(contextFields('artist_id', searchArtist).map((c) => [c.field.path, c.kind])).toEqual([
      ['results[].id', 'entity'],
    ]);
    expect(contextFields('artist_id', searchAirport)).toEqual([]);
    // A role word first does not count: the account of `to_account_id`.
    const lookup = api('lookup_account', [out('results[].id')]);
    expect(contextFields('to_account_id', lookup)).toHaveLength(1);
  });

  it('a compound field that ends the parameter: entityId for destinationEntityId', () => {
    const airport = executable.apis.find((a) => a.name === 'SkyScrapperSearchAirport')!;
    const paths = contextFields('destinationEntityId', airport).map((c) => c.field.path);
    expect(paths[0]).toBe('entityId');
    expect(paths).toContain('navigation.entityId');
    expect(contextFields('destinationEntityId', airport).every((c) => c.kind === 'compound')).toBe(true);
  });

  it('the identifier of the entity a description names, not of one it is an attribute of', () => {
    const place = api('Search_Place', [
      out('the_unique_identifier_of_the_place'),
      out('the_district_of_the_place'),
    ]);
    expect(contextFields(param('start', 'Which place (start).'), place).map((c) => c.field.path)).toEqual([
      'the_unique_identifier_of_the_place',
    ]);
    expect(contextFields(param('address', 'The address of the place.'), place)).toEqual([]);
  });

  it('finds the producers through the words that end the parameter', () => {
    const catalog = { apis: [searchArtist, searchAirport] };
    expect(contextProducers(catalog, 'artist_id').map((a) => a.name)).toEqual(['search_artist']);
    expect(contextProducers(catalog, 'airport_id').map((a) => a.name)).toEqual(['search_airport']);
  });
});

describe('parallel roles', () => {
  it('by name: the same words after a role word', () => {
    expect(parallel('originSkyId', 'destinationSkyId')).toBe(true);
    expect(parallel('from_account_id', 'to_account_id')).toBe(true);
    expect(parallel('originSkyId', 'originEntityId')).toBe(false);
    expect(parallel('query', 'limit')).toBe(false);
  });

  it('by description: the same entity, other names', () => {
    expect(describedAlike(param('start', 'Which place (start).'), param('end', 'Which place (end).'))).toBe(
      true,
    );
    expect(describedAlike(param('start', 'Which place (start).'), param('mode', 'The travel mode.'))).toBe(
      false,
    );
  });
});

describe('repairs on catalogs with other naming habits', () => {
  const snake = loadCatalog('benchmarks/data/synthetic-snake-spec.json');
  const descriptive = loadCatalog('benchmarks/data/synthetic-descriptive-spec.json');

  it('a missing artist_id is wired from the artist search, not asked for', async () => {
    const r = await repair(
      seq(`var1 = search_artist(artist_name="Nina Simone")
var2 = list_albums()
var_result(albums="$var2$")`),
      snake,
    );
    expect(text(r.sequence)).toBe(`var1 = search_artist(artist_name="Nina Simone")
var2 = list_albums(artist_id="$var1.results[0].id$")
var_result(albums="$var2$")`);
  });

  it('a deleted search comes back as the API its consumer names, never another search with an id', async () => {
    const r = await repair(
      seq(`var2 = search_airport(query="Tokyo")
var3 = search_flights(origin_airport_id="$var1.results[0].id$", destination_airport_id="$var2.results[0].id$", departure_date="2025-03-14")
var_result(flights="$var3$")`),
      snake,
    );
    expect(r.sequence.filter((s) => s.label === 'var1').map((s) => s.name)).toEqual(['search_airport']);
  });

  it('the end of a route never takes the start place: start and end are described alike', async () => {
    const r = await repair(
      seq(`var1 = Search_Place(address="Harbor Bridge")
var3 = Get_Route(start="$var1.the_unique_identifier_of_the_place$")
var_result(route="$var3$")`),
      descriptive,
    );
    const route = r.sequence.find((s) => s.name === 'Get_Route')!;
    expect(route.arguments.end).not.toMatch(/^\$var1\./);
    expect(route.arguments.start).toBe('$var1.the_unique_identifier_of_the_place$');
  });
});
