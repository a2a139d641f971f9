/**
 * The seeded corruption generator: from each valid gold sequence, a few sequences with realistic mistakes
 * (single kinds and combinations of 2–3). A corruption that leaves the sequence valid is not kept.
 * Seeds derive from (seed, set, sample index), so each gold's records do not depend on the others.
 */
import type { NestfulStep } from '../../src/read/sequence.ts';
import { validate, apiByName } from '../../src/validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../../src/model/constants.ts';
import type { CorruptionRecord, GoldSet } from './data.ts';
import { MISTAKE_KINDS, MISTAKES, type MistakeContext, type MistakeKind } from './mistakes.ts';
import { hashSeed, mulberry32, shuffled, type Rng } from '../../src/model/prng.ts';

export interface GenerateOptions {
  readonly seed: number;
  /** Single-mistake records per gold sequence. */
  readonly singles: number;
  /** One combined record per entry, of that many mistakes. */
  readonly combos: readonly number[];
}

export const DEFAULT_GENERATE: GenerateOptions = { seed: 20240815, singles: 4, combos: [2, 3] };

/** Tries per mistake before giving up on it for this gold (a draw may leave the sequence valid). */
const TRIES = 6;

function copy(steps: readonly NestfulStep[]): NestfulStep[] {
  return JSON.parse(JSON.stringify(steps)) as NestfulStep[];
}

/** Applies `kinds` in turn; null when one does not apply. */
export function applyMistakes(
  rng: Rng,
  gold: readonly NestfulStep[],
  kinds: readonly MistakeKind[],
  ctx: MistakeContext,
): NestfulStep[] | null {
  let steps: NestfulStep[] | null = copy(gold);
  for (const kind of kinds) {
    steps = MISTAKES[kind](rng, steps, ctx);
    if (steps === null) return null;
  }
  return steps;
}

/** The corrupted sequences for one gold: `[kind, steps]` pairs, all invalid and distinct. */
export function corruptGold(
  rng: Rng,
  gold: readonly NestfulStep[],
  set: GoldSet,
  options: GenerateOptions,
): [string, NestfulStep[]][] {
  const ctx: MistakeContext = { apis: apiByName(set.catalog), resultName: DEFAULT_RESULT_NAME };
  const seen = new Set<string>([JSON.stringify(gold)]);
  const out: [string, NestfulStep[]][] = [];
  const attempt = (kinds: readonly MistakeKind[]): boolean => {
    for (let t = 0; t < TRIES; t++) {
      const steps = applyMistakes(rng, gold, kinds, ctx);
      if (steps === null) continue;
      const key = JSON.stringify(steps);
      if (seen.has(key) || validate(steps, set.catalog).valid) continue;
      seen.add(key);
      out.push([kinds.join('+'), steps]);
      return true;
    }
    return false;
  };
  let singles = 0;
  for (const kind of shuffled(rng, MISTAKE_KINDS)) {
    if (singles === options.singles) break;
    if (attempt([kind])) singles++;
  }
  for (const size of options.combos) {
    for (let t = 0; t < TRIES; t++) {
      if (attempt(shuffled(rng, MISTAKE_KINDS).slice(0, size))) break;
    }
  }
  return out;
}

export function generateSet(set: GoldSet, options: GenerateOptions = DEFAULT_GENERATE): CorruptionRecord[] {
  const records: CorruptionRecord[] = [];
  for (const gold of set.gold) {
    const rng = mulberry32(hashSeed(`${options.seed}/${set.name}/${gold.index}`));
    corruptGold(rng, gold.steps, set, options).forEach(([kind, sequence], k) => {
      records.push({
        id: `${set.name}-${gold.index}-${k + 1}`,
        kind,
        set: set.name,
        gold: gold.steps,
        sequence,
      });
    });
  }
  return records;
}

/** One JSON record per line, keys in a fixed order, ending with a newline. */
export function toJsonl(records: readonly CorruptionRecord[]): string {
  return records
    .map(
      (r) =>
        JSON.stringify({ id: r.id, kind: r.kind, set: r.set, gold: r.gold, sequence: r.sequence }) + '\n',
    )
    .join('');
}
