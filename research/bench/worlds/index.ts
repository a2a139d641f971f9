/**
 * Synthetic gold sets: the world rendered in one naming style, with a fixed number of distinct gold plans
 * drawn from seeds `world/seed/style/n`. Deterministic: the same seed gives byte-identical catalogs and
 * plans.
 */
import { hashSeed, mulberry32 } from '../../../src/model/prng.ts';
import type { NestfulStep } from '../../../src/read/sequence.ts';
import type { GoldCorpus } from '../flow-corrupt.ts';
import { renderWorld, type World } from './catalog.ts';
import { generatePlan } from './plans.ts';
import { STYLES, STYLE_NAMES, type StyleName } from './styles.ts';

export { STYLE_NAMES, type StyleName } from './styles.ts';

export const WORLD_SEED = 20250302;
export const WORLD_PLANS = 60;
/** Draws allowed per plan before the generator gives up (a draw may repeat an earlier plan). */
const DRAWS = 50;

export interface SyntheticSet extends GoldCorpus {
  readonly world: World;
}

export const syntheticSetName = (style: StyleName): string => `synthetic-${style}`;
export const SYNTHETIC_SET_NAMES: readonly string[] = STYLE_NAMES.map(syntheticSetName);

export function syntheticSet(style: StyleName, plans = WORLD_PLANS, seed = WORLD_SEED): SyntheticSet {
  const world = renderWorld(STYLES[style]);
  const seen = new Set<string>();
  const gold: { index: number; steps: NestfulStep[] }[] = [];
  for (let n = 0; gold.length < plans; n++) {
    if (n > plans * DRAWS) throw new Error(`only ${gold.length} distinct plans for ${style}`);
    const steps = generatePlan(mulberry32(hashSeed(`world/${seed}/${style}/${n}`)), world);
    if (steps === null || seen.has(JSON.stringify(steps))) continue;
    seen.add(JSON.stringify(steps));
    gold.push({ index: gold.length, steps });
  }
  return { name: syntheticSetName(style), catalog: world.catalog, gold, world };
}
