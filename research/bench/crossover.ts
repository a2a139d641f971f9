/**
 * Where HiGHS overtakes lp-solver. Models are grouped into size buckets (by variables, roughly ×2 apart);
 * per bucket, each solver's median time (of the per-model medians) with its interquartile range, and the
 * median of the paired ratio lp-solver ÷ HiGHS on the same models (a model lp-solver did not solve in time
 * counts as HiGHS faster). The crossover is the first bucket from which HiGHS is faster in every larger
 * bucket, placed by interpolating log(ratio) against log(variables) between it and the bucket before.
 */
import type { SolverName } from '../../src/model/constants.ts';
import { median, quantile } from './stats.ts';
import type { StudyCase } from './solver-study.ts';

export const BUCKET_EDGES: readonly number[] = [0, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, Infinity];

export interface Spread {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  /** Models the solver answered optimally in this bucket, of those it was given. */
  readonly solved: number;
  readonly given: number;
}

export interface Bucket {
  readonly lo: number;
  readonly hi: number;
  readonly models: number;
  readonly medianVars: number;
  readonly solvers: Readonly<Partial<Record<SolverName, Spread>>>;
  /** Median over the bucket's models of lp-solver ms ÷ HiGHS ms (> 1: HiGHS faster); NaN if unmeasured. */
  readonly ratio: number;
}

/** The median of a model's repeats, for one solver; Infinity when it did not end optimal. */
export function modelMs(c: StudyCase, solver: SolverName): number | undefined {
  const r = c.results[solver];
  if (!r) return undefined;
  return r.status === 'optimal' ? median(r.times) : Infinity;
}

export function bucketLabel(b: { lo: number; hi: number }): string {
  const k = (x: number) => x.toLocaleString('en-US');
  return b.hi === Infinity ? `> ${k(b.lo)}` : `${k(b.lo + 1)}–${k(b.hi)}`;
}

export function buckets(cases: readonly StudyCase[], solvers: readonly SolverName[]): Bucket[] {
  const out: Bucket[] = [];
  for (let i = 0; i + 1 < BUCKET_EDGES.length; i++) {
    const lo = BUCKET_EDGES[i];
    const hi = BUCKET_EDGES[i + 1];
    const inside = cases.filter((c) => c.vars > lo && c.vars <= hi);
    if (inside.length === 0) continue;
    const spread = (s: SolverName): Spread | undefined => {
      const given = inside.filter((c) => c.results[s]);
      if (given.length === 0) return undefined;
      const times = given.map((c) => modelMs(c, s)!);
      return {
        median: median(times),
        p25: quantile(times, 0.25),
        p75: quantile(times, 0.75),
        solved: times.filter(Number.isFinite).length,
        given: given.length,
      };
    };
    const ratios = inside.flatMap((c) => {
      const h = modelMs(c, 'highs');
      const l = modelMs(c, 'lp-solver');
      return h === undefined || l === undefined || !Number.isFinite(h) ? [] : [l / h];
    });
    out.push({
      lo,
      hi,
      models: inside.length,
      medianVars: median(inside.map((c) => c.vars)),
      solvers: Object.fromEntries(solvers.flatMap((s) => (spread(s) ? [[s, spread(s)!]] : []))),
      ratio: ratios.length ? median(ratios) : NaN,
    });
  }
  return out;
}

export interface Crossover {
  /** Estimated variables where HiGHS becomes faster. */
  readonly vars: number;
  /** The last bucket where lp-solver is faster, and the first from which HiGHS stays faster. */
  readonly below: Bucket | undefined;
  readonly above: Bucket;
}

/** The crossover, or null when HiGHS never overtakes (or the data has no pair of both solvers). */
export function crossover(list: readonly Bucket[]): Crossover | null {
  const measured = list.filter((b) => !Number.isNaN(b.ratio));
  let first = -1;
  for (let i = measured.length - 1; i >= 0 && measured[i].ratio > 1; i--) first = i;
  if (first === -1) return null;
  const above = measured[first];
  const below = first > 0 ? measured[first - 1] : undefined;
  if (!below) return { vars: above.lo, below, above };
  if (!Number.isFinite(above.ratio))
    return { vars: Math.sqrt(below.medianVars * above.medianVars), below, above };
  // log(ratio) is linear in log(vars) between the two bucket medians; the crossover is where it is 0.
  const [x0, x1] = [Math.log(below.medianVars), Math.log(above.medianVars)];
  const [y0, y1] = [Math.log(below.ratio), Math.log(above.ratio)];
  const t = y1 === y0 ? 0.5 : (0 - y0) / (y1 - y0);
  return { vars: Math.exp(x0 + Math.min(1, Math.max(0, t)) * (x1 - x0)), below, above };
}
