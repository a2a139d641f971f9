/**
 * Learned mappings: the data flow of known-good sequences says which output fed which input. Every
 * reference `$label.…field$` inside an argument of a catalog API whose parameter name differs from the
 * field (the last key of the path) is one observation of the pair `field -> parameter`.
 */
import type { Catalog, Mapping, Sequence } from '../model/types.ts';
import { stepReferences } from '../read/references.ts';
import { apiByName } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { byTarget } from '../catalog/computed-mappings.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';

export interface LearnOptions {
  /** Name of the answer pseudo-step, whose arguments are not parameters (default `var_result`). */
  readonly resultName?: string;
  /** Count references inside longer strings (`"5 * $var1.rate$"`) too (default true). */
  readonly inStrings?: boolean;
}

/** A learned pair with how often it was seen. */
export interface LearnedPair extends Mapping {
  readonly count: number;
}

export interface Learned {
  /** Distinct pairs, grouped by target, most frequent first. */
  readonly pairs: readonly LearnedPair[];
  /** Observations in total (one per reference). */
  readonly occurrences: number;
}

/**
 * Score of a pair seen `count` times: 0.9 once, approaching 1 with more evidence, so a learned pair
 * always outranks all but the closest computed ones and frequent pairs outrank rare ones.
 */
export function learnedScore(count: number): number {
  return round(1 - 0.1 / count, SHORT_DIGITS);
}

/**
 * Observations of a corpus. Skipped, as they name no parameter or no field: arguments of the answer step,
 * of APIs the catalog does not know, or not accepted by the API; whole-output references (`$var3$`).
 */
export function learnPairs(
  sequences: Iterable<Sequence>,
  catalog: Catalog,
  options: LearnOptions = {},
): Learned {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const inStrings = options.inStrings ?? true;
  const apis = apiByName(catalog);
  const counts = new Map<string, { from: string; to: string; count: number }>();
  let occurrences = 0;
  for (const sequence of sequences) {
    for (const step of sequence) {
      if (step.name === resultName) continue;
      const api = apis.get(step.name);
      if (!api) continue;
      const accepted = new Set(api.params.map((p) => p.name));
      for (const site of stepReferences(step.arguments)) {
        if (!accepted.has(site.param) || (!site.whole && !inStrings)) continue;
        const from = [...site.ref.path].reverse().find((s): s is string => typeof s === 'string');
        if (from === undefined || from === site.param) continue;
        const key = `${from}\u0000${site.param}`;
        const known = counts.get(key);
        if (known) known.count++;
        else counts.set(key, { from, to: site.param, count: 1 });
        occurrences++;
      }
    }
  }
  const pairs = [...counts.values()]
    .map((p) => ({ ...p, score: learnedScore(p.count) }))
    .sort((a, b) => byTarget(a, b) || b.count - a.count);
  return { pairs, occurrences };
}

/** Learned mappings of a corpus (`{from, to, score}` only). */
export function learnMappings(
  sequences: Iterable<Sequence>,
  catalog: Catalog,
  options: LearnOptions = {},
): Mapping[] {
  return learnPairs(sequences, catalog, options).pairs.map(({ from, to, score }) => ({ from, to, score }));
}

/** Union of mapping tables; a pair listed more than once keeps its highest score. Grouped by target. */
export function mergeMappings(...tables: readonly (readonly Mapping[])[]): Mapping[] {
  const best = new Map<string, Mapping>();
  for (const table of tables) {
    for (const m of table) {
      const key = `${m.from}\u0000${m.to}`;
      const known = best.get(key);
      if (!known || m.score > known.score) best.set(key, { from: m.from, to: m.to, score: m.score });
    }
  }
  return [...best.values()].sort(byTarget);
}
