/**
 * A short depth-first search over HiGHS's linear relaxation, tried before its MIP solver. A repair model's
 * relaxation is nearly always integral at the root (1,649 of the 1,728 NESTFUL corrupted records), and the
 * model under a cut (the second solve of a repair's confidence: the same model and one row) is a few
 * branchings away from it, where each branch is a warm-started dual simplex of a fraction of a millisecond.
 * The MIP solver's presolve, probing and separation cost about a millisecond per model whatever its size;
 * the search skips them. It is exact: a branch is left only when its relaxation is infeasible or no cheaper
 * than the best point found, or when a lower bound on that relaxation's cost (its penalty, `penalties`) is
 * already no cheaper, so it ends with the optimum or gives up (a node budget, a deadline, an unexpected
 * status) and the MIP solver takes the model. The penalties cut the runs a cut model takes by two fifths (9,516 to 5,584
 * on the benchmark's 1,728 corrupted records) and choose the branching; a cut that counts a move once (excludeFlow)
 * settles three fifths of the cut models at the root (3,504 runs in all).
 */
import type { Model as HighsModel } from 'highs';
import type { Row } from '../model/milp.ts';
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
 * simplex it saves, and a warm start skips it anyway), the simplex, tolerances below `SEARCH_PRUNE_GAP`.
 */
export const SEARCH_OPTIONS = {
  presolve: 'off',
  // The simplex (what HiGHS chooses for a relaxation anyway): the penalties read its basis.
  solver: 'simplex',
  dual_feasibility_tolerance: 1e-10,
  primal_feasibility_tolerance: 1e-9,
} as const;

/**
 * How many fractional columns (the most fractional first) a node weighs for its branching by their penalties.
 * A search heuristic only: any choice ends at the same optimum.
 */
export const BRANCH_CANDIDATES = 4;

/** What a penalty is lessened by before it prunes: room for the rounding in the duals and the tableau row. */
const PENALTY_SLACK = 1e-9;

/**
 * A tableau entry this small is rounding left by the basis inverse (`-2/3 + 2/3`), not a column that moves
 * the branching one: its rate, a reduced cost over it, would be astronomical.
 */
const TABLEAU_ZERO = 1e-12;

/**
 * A branch's move this close to done is done: the relaxation's own primal feasibility tolerance
 * (`SEARCH_OPTIONS`). Left over from rounding, it would be charged at the next, dearer rate.
 */
const MOVE_DONE = 1e-9;

export type SearchOutcome =
  | {
      readonly status: 'optimal';
      readonly values: Float64Array;
      readonly objective: number;
      readonly nodes: number;
    }
  | { readonly status: 'infeasible'; readonly nodes: number }
  | { readonly status: 'gave up'; readonly nodes: number };

/** Lower bounds on what fixing a basic column at 0 (`down`) or at 1 (`up`) adds to the relaxation's cost. */
export interface Penalties {
  readonly down: number;
  readonly up: number;
}

/** The state of a node's relaxation that its penalties read. */
export interface NodeBasis {
  readonly rows: readonly Row[];
  /** The position of each basic column in the basis, -1 for a nonbasic one. */
  readonly position: Int32Array;
  readonly basicRow: Uint8Array;
  /** Columns fixed by the branchings above the node. */
  readonly fixed: Uint8Array;
  readonly colDual: Float64Array;
  readonly rowDual: Float64Array;
}

/**
 * Driebeek's penalties of branching on basic column `j` at value `f`, with the dual simplex's long step. The
 * branch must move x_j by f (down) or 1 - f (up) through the nonbasic variables: with `alpha_k` a variable's
 * entry in x_j's row of the tableau and `d_k` its reduced cost, each unit of x_j it moves costs |d_k| /
 * |alpha_k|, it moves only the way its reduced cost allows (either way when that is 0) and no further than its
 * range (`cheapestMove`). The bound is a dual feasible objective of the branch, so never above its
 * relaxation's cost. HiGHS's basis holds A's columns and the identity's (a row's logical s_i = -(row
 * activity), reduced cost -rowDual_i).
 */
export function penalties(native: HighsModel, basis: NodeBasis, j: number, f: number): Penalties {
  const r = basis.position[j];
  if (r < 0) return { down: 0, up: 0 };
  const { values: inverse, nonzeroIndices } = native.getBasisInverseRow(r, true);
  const nonzero = nonzeroIndices ?? Int32Array.from(inverse.keys());
  const alpha = new Float64Array(basis.fixed.length);
  for (const i of nonzero) {
    const row = basis.rows[i];
    for (let t = 0; t < row.vars.length; t++) alpha[row.vars[t]] += inverse[i] * row.coefs[t];
  }
  // Each variable that can move x_j the branch's way: its cost per unit of x_j (|d_k| / |alpha_k|) and how far
  // it can move x_j (|alpha_k| times its range; a one-sided row's logical, unbounded).
  const down: Breakpoint[] = [];
  const up: Breakpoint[] = [];
  const consider = (a: number, d: number, range: number) => {
    if (Math.abs(a) <= TABLEAU_ZERO) return;
    const point = { rate: Math.abs(d) / Math.abs(a), reach: Math.abs(a) * range };
    const rises = d >= -PENALTY_SLACK;
    const falls = d <= PENALTY_SLACK;
    if ((rises && a > 0) || (falls && a < 0)) down.push(point);
    if ((rises && a < 0) || (falls && a > 0)) up.push(point);
  };
  for (let k = 0; k < alpha.length; k++)
    if (basis.position[k] < 0 && !basis.fixed[k]) consider(alpha[k], basis.colDual[k], 1);
  for (const i of nonzero) {
    const row = basis.rows[i];
    if (!basis.basicRow[i] && row.lower !== row.upper)
      consider(inverse[i], -basis.rowDual[i], row.upper - row.lower);
  }
  return { down: cheapestMove(down, f), up: cheapestMove(up, 1 - f) };
}

