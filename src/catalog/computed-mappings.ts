/**
 * Computed mappings: which output field may feed an input parameter of another name, judged from the
 * catalog alone (names and descriptions, offline). Every (output leaf of API A, input of API B ≠ A) pair
 * with different names is scored; the best score per name pair is kept, then the top k per input above
 * a threshold.
 */
import type { ApiSpec, Catalog, Mapping, ValueType } from '../model/types.ts';
import { leafOf } from './catalog-index.ts';
import { Idf, cosine, nameTerms, spaced, textTerms, vector, type Vector } from './text.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';

export const DEFAULT_THRESHOLD = 0.6;
export const DEFAULT_TOP = 3;

export interface ComputeOptions {
  /** Keep pairs scoring at least this (default 0.6). */
  readonly threshold?: number;
  /** Keep at most this many sources per input parameter (default 3). */
  readonly top?: number;
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

interface Side {
  readonly api: string;
  readonly name: string;
  readonly type: ValueType;
  readonly nameTerms: readonly string[];
  readonly descTerms: readonly string[];
}

/** A side with what scoring reads: weighted vectors, and its name and description as spaced word runs. */
interface Weighted extends Side {
  readonly nameVector: Vector;
  readonly textVector: Vector;
  readonly nameRun: string;
  readonly descText: string;
  /** How telling the name is when written in a description (outputs only). */
  readonly rarity: number;
}

/** Output fields by leaf (first path wins: `entityId` before `navigation.entityId`), with parent words. */
function outputSides(api: ApiSpec): Side[] {
  const seen = new Map<string, Side>();
  for (const f of api.outputs ?? []) {
    const leaf = leafOf(f.path);
    if (leaf === '' || seen.has(leaf)) continue;
    const parents = f.path.replace(/\[\]/g, '').split('.').slice(0, -1).join(' ');
    seen.set(leaf, {
      api: api.name,
      name: leaf,
      type: f.type,
      nameTerms: nameTerms(leaf),
      descTerms: [...textTerms(parents), ...textTerms(f.description)],
    });
  }
  return [...seen.values()];
}

function inputSides(api: ApiSpec): Side[] {
  return api.params.map((p) => ({
    api: api.name,
    name: p.name,
    type: p.type,
    nameTerms: nameTerms(p.name),
    descTerms: textTerms(p.description),
  }));
}

const SCALAR = new Set<ValueType>(['string', 'number', 'integer', 'boolean']);

/** How plausible it is that a value of type `from` fits an input of type `to`. */
function typeFit(from: ValueType, to: ValueType): number {
  if (from === 'any' || to === 'any' || from === to) return 1;
  if (SCALAR.has(from) && SCALAR.has(to)) return 0.85;
  if (SCALAR.has(from) !== SCALAR.has(to)) return 0.6;
  return 0.8;
}

/**
 * The score of one output/input pair: a noisy-or of name likeness, description likeness and the input's
 * description naming the field, scaled by type fit. Null when nothing relates them (most pairs).
 */
function scoreSides(out: Weighted, inp: Weighted) {
  const mentioned = out.rarity > 0 && inp.descText.includes(out.nameRun);
  let name = cosine(out.nameVector, inp.nameVector);
  let description = cosine(out.textVector, inp.textVector);
  if (name === 0 && description === 0 && !mentioned) return null;
  // The last word names the kind of value (`id`, `code`, `date`): `author` is no `authorID`.
  const head = out.nameTerms.at(-1) === inp.nameTerms.at(-1) ? 1 : 0.6;
  // The names share a word and each has one the other lacks: they differ by a modifier
  // (`check_in_date`, `check_out_date`), and their descriptions read alike for the same reason.
  const contrast = modifierOnly(out.nameTerms, inp.nameTerms) ? 0.5 : 1;
  name *= head * contrast;
  description *= contrast;
  // A compound name written out in the input's description (`location geoId of a place`) is strong
  // evidence; a single plain word (`period`, `state`) is weak.
  const mention = mentioned ? out.rarity * (out.nameTerms.length > 1 ? 0.7 : 0.35) : 0;
  const miss = (1 - 0.8 * name) * (1 - 0.55 * description) * (1 - mention);
  return { name, description, mention: mentioned, score: (1 - miss) * typeFit(out.type, inp.type) };
}

/** The names share a word and each has a word the other lacks. */
function modifierOnly(a: readonly string[], b: readonly string[]): boolean {
  return a.some((w) => b.includes(w)) && a.some((w) => !b.includes(w)) && b.some((w) => !a.includes(w));
}

/** How telling a name is when written in a description: 0 for common words (`code`, `date`), up to 1. */
function rarity(terms: readonly string[], idf: Idf): number {
  if (terms.length === 0) return 0;
  const max = idf.weight('\u0000');
  const best = Math.max(...terms.map((t) => idf.weight(t))) / max;
  return Math.min(1, Math.max(0, (best - 0.5) / 0.3));
}

const scored = new WeakMap<Catalog, readonly ScoredPair[]>();

/**
 * Every related name pair (different names, different APIs, score > 0) with its best score, best first.
 * Kept per catalog object.
 */
export function scorePairs(catalog: Catalog): ScoredPair[] {
  let pairs = scored.get(catalog);
  if (!pairs) scored.set(catalog, (pairs = rawScorePairs(catalog)));
  return [...pairs];
}

function rawScorePairs(catalog: Catalog): ScoredPair[] {
  const outSides = catalog.apis.flatMap(outputSides);
  const inSides = catalog.apis.flatMap(inputSides);
  // Name words are weighed by how many names use them, description words by how many texts do.
  const names = new Idf();
  const texts = new Idf();
  for (const s of [...outSides, ...inSides]) {
    names.add(s.nameTerms);
    texts.add([...s.nameTerms, ...s.descTerms]);
  }
  const weigh = (s: Side): Weighted => ({
    ...s,
    nameVector: vector([...new Set(s.nameTerms)], names),
    textVector: vector([...s.nameTerms, ...s.descTerms], texts),
    nameRun: spaced(s.nameTerms),
    descText: spaced(s.descTerms),
    rarity: rarity(s.nameTerms, texts),
  });
  const outs = outSides.map(weigh);
  const ins = inSides.map(weigh);
  // Only outputs sharing a word with an input can relate to it (a written name shares its words too).
  const byTerm = new Map<string, number[]>();
  outs.forEach((out, k) => {
    for (const t of out.textVector.weights.keys()) {
      const list = byTerm.get(t);
      if (list) list.push(k);
      else byTerm.set(t, [k]);
    }
  });
  const best = new Map<string, ScoredPair>();
  for (const inp of ins) {
    const candidates = new Set<number>();
    for (const t of inp.textVector.weights.keys()) for (const k of byTerm.get(t) ?? []) candidates.add(k);
    // Catalog order, so that ties keep the same evidence whatever the index holds.
    for (const k of [...candidates].sort((a, b) => a - b)) {
      const out = outs[k];
      if (out.name === inp.name || out.api === inp.api) continue;
      const s = scoreSides(out, inp);
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
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const top = options.top ?? DEFAULT_TOP;
  const perInput = new Map<string, number>();
  const kept: Mapping[] = [];
  for (const p of scorePairs(catalog)) {
    if (p.score < threshold) break;
    const n = perInput.get(p.to) ?? 0;
    if (n >= top) continue;
    perInput.set(p.to, n + 1);
    kept.push({ from: p.from, to: p.to, score: p.score });
  }
  return kept.sort(byTarget);
}

/** Best score first; ties by target then source name (code-unit order, locale-independent). */
export function byScore(a: Mapping, b: Mapping): number {
  return b.score - a.score || compare(a.to, b.to) || compare(a.from, b.from);
}

/** Grouped by target name, best score first within a target. */
export function byTarget(a: Mapping, b: Mapping): number {
  return compare(a.to, b.to) || b.score - a.score || compare(a.from, b.from);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
