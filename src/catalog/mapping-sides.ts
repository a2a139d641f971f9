/**
 * The two sides of a computed mapping, weighed once per catalog: every output leaf and every input
 * parameter as name and description terms, weighted by inverse document frequency over the catalog's own
 * fields, and the score of one output/input pair (names, descriptions, the input's description naming the
 * field, scaled by type fit).
 */
import type { ApiSpec, Catalog, ValueType } from '../model/types.ts';
import { MappingScoringSchema, type MappingScoring } from '../model/cost.ts';
import { leafOf } from './catalog-index.ts';
import { Idf, cosine, nameTerms, spaced, textTerms, vector, type Vector } from './text.ts';

export interface Side {
  readonly api: string;
  readonly name: string;
  readonly type: ValueType;
  readonly nameTerms: readonly string[];
  readonly descTerms: readonly string[];
}

/** A side with what scoring reads: weighted vectors, and its name and description as spaced word runs. */
export interface Weighted extends Side {
  readonly nameVector: Vector;
  readonly textVector: Vector;
  readonly nameRun: string;
  readonly descText: string;
  /** How rare the name's rarest word is among the catalog's texts (its IDF over the largest; outputs only). */
  readonly rarity: number;
}

/**
 * `split` remembered for the texts met while weighing one catalog: a large catalog repeats its field names
 * and descriptions (`id`, "The status."), so each is split and stemmed once. Bounded by the catalog.
 */
function once(split: (text: string) => readonly string[]): (text: string | undefined) => readonly string[] {
  const known = new Map<string, readonly string[]>();
  return (text) => {
    if (!text) return [];
    let terms = known.get(text);
    if (!terms) known.set(text, (terms = split(text)));
    return terms;
  };
}

/** The memoised splitters of one weighing. */
interface Terms {
  readonly name: (text: string | undefined) => readonly string[];
  readonly text: (text: string | undefined) => readonly string[];
}

/** Output fields by leaf (first path wins: `entityId` before `navigation.entityId`), with parent words. */
function outputSides(api: ApiSpec, terms: Terms): Side[] {
  const seen = new Map<string, Side>();
  for (const f of api.outputs ?? []) {
    const leaf = leafOf(f.path);
    if (leaf === '' || seen.has(leaf)) continue;
    const parents = f.path.replace(/\[\]/g, '').split('.').slice(0, -1).join(' ');
    seen.set(leaf, {
      api: api.name,
      name: leaf,
      type: f.type,
      nameTerms: terms.name(leaf),
      descTerms: [...terms.text(parents), ...terms.text(f.description)],
    });
  }
  return [...seen.values()];
}

function inputSides(api: ApiSpec, terms: Terms): Side[] {
  return api.params.map((p) => ({
    api: api.name,
    name: p.name,
    type: p.type,
    nameTerms: terms.name(p.name),
    descTerms: terms.text(p.description),
  }));
}

const SCALAR = new Set<ValueType>(['string', 'number', 'integer', 'boolean']);

/** The scoring of the hand-written model (`MappingScoringSchema`'s defaults). */
export const DEFAULT_SCORING: MappingScoring = MappingScoringSchema.parse({});

/** How plausible it is that a value of type `from` fits an input of type `to`. */
function typeFit(from: ValueType, to: ValueType, s: MappingScoring): number {
  if (from === 'any' || to === 'any' || from === to) return 1;
  if (SCALAR.has(from) && SCALAR.has(to)) return s.typeScalar;
  if (SCALAR.has(from) !== SCALAR.has(to)) return s.typeMixed;
  return s.typeStructured;
}

/** How telling a name is when written in a description: 0 for common words (`code`, `date`), up to 1. */
function telling(rarity: number, s: MappingScoring): number {
  return Math.min(1, Math.max(0, (rarity - s.rarityFloor) / s.rarityRange));
}

/**
 * The score of one output/input pair: a noisy-or of name likeness, description likeness and the input's
 * description naming the field, scaled by type fit. Null when nothing relates them (most pairs).
 */
