/**
 * Computed mappings: which output field may feed an input parameter of another name, judged from the
 * catalog alone (names and descriptions, offline). Every (output leaf of API A, input of API B ≠ A) pair
 * with different names is scored; the best score per name pair is kept, then the top k per input above
 * a threshold. Repairs read the table one parameter at a time (`mappingsInto`), so a large catalog costs
 * only the parameters a repair touches.
 */
import type { Catalog, Mapping } from '../model/types.ts';
import { DEFAULT_SCORING, scoreSides, weighCatalog, type Side } from './mapping-sides.ts';
import type { MappingScoring } from '../model/cost.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';

export const DEFAULT_THRESHOLD = DEFAULT_SCORING.threshold;
export const DEFAULT_TOP = DEFAULT_SCORING.top;

/**
 * Without a shared name word or the input's description naming the field, a pair scores at most the
 * description evidence alone (`descriptionWeight`): at or above that threshold only such pairs need scoring.
 */
const namedOnly = (s: MappingScoring) => s.descriptionWeight;

export interface ComputeOptions {
  /** Keep pairs scoring at least this (default: the scoring's `threshold`, 0.6). */
  readonly threshold?: number;
  /** Keep at most this many sources per input parameter (default: the scoring's `top`, 3). */
  readonly top?: number;
  /** How pairs are scored (default: the hand-written model's scoring). */
  readonly scoring?: MappingScoring;
}

/** A key of a scoring's numbers, for the caches (the default's is empty). */
function scoringKey(s: MappingScoring): string {
  return s === DEFAULT_SCORING ? '' : JSON.stringify(s);
}

/** A scored name pair with the evidence behind its score (the best-scoring pair of APIs). */
export interface ScoredPair extends Mapping {
  readonly fromApi: string;
  readonly toApi: string;
  /** Name-word cosine, description cosine, and whether the input's description names the field. */
  readonly name: number;
  readonly description: number;
  readonly mention: boolean;
}

const scored = new WeakMap<Catalog, readonly ScoredPair[]>();

/**
 * Every related name pair (different names, different APIs, score > 0) with its best score, best first.
 * Kept per catalog object.
 */
export function scorePairs(catalog: Catalog, scoring: MappingScoring = DEFAULT_SCORING): ScoredPair[] {
  if (scoring !== DEFAULT_SCORING) return rawScorePairs(catalog, scoring);
  let pairs = scored.get(catalog);
  if (!pairs) scored.set(catalog, (pairs = rawScorePairs(catalog, scoring)));
  return [...pairs];
}

function rawScorePairs(catalog: Catalog, scoring: MappingScoring): ScoredPair[] {
  const catalogSides = weighCatalog(catalog);
  const outs = catalogSides.outs.map(catalogSides.weigh);
  const ins = catalogSides.ins.map(catalogSides.weigh);
  // Only outputs sharing a word with an input can relate to it (a written name shares its words too).
  const byTerm = new Map<string, number[]>();
  outs.forEach((out, k) => {
    for (const t of out.textVector.weights.keys()) push(byTerm, t, k);
  });
  const best = new Map<string, ScoredPair>();
  for (const inp of ins) {
    const candidates = new Set<number>();
    for (const t of inp.textVector.weights.keys()) for (const k of byTerm.get(t) ?? []) candidates.add(k);
    // Catalog order, so that ties keep the same evidence whatever the index holds.
    for (const k of [...candidates].sort((a, b) => a - b)) {
      const out = outs[k];
      if (out.name === inp.name || out.api === inp.api) continue;
      const s = scoreSides(out, inp, scoring);
      if (!s) continue;
      const key = `${out.name}\u0000${inp.name}`;
      const score = round(s.score, SHORT_DIGITS);
      const known = best.get(key);
      if (known && known.score >= score) continue;
      best.set(key, {
        from: out.name,
        to: inp.name,
        score,
        fromApi: out.api,
        toApi: inp.api,
        name: round(s.name, SHORT_DIGITS),
        description: round(s.description, SHORT_DIGITS),
        mention: s.mention,
      });
    }
  }
  return [...best.values()].sort(byScore);
}

/** Computed mappings: pairs at or above the threshold, the top k per input, in a stable order. */
export function computeMappings(catalog: Catalog, options: ComputeOptions = {}): Mapping[] {
  const scoring = options.scoring ?? DEFAULT_SCORING;
  const threshold = options.threshold ?? scoring.threshold;
  const top = options.top ?? scoring.top;
  if (threshold >= namedOnly(scoring)) {
    const names = [...new Set(weighCatalog(catalog).ins.map((s) => s.name))];
    return names.flatMap((name) => mappingsInto(catalog, name, options)).sort(byTarget);
  }
  const perInput = new Map<string, number>();
  const kept: Mapping[] = [];
  for (const p of scorePairs(catalog, scoring)) {
    if (p.score < threshold) break;
    const n = perInput.get(p.to) ?? 0;
    if (n >= top) continue;
    perInput.set(p.to, n + 1);
    kept.push({ from: p.from, to: p.to, score: p.score });
  }
  return kept.sort(byTarget);
}

