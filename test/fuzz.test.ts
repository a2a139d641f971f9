/**
 * A CI-sized run of the fuzz targets of benchmarks/fuzz.ts (the big run lives there): hostile inputs end in a
 * result or an InputError, leave the built-in prototypes alone, and every repaired sequence validates.
 * The seed is fixed; FUZZ_SEED=<n> runs the same test on other inputs.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { runOne, targets } from '../benchmarks/fuzz.ts';

/** Inputs per target: cheap targets get many, targets that run the solver a handful. */
const RUNS = { cheap: 120, solver: 10 };
const FEWER: Record<string, number> = { 'long-sequence': 3, 'repair-10k-apis': 5 };
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_815);

describe('fuzzing (CI size)', () => {
  for (const target of targets({ small: true })) {
    it(`${target.name}: a result or an InputError, nothing polluted`, async () => {
      await fc.assert(
        fc.asyncProperty(target.arbitrary, async (input) => {
          await runOne(target, input);
        }),
        { numRuns: FEWER[target.name] ?? (target.solver ? RUNS.solver : RUNS.cheap), seed: SEED },
      );
    });
  }
});
