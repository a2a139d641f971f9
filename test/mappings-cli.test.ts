import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadMappings } from '../src/read/mappings.ts';
import { parseRecords } from '../src/read/records.ts';
import { registerMaps } from '../src/cli/maps.ts';
import { buildMappings, formatMappings } from '../src/mappings/build.ts';
import { repair } from '../src/repair/repair.ts';
import { GOLD, corrupt, executable, seq, text } from './helpers.ts';
import { runCommands } from './cli-run.ts';

const run = (...args: string[]) => runCommands([registerMaps], args);

afterEach(() => vi.restoreAllMocks());

/** The shipped tables and the commands that made them (docs/mappings.md lists the same commands). */
const SHIPPED = [
  ['executable', 'data/nestful/executable-spec.json', 'data/nestful/executable-data.json'],
  ['glaive', 'data/nestful/non-executable-glaive-spec.json', 'data/nestful/non-executable-glaive-data.json'],
  ['sgd', 'data/nestful/non-executable-sgd-spec.json', 'data/nestful/non-executable-sgd-data.json'],
] as const;

const sequences = (file: string) => parseRecords(readFileSync(file, 'utf8')).map((r) => r.sequence!);
const tables = new Map<string, ReturnType<typeof buildMappings>>();
const tableOf = (spec: string, data: string) => {
  if (!tables.has(spec)) tables.set(spec, buildMappings(loadCatalog(spec), sequences(data)));
  return tables.get(spec)!;
};

describe('shipped mapping tables', () => {
  it.each(SHIPPED)('models/mappings/%s.json is what `refract maps` makes', (name, spec, data) => {
    const table = tableOf(spec, data);
    expect(readFileSync(`models/mappings/${name}.json`, 'utf8')).toBe(formatMappings(table.mappings));
  });

  it('sizes: computed + learned, merged', () => {
    const sizes = SHIPPED.map(([, spec, data]) => {
      const t = tableOf(spec, data);
      return [t.computed.length, t.learned.length, t.occurrences, t.mappings.length];
    });
    expect(sizes).toEqual([
      [37, 17, 102, 46],
      [8, 116, 176, 121],
      [25, 0, 0, 25],
    ]);
  });

  it('loads with loadMappings and repairs a missing originSkyId from var1 (EXAMPLES row 4)', async () => {
    const mappings = loadMappings('models/mappings/executable.json');
    expect(mappings).toContainEqual({ from: 'skyId', to: 'originSkyId', score: 0.986 });
    const broken = seq(corrupt(GOLD, 'originSkyId="$var1.skyId$", ', ''));
    const result = await repair(broken, executable, { mappings });
    expect(result.status).toBe('repaired');
    expect(text(result.sequence)).toContain('originSkyId="$var1.skyId$"');
    expect(result.edits.map((e) => e.kind)).toEqual(['newMap']);
  });
});

describe('refract maps', () => {
  it('prints the shipped executable table as JSON', async () => {
    const { out, code } = await run(
      'maps',
      '--catalog',
      'data/nestful/executable-spec.json',
      '--learn',
      'data/nestful/executable-data.json',
    );
    expect(code).toBe(0);
    expect(out).toBe(readFileSync('models/mappings/executable.json', 'utf8'));
  });

  it('lists sources in text, with threshold and top', async () => {
    const { out, code } = await run(
      'maps',
      '-c',
      'data/nestful/executable-spec.json',
      '--threshold',
      '0.88',
      '--top',
      '1',
      '--format',
      'text',
    );
    expect(code).toBe(0);
    expect(out).toBe(
      [
        '0.889  artist_id -> artistId  (computed)',
        '0.892  entityId -> destinationEntityId  (computed)',
        '0.917  skyId -> destinationSkyId  (computed)',
        '0.885  maxPrice -> max_price  (computed)',
        '0.887  minPrice -> min_price  (computed)',
        '0.890  entityId -> originEntityId  (computed)',
        '0.915  skyId -> originSkyId  (computed)',
        '0.898  is_verified -> verified  (computed)',
        '8 mappings: 8 computed, 0 learned (0 occurrences)',
        '',
      ].join('\n'),
    );
  });

  it('rejects bad flags with exit code 2, naming the flag', async () => {
    const bad = await run('maps', '-c', 'data/nestful/executable-spec.json', '--threshold', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--threshold');
    const none = await run('maps');
    expect(none.code).toBe(2);
    expect(none.err).toContain('--catalog');
    const top = await run('maps', '-c', 'data/nestful/executable-spec.json', '--top', 'x');
    expect(top.err).toContain('--top');
  });
});