export function scoreSides(out: Weighted, inp: Weighted, s: MappingScoring = DEFAULT_SCORING) {
  const rarity = telling(out.rarity, s);
  const mentioned = rarity > 0 && inp.descText.includes(out.nameRun);
  let name = cosine(out.nameVector, inp.nameVector);
  let description = cosine(out.textVector, inp.textVector);
  if (name === 0 && description === 0 && !mentioned) return null;
  // The last word names the kind of value (`id`, `code`, `date`): `author` is no `authorID`.
  const head = out.nameTerms.at(-1) === inp.nameTerms.at(-1) ? 1 : s.headMismatch;
  // The names share a word and each has one the other lacks: they differ by a modifier
  // (`check_in_date`, `check_out_date`), and their descriptions read alike for the same reason.
  const contrast = modifierOnly(out.nameTerms, inp.nameTerms) ? s.modifierContrast : 1;
  name *= head * contrast;
  description *= contrast;
  // A compound name written out in the input's description (`location geoId of a place`) is strong
  // evidence; a single plain word (`period`, `state`) is weak.
  const mention = mentioned ? rarity * (out.nameTerms.length > 1 ? s.mentionCompound : s.mentionWord) : 0;
  const miss = (1 - s.nameWeight * name) * (1 - s.descriptionWeight * description) * (1 - mention);
  return { name, description, mention: mentioned, score: (1 - miss) * typeFit(out.type, inp.type, s) };
}

/** The names share a word and each has a word the other lacks. */
function modifierOnly(a: readonly string[], b: readonly string[]): boolean {
  return a.some((w) => b.includes(w)) && a.some((w) => !b.includes(w)) && b.some((w) => !a.includes(w));
}

/** The IDF of a name's rarest word over the largest IDF (0 for a name without words). */
function rarity(terms: readonly string[], idf: Idf): number {
  if (terms.length === 0) return 0;
  const max = idf.weight('\u0000');
  return Math.max(...terms.map((t) => idf.weight(t))) / max;
}

export interface WeighedCatalog {
  readonly outs: readonly Side[];
  readonly ins: readonly Side[];
  /**
   * A side of this catalog with its weighted vectors, worked out on its first use: a repair scores the few
   * hundred sides near the parameters it touches, not the catalog's hundreds of thousands. Sides that read
   * alike (name and description words) share their vectors.
   */
  readonly weigh: (side: Side) => Weighted;
}

const weighed = new WeakMap<Catalog, WeighedCatalog>();

/** Every output and input side of a catalog, and its word weights (built once per catalog object). */
export function weighCatalog(catalog: Catalog): WeighedCatalog {
  let known = weighed.get(catalog);
  if (!known) {
    const terms: Terms = { name: once(nameTerms), text: once(textTerms) };
    const outs = catalog.apis.flatMap((api) => outputSides(api, terms));
    const ins = catalog.apis.flatMap((api) => inputSides(api, terms));
    // Name words are weighed by how many names use them, description words by how many texts do.
    const names = new Idf();
    const texts = new Idf();
    for (const s of [...outs, ...ins]) {
      names.add(s.nameTerms);
      texts.add(s.nameTerms, s.descTerms);
    }
    known = { outs, ins, weigh: weigher(names, texts) };
    weighed.set(catalog, known);
  }
  return known;
}

/** `weigh` over one catalog's word weights, remembering each side and each reading it has weighed. */
function weigher(names: Idf, texts: Idf): (side: Side) => Weighted {
  const bySide = new Map<Side, Weighted>();
  const byReading = new Map<string, Omit<Weighted, keyof Side>>();
  return (side) => {
    let done = bySide.get(side);
    if (done) return done;
    const key = `${side.nameTerms.join(' ')}\u0000${side.descTerms.join(' ')}`;
    let w = byReading.get(key);
    if (!w) {
      w = {
        nameVector: vector([...new Set(side.nameTerms)], names),
        textVector: vector([...side.nameTerms, ...side.descTerms], texts),
        nameRun: spaced(side.nameTerms),
        descText: spaced(side.descTerms),
        rarity: rarity(side.nameTerms, texts),
      };
      byReading.set(key, w);
    }
    bySide.set(side, (done = { ...side, ...w }));
    return done;
  };
}
