/**
 * A short depth-first search over HiGHS's linear relaxation, tried before its MIP solver. A repair model's
 * relaxation is nearly always integral at the root (1,649 of the 1,728 NESTFUL corrupted records), and the
 * model under a cut (the second solve of a repair's confidence: the same model and one row) is a few
 * branchings away from it, where each branch is a warm-started dual simplex of a fraction of a millisecond.
 * The MIP solver's presolve, probing and separation cost about a millisecond per model whatever its size;
 * the search skips them. It is exact: a branch is left only when its relaxation is infeasible or no cheaper
 * than the best point found, so it ends with the optimum or gives up (a node budget, a deadline, an
 * unexpected status) and the MIP solver takes the model.
 */
import type { Model as HighsModel } from 'highs';
import { INTEGRALITY_TOLERANCE } from './verify.ts';

/** HiGHS model status codes met here (stable C API values). */
const OPTIMAL = 7;
const INFEASIBLE = 8;
/** Every variable lies in [0, 1], so "unbounded or infeasible" is infeasible. */
const UNBOUNDED_OR_INFEASIBLE = 9;

/**
 * A branch is left when its relaxation costs at least the best point's objective less this. The uniqueness
 * tie-breaks (src/compile/ties.ts) set two different repairs apart by more (5e-8 is the closest measured on
 * the benchmark), and the relaxation is solved to a dual feasibility tolerance below it (`SEARCH_OPTIONS`).
 */
export const SEARCH_PRUNE_GAP = 1e-9;

/**
 * Options of the native model that holds the relaxation: no presolve (on a repair model it costs as much as the
 * simplex it saves, and a warm start skips it anyway), tolerances below `SEARCH_PRUNE_GAP`.
 */
export const SEARCH_OPTIONS = {
  presolve: 'off',
  dual_feasibility_tolerance: 1e-10,
  primal_feasibility_tolerance: 1e-9,
} as const;

export type SearchOutcome =
  | {
      readonly status: 'optimal';
      readonly values: Float64Array;
      readonly objective: number;
      readonly nodes: number;
    }
  | { readonly status: 'infeasible'; readonly nodes: number }
  | { readonly status: 'gave up'; readonly nodes: number };

/**
 * Searches the relaxation `native` holds (every column continuous, bounds [0, 1], from whatever basis it
 * has). `integer[j]` says whether column j must end 0 or 1. Column bounds are back at [0, 1] on return.
 */
export function searchRelaxation(
  native: HighsModel,
  integer: Uint8Array,
  budget: number,
  deadline: number,
): SearchOutcome {
  // HiGHS's run clock, which its time limit reads, runs on across runs of a model that was not passed again.
  native.zeroAllClocks();
  let nodes = 0;
  let best: Float64Array | undefined;
  let bestObjective = Infinity;

  /** One node; false when the search gives up. */
  const visit = (): boolean => {
    if (++nodes > budget || performance.now() > deadline) return false;
    const { modelStatus } = native.run();
    if (modelStatus === INFEASIBLE || modelStatus === UNBOUNDED_OR_INFEASIBLE) return true;
    if (modelStatus !== OPTIMAL) return false;
    const objective = native.getObjectiveValue();
    if (objective >= bestObjective - SEARCH_PRUNE_GAP) return true;
    const x = native.getSolution().colValue;
    // The most fractional integer column, the lowest index among equals.
    let branch = -1;
    let spread = INTEGRALITY_TOLERANCE; // closer is integral: the guard rounds it and verifies the point
    for (let j = 0; j < x.length; j++) {
      if (!integer[j]) continue;
      const d = Math.abs(x[j] - Math.round(x[j]));
      if (d > spread) {
        spread = d;
        branch = j;
      }
    }
    if (branch < 0) {
      best = Float64Array.from(x);
      bestObjective = objective;
      return true;
    }
    // The side the relaxation leans to first: it usually holds the optimum, and then prunes the other.
    for (const side of x[branch] >= 0.5 ? [1, 0] : [0, 1]) {
      native.changeColBounds(branch, side, side);
      const going = visit();
      native.changeColBounds(branch, 0, 1);
      if (!going) return false;
    }
    return true;
  };

  if (!visit()) return { status: 'gave up', nodes: Math.min(nodes, budget) };
  return best
    ? { status: 'optimal', values: best, objective: bestObjective, nodes }
    : { status: 'infeasible', nodes };
}
