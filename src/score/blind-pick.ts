/**
 * How far the names alone can tell a lost call: for each call the gold adds to the input (one more call of
 * its API than the input has), the catalog's APIs that output every field the gold reads from it (its
 * **stand-ins**). A repair that knows only which fields were read, and picks among the stand-ins blindly,
 * names the lost API with the chance 1 / stand-ins; in a flat plan of unrelated calls, whose lost call only
 * the answer reads (`barcode = $var4.barcode$` among hundreds of APIs that output a `barcode`), nothing else
 * in the input can do better. A yardstick of a benchmark, not of the repair model.
 *
 * Pure functions of the two sequences and the catalog.
 */
import type { Catalog, Sequence } from '../model/types.ts';
import { DEFAULT_RESULT_NAME, isAnswerStep } from '../model/constants.ts';
import { indexCatalog, leafOf } from '../catalog/catalog-index.ts';
import { normalisePath, referenceSites } from '../read/references.ts';
import { callsOf, producerIndex } from './steps.ts';

export interface BlindPick {
  /** The calls the gold adds to the input. */
  readonly lost: number;
  /** The stand-ins of each lost call (APIs that output every field the gold reads from it), in order. */
  readonly standIns: readonly number[];
  /** The chance that a blind pick among its stand-ins names every lost call's API: the product of 1 / stand-ins. */
  readonly chance: number;
}

/** The fields (leaves) the gold reads from its step `at`, in any later step, the answer included. */
function fieldsRead(gold: Sequence, at: number): Set<string> {
  const label = gold[at].label;
  const out = new Set<string>();
  if (label === undefined) return out;
  for (const { index, step } of callsOf(gold)) {
    if (index <= at) continue;
    for (const [param, value] of Object.entries(step.arguments))
      for (const site of referenceSites(param, value)) {
        if (site.ref.label !== label || producerIndex(gold, index, label) !== at) continue;
        const path = normalisePath(site.ref.path);
        if (path !== '') out.add(leafOf(path));
      }
  }
  return out;
}

/** The lost calls of `gold` against `input` and the blind pick's chance; null when the gold adds no call. */
export function blindPick(
  input: Sequence,
  gold: Sequence,
  catalog: Catalog,
  resultName = DEFAULT_RESULT_NAME,
): BlindPick | null {
  const index = indexCatalog(catalog);
  const calls = (sequence: Sequence) =>
    callsOf(sequence).filter(({ index: i }) => !isAnswerStep(sequence, i, resultName));
  // The input's calls stand for the gold's of their API, then of their label, then (a name the catalog
  // lacks: a misspelt API) for any gold call left: what is left of the gold is lost.
  const left = calls(input).map(({ step }) => step);
  let lost = calls(gold);
  const take = (matches: (inputStep: Sequence[number], goldStep: Sequence[number]) => boolean) => {
    lost = lost.filter(({ step }) => {
      const k = left.findIndex((s) => matches(s, step));
      if (k >= 0) left.splice(k, 1);
      return k < 0;
    });
  };
  take((s, g) => s.name === g.name);
  take((s, g) => s.label !== undefined && s.label === g.label);
  take((s) => !index.byName.has(s.name));
  const standIns = lost.map(({ index: i, step }) => {
    const leaves = [...fieldsRead(gold, i)];
    const named =
      leaves.length === 0
        ? new Set(catalog.apis.map((a) => a.name))
        : leaves
            .map((leaf) => new Set(index.producersOf(leaf).map((p) => p.api.name)))
            .reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
    named.add(step.name);
    return named.size;
  });
  if (standIns.length === 0) return null;
  return { lost: standIns.length, standIns, chance: standIns.reduce((p, n) => p / n, 1) };
}
