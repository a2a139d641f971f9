/**
 * Property-based fuzzing with hostile inputs: deep nesting, very long strings and sequences, `__proto__` /
 * `constructor` / `prototype` keys, lone surrogates, numbers as names, reference cycles, duplicate labels,
 * empty and 10,000-API catalogs. Every input must end in a result or an InputError, leave Object.prototype
 * alone, and every repaired sequence must validate. `test/fuzz.test.ts` runs the same targets, small.
 * The parts live in benchmarks/fuzz/ (inputs, structured, parse-targets, solver-targets, harness, run).
 *
 *   npx tsx benchmarks/fuzz.ts [--runs 6000] [--solver-runs 500] [--seed 42] [--budget 180] [--only name,name]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from './fuzz/run.ts';

export { runOne, Violation, type Outcome, type Target } from './fuzz/harness.ts';
export { targets, type TargetOptions } from './fuzz/targets.ts';

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  await main(process.argv.slice(2));
