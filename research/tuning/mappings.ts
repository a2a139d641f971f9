/**
 * Mapping tables for an evaluation, per NESTFUL set: none, computed from the catalog alone, or the shipped
 * tables (`models/mappings/<set>.json`: computed merged with pairs learned from the gold data, so scores
 * on those sets are optimistic with them).
 */
import { join } from 'node:path';
import { loadMappings } from '../../src/read/mappings.ts';
import type { SetName } from '../bench/data.ts';
import { MODELS_DIR } from '../../src/read/cost-models.ts';
import type { Mapping } from '../../src/model/types.ts';
import { computeMappings } from '../../src/catalog/computed-mappings.ts';
import type { LabelledRecord } from './dataset.ts';

export const MAPPING_SOURCES = ['none', 'computed', 'shipped'] as const;
export type MappingSource = (typeof MAPPING_SOURCES)[number];

/** A per-record table picker for `EvalOptions.mappingsFor` (tables built once per set). */
export function mappingsBySet(
  source: MappingSource,
): ((record: LabelledRecord) => readonly Mapping[]) | undefined {
  if (source === 'none') return undefined;
  const tables = new Map<SetName, readonly Mapping[]>();
  return (record) => {
    let table = tables.get(record.set);
    if (!table) {
      table =
        source === 'computed'
          ? computeMappings(record.catalog)
          : loadMappings(join(MODELS_DIR, 'mappings', `${record.set}.json`));
      tables.set(record.set, table);
    }
    return table;
  };
}
