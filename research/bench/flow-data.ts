/**
 * Files of the second recipe under `benchmarks/data/`: `flow-<set>.jsonl` for the three NESTFUL sets and
 * the four synthetic ones, and `synthetic-<style>-spec.json`, the synthetic catalogs in NESTFUL spec
 * form. `writeFlowData` regenerates them all; the benchmark reads the shipped files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../src/read/catalog.ts';
import type { Catalog } from '../../src/model/types.ts';
import { BENCH_DATA_DIR, loadGoldSet, loadSetCatalog, SET_NAMES, type SetName } from './data.ts';
import { flowJsonl, generateFlowRecords, type FlowRecord, type GoldCorpus } from './flow-corrupt.ts';
import { STYLE_NAMES, syntheticSet, syntheticSetName, type StyleName } from './worlds/index.ts';

export const FLOW_SET_NAMES: readonly string[] = [...SET_NAMES, ...STYLE_NAMES.map(syntheticSetName)];

export const flowPath = (set: string, dir = BENCH_DATA_DIR): string => join(dir, `flow-${set}.jsonl`);
export const syntheticSpecPath = (style: StyleName, dir = BENCH_DATA_DIR): string =>
  join(dir, `synthetic-${style}-spec.json`);

const styleOf = (set: string): StyleName | undefined =>
  STYLE_NAMES.find((style) => syntheticSetName(style) === set);

/** The gold plans a set's records come from: a NESTFUL set, or a synthetic world generated afresh. */
export function flowCorpus(set: string): GoldCorpus & { readonly spec?: unknown } {
  const style = styleOf(set);
  if (style === undefined) return loadGoldSet(set as SetName);
  const made = syntheticSet(style);
  return { ...made, spec: made.world.spec };
}

/** The catalog of a set as shipped (synthetic catalogs are read from their spec file). */
export function flowCatalog(set: string, dir = BENCH_DATA_DIR): Catalog {
  const style = styleOf(set);
  if (style === undefined) return loadSetCatalog(set as SetName);
  return loadCatalog(syntheticSpecPath(style, dir));
}

export function loadFlowRecords(set: string, dir = BENCH_DATA_DIR): FlowRecord[] {
  return readFileSync(flowPath(set, dir), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FlowRecord);
}

/** The text of every file of the second recipe, by path. */
export function flowFiles(dir = BENCH_DATA_DIR): Map<string, string> {
  const files = new Map<string, string>();
  for (const set of FLOW_SET_NAMES) {
    const corpus = flowCorpus(set);
    files.set(flowPath(set, dir), flowJsonl(generateFlowRecords(corpus)));
    const style = styleOf(set);
    if (style !== undefined)
      files.set(syntheticSpecPath(style, dir), `${JSON.stringify(corpus.spec, null, 2)}\n`);
  }
  return files;
}

export function writeFlowData(dir = BENCH_DATA_DIR): string[] {
  const files = flowFiles(dir);
  for (const [path, text] of files) writeFileSync(path, text);
  return [...files.keys()];
}
