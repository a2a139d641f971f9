/**
 * Mapping tables for an evaluation: none, computed from each record's catalog, the shipped tables of the
 * NESTFUL sets (`models/mappings/<set>.json`: computed merged with pairs learned from the gold data, so
 * scores on those sets are optimistic with them), or one mapping file for every record.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { loadMappings } from '../../src/read/mappings.ts';
import { MODELS_DIR } from '../../src/read/cost-models.ts';
import type { Catalog, Mapping } from '../../src/model/types.ts';
import { computeMappings } from '../../src/catalog/computed-mappings.ts';
import { SET_NAMES } from '../bench/data.ts';
import type { LabelledRecord } from './dataset.ts';

export const MAPPING_SOURCES = ['none', 'computed', 'shipped'] as const;
export type MappingSource = (typeof MAPPING_SOURCES)[number];

type Picker = (record: LabelledRecord) => readonly Mapping[];

/**
 * A per-record table picker for `EvalOptions.mappingsFor` from `--mappings`: a source name or a mapping
 * file. Tables are built once per catalog (computed) or per set (shipped).
 */
export function mappingsFor(source: string): Picker | undefined {
  if (source === 'none') return undefined;
  if (source === 'computed') {
    const tables = new WeakMap<Catalog, readonly Mapping[]>();
    return (record) => {
      let table = tables.get(record.catalog);
      if (!table) tables.set(record.catalog, (table = computeMappings(record.catalog)));
      return table;
    };
  }
  if (source === 'shipped') {
    const tables = new Map<string, readonly Mapping[]>();
    return (record) => {
      let table = tables.get(record.set);
      if (!table) {
        if (!(SET_NAMES as readonly string[]).includes(record.set))
          throw new InputError(
            '--mappings',
            `no shipped table for set ${JSON.stringify(record.set)} (shipped: ${SET_NAMES.join(', ')}); ` +
              'use computed or a mapping file',
          );
        tables.set(record.set, (table = loadMappings(join(MODELS_DIR, 'mappings', `${record.set}.json`))));
      }
      return table;
    };
  }
  if (!existsSync(source))
    throw new InputError(
      '--mappings',
      `expected ${MAPPING_SOURCES.join(', ')} or a mapping file, received ${JSON.stringify(source)}`,
    );
  const table = loadMappings(source);
  return () => table;
}