/** A variable that can move a branching column: cost per unit of the column, and how far it can move it. */
interface Breakpoint {
  readonly rate: number;
  readonly reach: number;
}

/**
 * The least a move of `step` costs when the variables are taken cheapest first, each as far as it reaches: the
 * dual simplex's long step (its bound-flipping ratio test) on the branching column's tableau row alone. None to
 * move it: the branch is infeasible, but that is left to its run (0).
 */
function cheapestMove(points: Breakpoint[], step: number): number {
  points.sort((a, b) => a.rate - b.rate);
  let left = step;
  let cost = 0;
  for (const { rate, reach } of points) {
    const moved = Math.min(left, reach);
    cost += moved * rate;
    left -= moved;
    if (left <= MOVE_DONE) return Math.max(0, cost - PENALTY_SLACK);
  }
  return 0;
}

/**
 * Searches the relaxation `native` holds (every column continuous, bounds [0, 1], from whatever basis it
 * has; its rows are `rows`). `integer[j]` says whether column j must end 0 or 1. Column bounds are back at
 * [0, 1] on return.
 *
 * A node branches, among its most fractional columns, on the one whose costlier branch the penalties
 * (`penalties`) bound highest, and visits the branch they bound lower first. A branch is left unsolved when
 * its penalty bound already reaches the best point's cost.
 */
export function searchRelaxation(
  native: HighsModel,
  rows: readonly Row[],
  integer: Uint8Array,
  budget: number,
  deadline: number,
): SearchOutcome {
  // HiGHS's run clock, which its time limit reads, runs on across runs of a model that was not passed again.
  native.zeroAllClocks();
  const n = integer.length;
  const fixed = new Uint8Array(n);
  let nodes = 0;
  let best: Float64Array | undefined;
  let bestObjective = Infinity;

  /** One node, whose relaxation costs at least `bound`; false when the search gives up. */
  const visit = (bound: number): boolean => {
    if (bound >= bestObjective - SEARCH_PRUNE_GAP) return true;
    if (++nodes > budget || performance.now() > deadline) return false;
    const { modelStatus } = native.run();
    if (modelStatus === INFEASIBLE || modelStatus === UNBOUNDED_OR_INFEASIBLE) return true;
    if (modelStatus !== OPTIMAL) return false;
    const objective = native.getObjectiveValue();
    if (objective >= bestObjective - SEARCH_PRUNE_GAP) return true;
    const solution = native.getSolution();
    const x = solution.colValue;
    const fractional = fractionalColumns(x, integer);
    if (fractional.length === 0) {
      best = Float64Array.from(x);
      bestObjective = objective;
      return true;
    }
    let branch = -1;
    let penalty: Penalties = { down: 0, up: 0 };
    try {
      const basis = nodeBasis(native, rows, fixed, solution);
      for (const j of fractional) {
        const p = penalties(native, basis, j, x[j]);
        if (branch < 0 || Math.max(p.down, p.up) > Math.max(penalty.down, penalty.up)) {
          branch = j;
          penalty = p;
        }
      }
    } catch {
      // No basis to read (HiGHS refuses the query): the MIP solver takes the model.
      return false;
    }
    const sides =
      penalty.up < penalty.down || (penalty.up === penalty.down && x[branch] >= 0.5) ? [1, 0] : [0, 1];
    fixed[branch] = 1;
    let going = true;
    for (const side of sides) {
      if (!going) break;
      native.changeColBounds(branch, side, side);
      going = visit(objective + (side === 1 ? penalty.up : penalty.down));
      native.changeColBounds(branch, 0, 1);
    }
    fixed[branch] = 0;
    return going;
  };

  if (!visit(-Infinity)) return { status: 'gave up', nodes: Math.min(nodes, budget) };
  return best
    ? { status: 'optimal', values: best, objective: bestObjective, nodes }
    : { status: 'infeasible', nodes };
}

/** The basis, duals and fixings of the relaxation `native` has just solved, with `solution` its point. */
export function nodeBasis(
  native: HighsModel,
  rows: readonly Row[],
  fixed: Uint8Array,
  solution: { readonly colDual: Float64Array; readonly rowDual: Float64Array },
): NodeBasis {
  const position = new Int32Array(fixed.length).fill(-1);
  const basicRow = new Uint8Array(rows.length);
  native.getBasicVariables().forEach((b, r) => (b >= 0 ? (position[b] = r) : (basicRow[-b - 1] = 1)));
  return { rows, position, basicRow, fixed, colDual: solution.colDual, rowDual: solution.rowDual };
}

/**
 * The integer columns off an integer value (closer is integral: the guard rounds it and verifies the point),
 * the most fractional first and, among equals, the lowest index; at most `BRANCH_CANDIDATES`.
 */
function fractionalColumns(x: Float64Array, integer: Uint8Array): number[] {
  const off: { j: number; d: number }[] = [];
  for (let j = 0; j < x.length; j++) {
    if (!integer[j]) continue;
    const d = Math.abs(x[j] - Math.round(x[j]));
    if (d > INTEGRALITY_TOLERANCE) off.push({ j, d });
  }
  off.sort((a, b) => b.d - a.d || a.j - b.j);
  return off.slice(0, BRANCH_CANDIDATES).map((o) => o.j);
}
