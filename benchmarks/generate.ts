/**
 * Writes benchmarks/data/corrupted-{executable,glaive,sgd}.jsonl from the NESTFUL gold sequences with a
 * fixed seed. Deterministic: re-running gives byte-identical files.
 *
 *   npx tsx benchmarks/generate.ts
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_GENERATE, generateSet, toJsonl } from '../research/bench/corrupt.ts';
import { corruptedPath, loadGoldSet, SET_NAMES } from '../research/bench/data.ts';

for (const name of SET_NAMES) {
  const set = loadGoldSet(name);
  const records = generateSet(set, DEFAULT_GENERATE);
  writeFileSync(corruptedPath(name), toJsonl(records));
  const kinds = new Map<string, number>();
  for (const r of records) {
    const key = r.kind.includes('+') ? `${r.kind.split('+').length} mistakes` : r.kind;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  const summary = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`${name}: ${records.length} records from ${set.gold.length} gold sequences (${summary})`);
}
