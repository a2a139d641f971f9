/**
 * Candidate pools for minimum-error-rate training (`line-fit.ts`). A repair's cost is weights · features, so
 * once a record's candidate repairs are known as feature vectors, which one wins under any other weights is
 * a dot product away. Each record's pool holds the points that solves of its model have found: the gold's
 * (the cheapest point the gold reading allows, `goldLoss`), the optimum under the weights of each round, and
 * the cheapest point of another data flow than the gold's once every decision the gold contradicts is made
 * cheaper (the loss-augmented rival: the repair the weights separate least from the gold). Each point
 * carries the judge's verdict (restored modulo unknowns). A pool grows by at most three points per solve
 * pass, so its size is bounded by the passes a fit makes.
 */
import type { CostModel } from '../../src/model/cost.ts';
import { FEATURE_NAMES, type FeatureName } from '../../src/model/features.ts';
import { compile } from '../../src/compile/compile.ts';
import { decode } from '../../src/decode/decode.ts';
import { excludeFlow } from '../../src/confidence/alternative.ts';
import { getSolver, solveGuarded } from '../../src/solvers/index.ts';
import type { MilpModel } from '../../src/model/milp.ts';
import { compileOptions, isExecutable } from '../../src/repair/repair.ts';
import type { LabelledRecord } from './dataset.ts';
import { judge, repairOptions, type EvalOptions } from './evaluate.ts';
import { GOLD_PENALTY, goldLoss, pointFeatures, type FeatureTotals } from './gold-point.ts';

/** A pooled candidate repair of one record: its features (in FEATURE_NAMES order) and the judge's verdict. */
export interface PoolPoint {
  readonly features: Float64Array;
  /** Restored modulo unknowns; false when any point with these very features is not (they cannot be told apart). */
  restored: boolean;
  readonly key: string;
}

const INDEX = new Map<FeatureName, number>(FEATURE_NAMES.map((f, i) => [f, i]));

/** A sparse feature total as a dense vector in FEATURE_NAMES order. */
export function denseFeatures(totals: FeatureTotals): Float64Array {
  const out = new Float64Array(FEATURE_NAMES.length);
  for (const name in totals) out[INDEX.get(name as FeatureName)!] = totals[name as FeatureName]!;
  return out;
}

/** Weights as a dense vector in FEATURE_NAMES order. */
export function denseWeights(weights: Readonly<Record<FeatureName, number>>): Float64Array {
  return Float64Array.from(FEATURE_NAMES, (f) => weights[f]);
}

export function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** What one solve pass over a record found. */
export interface PassOutcome {
  /** The optimum under the pass's weights restores the gold. */
  readonly restored: boolean;
  /** The optimum has no ask or confirm pseudo-step. */
  readonly executable: boolean;
  /** The gold reading's point is the gold (the model holds it: candidate coverage). */
  readonly goldHeld: boolean;
  /** New points in the pool. */
  readonly added: number;
}

/** Costs within this of each other tie (a pooled winner is not decided by rounding). */
export const TIE = 1e-9;

export class CandidatePools {
  private readonly pools = new Map<string, PoolPoint[]>();

  /** Adds a point to a record's pool; returns whether it is new. */
  add(id: string, totals: FeatureTotals, restored: boolean): boolean {
    const features = denseFeatures(totals);
    const key = Array.from(features, (x) => x.toFixed(9)).join(',');
    let pool = this.pools.get(id);
    if (!pool) this.pools.set(id, (pool = []));
    const same = pool.find((p) => p.key === key);
    if (same) {
      if (!restored) same.restored = false;
      return false;
    }
    pool.push({ features, restored, key });
    return true;
  }

  get(id: string): readonly PoolPoint[] {
    return this.pools.get(id) ?? [];
  }

  /** Whether the pool's cheapest point under `weights` restores the gold (a tie counts as a miss). */
  restores(id: string, weights: Float64Array): boolean {
    let best = Infinity;
    let restored = false;
    for (const p of this.get(id)) {
      const c = dot(weights, p.features);
      if (c < best - TIE) {
        best = c;
        restored = p.restored;
      } else if (c <= best + TIE && !p.restored) restored = false;
    }
    return restored;
  }

  /** Records whose pool has a restored point: the only ones any weights can win. */
  winnable(id: string): boolean {
    return this.get(id).some((p) => p.restored);
  }

  /**
   * One solve pass over `record` under `cost`: its model is compiled once with every candidate kept (the
   * gold may need one no optimum takes under these weights), then solved three times: towards the gold,
   * as it is, and loss-augmented with the gold's data flow cut off. Null when the model cannot be built or
   * solved.
   */
  async grow(
    record: LabelledRecord,
    cost: CostModel,
    options: EvalOptions & { readonly margin: number },
  ): Promise<PassOutcome | null> {
    let compiled;
    try {
      compiled = compile(record.sequence, record.catalog, cost, {
        ...compileOptions(repairOptions(record, cost, options)),
        keepDominated: true,
      });
    } catch {
      return null;
    }
    const { plan, model } = compiled;
    const loss = goldLoss(plan, record.sequence, record.gold);
    const solver = getSolver(options.solver ?? 'highs');
    const solve = async (m: MilpModel) => {
      const s = await solveGuarded(solver, m, {});
      return s.status === 'optimal' ? s.values : undefined;
    };
    const restores = (values: readonly number[]) => judge(record, decode(plan, values).sequence);
    const shifted = (scale: number) => ({ ...model, cost: model.cost.map((c, v) => c + scale * loss[v]) });
    const gold = await solve(shifted(GOLD_PENALTY));
    const optimum = await solve(model);
    if (!gold || !optimum) return null;
    const goldHeld = restores(gold);
    const restored = restores(optimum);
    const executable = isExecutable(decode(plan, optimum).sequence, record.catalog);
    let added = 0;
    if (this.add(record.id, pointFeatures(plan, gold), goldHeld)) added++;
    if (this.add(record.id, pointFeatures(plan, optimum), restored)) added++;
    const rival = await solve(excludeFlow(shifted(-options.margin), plan, gold));
    if (rival && this.add(record.id, pointFeatures(plan, rival), restores(rival))) added++;
    return { restored, executable, goldHeld, added };
  }
}
