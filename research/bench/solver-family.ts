/**
 * The synthetic family of the solver study: repair models from a few dozen to about 10⁴ variables, grown
 * the three ways real inputs grow. Member L (L calls) concatenates executable gold sequences into one plan
 * of L calls, adds one random mistake per 10 calls, repairs it against the executable catalog cloned to
 * 25·L APIs (39 to 10,000) with 5·L random mappings. All seeded: the same family on every run.
 */
import { compileFor } from '../../src/repair/repair.ts';
import { hashSeed, mulberry32 } from '../../src/model/prng.ts';
import type { GoldSet } from './data.ts';
import { corruptWith } from './scaling.ts';
import { cloneCatalog, concatenateGold, randomMappings } from './synthetic.ts';
import type { StudyModel } from './solver-study.ts';

/** Plan lengths of the family; the largest gives models of about 10⁴ variables. */
export const FAMILY_LENGTHS: readonly number[] = [4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 320];

export interface FamilyOptions {
  /** Members whose models exceed this many variables are dropped (and no longer lengths are tried). */
  readonly maxVars: number;
  /** Instances per length (different seeds). */
  readonly instances: number;
}

export interface FamilyMember {
  readonly calls: number;
  readonly apis: number;
  readonly mappings: number;
}

export function familyMember(calls: number): FamilyMember {
  return { calls, apis: Math.min(10_000, Math.max(39, 25 * calls)), mappings: 5 * calls };
}

export function syntheticFamily(set: GoldSet, options: FamilyOptions): StudyModel[] {
  const out: StudyModel[] = [];
  for (const calls of FAMILY_LENGTHS) {
    const member = familyMember(calls);
    const catalog = cloneCatalog(set.catalog, member.apis);
    let overflow = 0;
    for (let k = 0; k < options.instances; k++) {
      const rng = mulberry32(hashSeed(`solver-family/${calls}/${k}`));
      const gold = concatenateGold(rng, set.gold, calls);
      const sequence = corruptWith(rng, gold, Math.max(1, Math.round(calls / 10)), catalog);
      const mappings = randomMappings(rng, catalog, member.mappings);
      const { model } = compileFor(sequence, catalog, { mappings });
      if (model.numVars > options.maxVars) {
        overflow++;
        continue;
      }
      out.push({ id: `L${calls}-${k + 1}`, source: 'synthetic', model });
    }
    if (overflow === options.instances) break;
  }
  return out;
}