/**
 * What the one-parameter lookups share per catalog: outputs by name word, each output's reading (its
 * grouping key), the readings of the inputs by name, and the answers.
 */
interface TargetIndex {
  readonly byNameTerm: Map<string, number[]>;
  /**
   * Per output, the summed rarity of the words it shares with the parameter being looked up, and whether it
   * shares any (both zero between lookups).
   */
  readonly sharing: Float64Array;
  readonly shared: Uint8Array;
  /** Per output, its reading, worked out when it is first a candidate. */
  readonly outputKeys: (string | undefined)[];
  /** The inputs of each name (indices), and their readings grouped when the name is first looked up. */
  readonly inputsAt: Map<string, number[]>;
  readonly inputsNamed: Map<string, SideGroup[]>;
  readonly answers: Map<string, readonly Mapping[]>;
}

const targets = new WeakMap<Catalog, TargetIndex>();
/** Answers kept per catalog; the cache starts over beyond this (parameter names of a catalog are few). */
const ANSWERS_LIMIT = 20_000;

function targetIndex(catalog: Catalog): TargetIndex {
  let index = targets.get(catalog);
  if (!index) {
    const { outs, ins } = weighCatalog(catalog);
    const byNameTerm = new Map<string, number[]>();
    outs.forEach((out, k) => {
      for (const t of new Set(out.nameTerms)) push(byNameTerm, t, k);
    });
    const inputsAt = new Map<string, number[]>();
    ins.forEach((inp, k) => push(inputsAt, inp.name, k));
    index = {
      byNameTerm,
      sharing: new Float64Array(outs.length),
      shared: new Uint8Array(outs.length),
      outputKeys: new Array<string | undefined>(outs.length),
      inputsAt,
      inputsNamed: new Map(),
      answers: new Map(),
    };
    targets.set(catalog, index);
  }
  return index;
}

/**
 * Outputs scored for one parameter, at most (the scoring's `outputCandidates`): in a catalog where thousands
 * of outputs share a word with it (`id`, `name`), those sharing the rarest words are scored, so that a
 * parameter costs the same whatever the catalog's size. NESTFUL's catalogs stay far below it.
 */
export const MAX_CANDIDATES = DEFAULT_SCORING.outputCandidates;

/**
 * How much a word an output shares with a parameter counts towards its being scored: the bits of
 * information its presence carries among the catalog's outputs (none for a word every output has). Among
 * 10,000 APIs `username` (in a few dozen output names) counts about 10 and `id` or `url` (in thousands) 1 to
 * 4, so `username` is scored for `username_or_id_or_url` ahead of the hundreds of outputs that share `id` and
 * `url` alone. Counting every word alike cut it (the Instagram lookups of the 5,000- and 10,000-API worlds).
 * An order of candidates under a bound on the work, not a price.
 */
export function wordRarity(outputsWithIt: number, outputs: number): number {
  return Math.log2(outputs / outputsWithIt);
}

/**
 * The candidate outputs to score, in catalog order: all of them, or the `max` that share the most with the
 * parameter (`count`: the summed `wordRarity` of the words an output shares with it), ties in catalog order.
 * In time linear in the outputs: a common word is shared by a hundred thousand outputs of a large catalog,
 * and sorting them all by count was most of a repair. The outputs are counted by count (outputs sharing the
 * same words have the same one, so there are few), the least count still kept is found from those, and of
 * the outputs with exactly that count the first in catalog order fill what is left.
 */
export function closestCandidates(
  indices: readonly number[],
  count: (k: number) => number,
  max = MAX_CANDIDATES,
): number[] {
  if (indices.length <= max) return Array.from(Int32Array.from(indices).sort());
  const outputsWith = new Map<number, number>();
  for (const k of indices) {
    const n = count(k);
    outputsWith.set(n, (outputsWith.get(n) ?? 0) + 1);
  }
  const counts = [...outputsWith.keys()].sort((a, b) => b - a);
  let edge = counts[counts.length - 1];
  let above = 0;
  for (const n of counts) {
    const outputs = outputsWith.get(n)!;
    if (above + outputs >= max) {
      edge = n;
      break;
    }
    above += outputs;
  }
  const kept: number[] = [];
  const atEdge: number[] = [];
  for (const k of indices) {
    const n = count(k);
    if (n > edge) kept.push(k);
    else if (n === edge) atEdge.push(k);
  }
  const first = Int32Array.from(atEdge)
    .sort()
    .subarray(0, max - kept.length);
  return Array.from(Int32Array.from([...kept, ...first]).sort());
}

/**
 * The readings of one parameter name scored, at most `max` (the scoring's `inputSides`): those standing for
 * the most APIs first, then in catalog order. A name that thousands of APIs take (`query`, `id`) is read
 * dozens of ways; NESTFUL's catalogs have a handful per name.
 */
