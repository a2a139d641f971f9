/**
 * The "gold repair" of a record: a repair the model can express whose data flow equals the gold's, as the
 * perceptron's target. Round 0 enumerates distinct repairs under the current weights in cost order
 * (`fixes`: the optimum, then the optimum with that point cut off, …) and takes the first that matches:
 * within the first `candidates` this is exactly the cheapest gold repair under the current weights.
 * The enumeration is often crowded by variants of the wrong optimum (the same `ask` plus one more harmless
 * edit), so when round 0 finds nothing, each further round multiplies the weights of the edits of the
 * previous round's (wrong) optimum by `factor` and enumerates again. A repair found that way does produce
 * the gold, but is not guaranteed to be the cheapest one under the current weights (it is marked
 * `exact: false`). A record whose gold the model cannot express (a missing literal) yields null.
 */
import type { CostModel, WeightName } from '../../src/model/cost.ts';
import { withWeights } from '../../src/read/cost-models.ts';
import { sameDataFlow } from '../../src/score/flow.ts';
import type { Edit } from '../../src/model/types.ts';
import { repair } from '../../src/repair/repair.ts';
import type { LabelledRecord } from './dataset.ts';
import { repairOptions, type EvalOptions } from './evaluate.ts';
import { editCounts, MAX_WEIGHT } from './perceptron.ts';

export interface GoldRepair {
  readonly edits: readonly Edit[];
  /** 0-based rank of the gold repair in its round's cost order. */
  readonly rank: number;
  /** The round that found it (0 = under the current weights). */
  readonly round: number;
  /** True when found in round 0: the cheapest gold repair under the current weights. */
  readonly exact: boolean;
}

export interface GoldSearch {
  /** Distinct repairs enumerated per round (default 8). */
  readonly candidates?: number;
  /** Rounds after round 0 with raised weights (default 2; 0 = exact targets only). */
  readonly rounds?: number;
  /** Multiplier of the raised weights (default 5). */
  readonly factor?: number;
}

export const DEFAULT_CANDIDATES = 8;
export const DEFAULT_ROUNDS = 2;
const DEFAULT_FACTOR = 5;

export async function findGoldRepair(
  record: LabelledRecord,
  cost: CostModel,
  options: EvalOptions = {},
  search: GoldSearch = {},
): Promise<GoldRepair | null> {
  const rounds = search.rounds ?? DEFAULT_ROUNDS;
  const factor = search.factor ?? DEFAULT_FACTOR;
  let model = cost;
  for (let round = 0; round <= rounds; round++) {
    const result = await repair(record.sequence, record.catalog, {
      ...repairOptions(record, model, options),
      fixes: search.candidates ?? DEFAULT_CANDIDATES,
    });
    if (result.status !== 'repaired' && result.status !== 'valid') return null;
    const fixes = result.fixes ?? [{ sequence: result.sequence, edits: result.edits, cost: result.cost }];
    const rank = fixes.findIndex((fix) => sameDataFlow(fix.sequence, record.gold));
    if (rank !== -1) return { edits: fixes[rank].edits, rank, round, exact: round === 0 };
    const used = Object.keys(editCounts(result.edits, record.sequence, options.resultName)) as WeightName[];
    const raise = used.filter((w) => model.weights[w] < MAX_WEIGHT);
    if (raise.length === 0) return null;
    model = withWeights(
      model,
      Object.fromEntries(raise.map((w) => [w, Math.min(MAX_WEIGHT, Math.max(1, model.weights[w] * factor))])),
    );
  }
  return null;
}

export interface Rival {
  readonly edits: readonly Edit[];
  /** Its cost minus the optimum's cost, under the given weights (≥ 0). */
  readonly gap: number;
}

/**
 * For a record the optimum restores: the cheapest repair among the first `candidates` in cost order that
 * does not restore the gold, with its cost gap to the optimum; null when there is none. A small gap means
 * the record sits close to the decision boundary (the margin perceptron steps on it).
 */
export async function findRival(
  record: LabelledRecord,
  cost: CostModel,
  options: EvalOptions = {},
  candidates = 3,
): Promise<Rival | null> {
  const result = await repair(record.sequence, record.catalog, {
    ...repairOptions(record, cost, options),
    fixes: candidates,
  });
  const fixes = result.fixes ?? [];
  const rival = fixes.find((fix) => !sameDataFlow(fix.sequence, record.gold));
  return rival && fixes.length > 0 ? { edits: rival.edits, gap: rival.cost - fixes[0].cost } : null;
}
