/**
 * Writes benchmarks/data/ with fixed seeds. Deterministic: re-running gives byte-identical files.
 * First recipe: corrupted-{executable,glaive,sgd}.jsonl from the NESTFUL gold sequences. Second recipe:
 * flow-<set>.jsonl for the NESTFUL sets and the synthetic worlds, and the synthetic catalogs
 * synthetic-<style>-spec.json. Then the large-catalog worlds, into their git-ignored cache (not shipped:
 * `research/bench/large-data.ts`; the benchmark also writes them on first use).
 *
 *   npx tsx benchmarks/generate.ts
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DEFAULT_GENERATE, generateSet, toJsonl } from '../research/bench/corrupt.ts';
import { corruptedPath, loadGoldSet, ROOT, SET_NAMES } from '../research/bench/data.ts';
import { loadFlowRecords, writeFlowData } from '../research/bench/flow-data.ts';
import { ensureLargeWorld, LARGE_SIZES } from '../research/bench/large-data.ts';

function kindCounts(kinds: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) {
    const key = kind.includes('+') ? `${kind.split('+').length} mistakes` : kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

for (const name of SET_NAMES) {
  const set = loadGoldSet(name);
  const records = generateSet(set, DEFAULT_GENERATE);
  writeFileSync(corruptedPath(name), toJsonl(records));
  const summary = kindCounts(records.map((r) => r.kind));
  console.log(`${name}: ${records.length} records from ${set.gold.length} gold sequences (${summary})`);
}
for (const path of writeFlowData()) {
  const set = /flow-(.+)\.jsonl$/.exec(path)?.[1];
  const what = set
    ? `${loadFlowRecords(set).length} records (${kindCounts(loadFlowRecords(set).map((r) => r.kind))})`
    : 'catalog';
  console.log(`${relative(ROOT, path)}: ${what}`);
}
for (const size of LARGE_SIZES) {
  const paths = ensureLargeWorld(size);
  console.log(`${relative(ROOT, paths.records)}, ${relative(ROOT, paths.spec)}: large-${size} (cache)`);
}