export function commonestSides<T extends { apis: Set<string> }>(groups: readonly T[], max: number): T[] {
  if (groups.length <= max) return [...groups];
  return groups
    .map((g, i) => ({ g, i }))
    .sort((a, b) => b.g.apis.size - a.g.apis.size || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map(({ g }) => g);
}

/**
 * The computed mappings into one parameter name: the same pairs `computeMappings` keeps for it (threshold
 * at least 0.55), found from the outputs that share a name word with the parameter or are named in its
 * description. Sides that read alike (same name, type and description words) are scored once. Best first.
 */
export function mappingsInto(catalog: Catalog, param: string, options: ComputeOptions = {}): Mapping[] {
  const scoring = options.scoring ?? DEFAULT_SCORING;
  const threshold = Math.max(options.threshold ?? scoring.threshold, namedOnly(scoring));
  const top = options.top ?? scoring.top;
  const index = targetIndex(catalog);
  const key = `${threshold}\u0000${top}\u0000${scoringKey(scoring)}\u0000${param}`;
  const known = index.answers.get(key);
  if (known) return [...known];
  const { outs, ins, weigh } = weighCatalog(catalog);
  const inputs = commonestSides(inputsNamed(index, ins, param), scoring.inputSides);
  // Outputs sharing a word with the parameter, with the rarity of the words they share (summed in a typed
  // array: a common word is shared by thousands of outputs in a large catalog).
  const { sharing, shared } = index;
  const touched: number[] = [];
  for (const group of inputs) {
    for (const t of new Set([...group.side.nameTerms, ...group.side.descTerms])) {
      const having = index.byNameTerm.get(t);
      if (!having) continue;
      const weight = wordRarity(having.length, outs.length);
      for (const k of having) {
        if (!shared[k]) {
          shared[k] = 1;
          touched.push(k);
        }
        sharing[k] += weight;
      }
    }
  }
  const kept = closestCandidates(touched, (k) => sharing[k], scoring.outputCandidates);
  for (const k of touched) sharing[k] = shared[k] = 0;
  const outputs = groupSides(
    kept.map((k) => outs[k]),
    (side, i) => (index.outputKeys[kept[i]] ??= readingKey(side)),
  );
  const best = new Map<string, number>();
  const weighed = outputs.map((out) => weigh(out.side));
  for (const inp of inputs) {
    const sole = inp.apis.size === 1 ? inp.apis.values().next().value : undefined;
    const input = weigh(inp.side);
    for (const [i, out] of outputs.entries()) {
      if (out.side.name === param) continue;
      // Only one API on each side, the same one: an API never maps onto itself.
      if (sole !== undefined && out.apis.size === 1 && out.apis.has(sole)) continue;
      const s = scoreSides(weighed[i], input, scoring);
      if (!s) continue;
      const score = round(s.score, SHORT_DIGITS);
      if (score > (best.get(out.side.name) ?? 0)) best.set(out.side.name, score);
    }
  }
  const answer = [...best]
    .map(([from, score]) => ({ from, to: param, score }))
    .filter((m) => m.score >= threshold)
    .sort(byScore)
    .slice(0, top);
  if (index.answers.size >= ANSWERS_LIMIT) index.answers.clear();
  index.answers.set(key, answer);
  return [...answer];
}

/**
 * The mappings into one parameter in force for a repair: a given table over a computed one, a pair in both
 * keeping its higher score, best first (ties by source name).
 */
export function mappingsInForce(given: readonly Mapping[], computed: readonly Mapping[]): Mapping[] {
  const best = new Map<string, Mapping>();
  for (const m of [...given, ...computed]) {
    const known = best.get(m.from);
    if (!known || m.score > known.score) best.set(m.from, m);
  }
  return [...best.values()].sort(byScore);
}

/** The inputs named `param`, grouped by reading (worked out on the name's first lookup). */
function inputsNamed(index: TargetIndex, ins: readonly Side[], param: string): SideGroup[] {
  let groups = index.inputsNamed.get(param);
  if (!groups) {
    const at = index.inputsAt.get(param) ?? [];
    groups = groupSides(
      at.map((k) => ins[k]),
      readingKey,
    );
    index.inputsNamed.set(param, groups);
  }
  return groups;
}

/** A reading of a side: its name, type and description words (sides that read alike are scored once). */
const readingKey = (side: Side) => `${side.name}\u0000${side.type}\u0000${side.descTerms.join(' ')}`;

interface SideGroup {
  readonly side: Side;
  readonly apis: Set<string>;
}

/** Sides that read alike, each group with the APIs it stands for (`key`: a side's reading). */
function groupSides(sides: readonly Side[], key: (side: Side, i: number) => string): SideGroup[] {
  const groups = new Map<string, SideGroup>();
  sides.forEach((side, i) => {
    const k = key(side, i);
    const group = groups.get(k);
    if (group) group.apis.add(side.api);
    else groups.set(k, { side, apis: new Set([side.api]) });
  });
  return [...groups.values()];
}

/** Best score first; ties by target then source name (code-unit order, locale-independent). */
export function byScore(a: Mapping, b: Mapping): number {
  return b.score - a.score || compare(a.to, b.to) || compare(a.from, b.from);
}

/** Grouped by target name, best score first within a target. */
export function byTarget(a: Mapping, b: Mapping): number {
  return compare(a.to, b.to) || b.score - a.score || compare(a.from, b.from);
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
