/**
 * Aligning a predicted sequence with a gold one: which predicted call stands for which gold call. Labels
 * may differ (`var7` for `var2`), so arguments are compared after renaming each predicted reference to
 * the label of the gold call its producer is aligned with.
 */
import type { Catalog, Json, Sequence } from '../model/types.ts';
import { mapReferences } from '../read/references.ts';
import { similarity } from '../catalog/names.ts';
import { apiByName } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { canonicalJson } from '../model/canonical.ts';

export interface Alignment {
  /** For each predicted step, the index of its gold step (undefined: none). */
  readonly toGold: readonly (number | undefined)[];
  /** For each gold step, the index of its predicted step (undefined: none). */
  readonly toPred: readonly (number | undefined)[];
}

export interface AlignOptions {
  readonly resultName?: string;
  /** Lowest name similarity at which a call of an unknown API stands for a gold call (default 0.5). */
  readonly minSimilarity?: number;
}

/** A label no gold reference can carry: marks references to calls the gold sequence does not have. */
const UNMATCHED = '\u0000';

export { canonicalJson };

/**
 * The value of a predicted argument in gold labels: a reference to a predicted call aligned with gold
 * call j takes j's label; one to an unaligned call gets a label no gold value has; memory items keep
 * their names.
 */
export function inGoldLabels(
  pred: Sequence,
  gold: Sequence,
  toGold: readonly (number | undefined)[],
  at: number,
  value: Json,
): Json {
  return mapReferences(value, (ref) => {
    let producer: number | undefined;
    for (let k = at - 1; k >= 0; k--) {
      if (pred[k].label === ref.label) {
        producer = k;
        break;
      }
    }
    const definedLater = producer === undefined && pred.some((s, k) => k >= at && s.label === ref.label);
    if (producer === undefined && !definedLater) return ref.raw;
    const j = producer === undefined ? undefined : toGold[producer];
    const label = j === undefined ? undefined : gold[j].label;
    return `$${label ?? UNMATCHED + ref.label}${ref.raw.slice(1 + ref.label.length)}`;
  });
}

/** How well predicted step i matches gold step j: 2 per equal argument, 1 per shared parameter name. */
function agreement(
  pred: Sequence,
  gold: Sequence,
  toGold: (number | undefined)[],
  i: number,
  j: number,
): number {
  let score = 0;
  const g = gold[j].arguments;
  for (const [param, value] of Object.entries(pred[i].arguments)) {
    if (!Object.prototype.hasOwnProperty.call(g, param)) continue;
    score += 1;
    if (canonicalJson(inGoldLabels(pred, gold, toGold, i, value)) === canonicalJson(g[param])) score += 2;
  }
  return score;
}

/**
 * Pass 1 pairs calls of the same API, best agreement first (ties: the earliest predicted, then gold,
 * call). Pass 2 pairs a call of an API the catalog does not know with the free
 * gold call of the most similar name (a misspelt API stands for the call it meant).
 */
export function align(
  pred: Sequence,
  gold: Sequence,
  catalog: Catalog,
  options: AlignOptions = {},
): Alignment {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const minSimilarity = options.minSimilarity ?? 0.5;
  const apis = apiByName(catalog);
  const toGold: (number | undefined)[] = pred.map(() => undefined);
  const toPred: (number | undefined)[] = gold.map(() => undefined);
  const pair = (i: number, j: number) => {
    toGold[i] = j;
    toPred[j] = i;
  };
  const free = (j: number) => toPred[j] === undefined && gold[j].name !== resultName;

  // A first reading, in predicted order, gives the labels that the final pairing compares under.
  const first: (number | undefined)[] = pred.map(() => undefined);
  const taken = new Set<number>();
  pred.forEach((step, i) => {
    if (step.name === resultName) return;
    let best: { j: number; score: number } | undefined;
    gold.forEach((g, j) => {
      if (g.name !== step.name || taken.has(j) || g.name === resultName) return;
      const score = agreement(pred, gold, first, i, j);
      if (!best || score > best.score) best = { j, score };
    });
    if (best) {
      first[i] = best.j;
      taken.add(best.j);
    }
  });
  // Then every same-API pair at once, best agreement first, so that an earlier call with wrong
  // arguments does not take the gold call a later, correct one matches.
  const pairs: { i: number; j: number; score: number }[] = [];
  pred.forEach((step, i) => {
    if (step.name === resultName) return;
    gold.forEach((g, j) => {
      if (g.name === step.name) pairs.push({ i, j, score: agreement(pred, gold, first, i, j) });
    });
  });
  pairs.sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
  for (const { i, j } of pairs) if (toGold[i] === undefined && free(j)) pair(i, j);

  pred.forEach((step, i) => {
    if (step.name === resultName || toGold[i] !== undefined || apis.has(step.name)) return;
    let best: { j: number; score: number } | undefined;
    gold.forEach((g, j) => {
      if (!free(j)) return;
      const s = similarity(step.name, g.name);
      if (s < minSimilarity) return;
      const score = s * 100 + agreement(pred, gold, toGold, i, j);
      if (!best || score > best.score) best = { j, score };
    });
    if (best) pair(i, best.j);
  });

  // The answer steps stand for each other.
  const p = pred.findIndex((s) => s.name === resultName);
  const g = gold.findIndex((s) => s.name === resultName);
  if (p !== -1 && g !== -1) pair(p, g);
  return { toGold, toPred };
}
