/**
 * A mapping table for a catalog: computed pairs merged with pairs learned from corpora, and its file
 * form (a JSON array, one mapping a line, that `loadMappings` reads back).
 */
import type { Catalog, Mapping, Sequence } from '../model/types.ts';
import { computeMappings, type ComputeOptions } from '../catalog/computed-mappings.ts';
import { learnPairs, mergeMappings, type LearnedPair, type LearnOptions } from './learn.ts';

export interface BuildOptions extends ComputeOptions, LearnOptions {}

export interface MappingTable {
  /** Computed and learned merged (highest score per pair), grouped by target. */
  readonly mappings: readonly Mapping[];
  readonly computed: readonly Mapping[];
  readonly learned: readonly LearnedPair[];
  /** Observations behind the learned pairs. */
  readonly occurrences: number;
}

export function buildMappings(
  catalog: Catalog,
  corpus: Iterable<Sequence> = [],
  options: BuildOptions = {},
): MappingTable {
  const computed = computeMappings(catalog, options);
  const { pairs, occurrences } = learnPairs(corpus, catalog, options);
  return { mappings: mergeMappings(computed, pairs), computed, learned: pairs, occurrences };
}

/** The file form: a JSON array with one `{from, to, score}` a line, ending with a newline. */
export function formatMappings(mappings: readonly Mapping[]): string {
  if (mappings.length === 0) return '[]\n';
  const lines = mappings.map((m) => `  ${JSON.stringify({ from: m.from, to: m.to, score: m.score })}`);
  return `[\n${lines.join(',\n')}\n]\n`;
}

/** A readable listing: score, pair, and where it comes from. */
export function formatMappingsText(table: MappingTable): string {
  const learned = new Map(table.learned.map((p) => [`${p.from}\u0000${p.to}`, p.count]));
  const computed = new Set(table.computed.map((p) => `${p.from}\u0000${p.to}`));
  const rows = table.mappings.map((m) => {
    const key = `${m.from}\u0000${m.to}`;
    const n = learned.get(key);
    const from = [n !== undefined ? `learned ×${n}` : '', computed.has(key) ? 'computed' : '']
      .filter(Boolean)
      .join(', ');
    return `${m.score.toFixed(3)}  ${m.from} -> ${m.to}  (${from})`;
  });
  const summary =
    `${table.mappings.length} mappings: ${table.computed.length} computed, ${table.learned.length} learned ` +
    `(${table.occurrences} occurrences)`;
  return [...rows, summary].join('\n');
}
