/**
 * Exact line search over pooled candidate repairs (the step of minimum-error-rate training). Along
 * `w + t·d`, each pooled point's cost is a line `a + b·t`; the winner of a record is the lower envelope of
 * its lines, so it changes only where two lines cross. Walking every record's envelope from `lo` to `hi`
 * gives the breakpoints where a record is won or lost, and so the training score as a step function of
 * `t`: every interval of `t` with its (weighted) score and its count of restored records per group.
 */
import { dot, TIE, type CandidatePools } from './pools.ts';

/** A record in the search: its pool's id, its group (a world) and its weight in the score. */
export interface SearchRecord {
  readonly id: string;
  readonly group: number;
  readonly weight: number;
}

/** An interval of `t` on which no record changes winner. */
export interface StepInterval {
  readonly from: number;
  readonly to: number;
  /** Σ weight of the records restored. */
  readonly score: number;
  /** Restored records per group. */
  readonly byGroup: Float64Array;
}

/** The step function of the score along `w + t·d` for `t` in [lo, hi]. */
export function lineSearch(
  pools: CandidatePools,
  records: readonly SearchRecord[],
  groups: number,
  w: Float64Array,
  d: Float64Array,
  lo: number,
  hi: number,
): StepInterval[] {
  const events: { t: number; weight: number; group: number; gain: boolean }[] = [];
  let score = 0;
  const byGroup = new Float64Array(groups);
  for (const r of records) {
    const pool = pools.get(r.id);
    if (pool.length === 0) continue;
    const a = pool.map((p) => dot(w, p.features));
    const b = pool.map((p) => dot(d, p.features));
    // The winner at lo: the cheapest there, the one with the smaller slope on a tie (it wins just after).
    let cur = 0;
    for (let i = 1; i < pool.length; i++) {
      const ci = a[i] + b[i] * lo;
      const cc = a[cur] + b[cur] * lo;
      if (ci < cc - TIE || (ci <= cc + TIE && b[i] < b[cur])) cur = i;
    }
    let restored = pool[cur].restored;
    if (restored) {
      score += r.weight;
      byGroup[r.group]++;
    }
    let t = lo;
    for (;;) {
      // The next line to cross below the winner: a smaller slope, the nearest crossing after t.
      let next = Infinity;
      let q = -1;
      for (let i = 0; i < pool.length; i++) {
        if (b[i] >= b[cur]) continue;
        const ti = (a[i] - a[cur]) / (b[cur] - b[i]);
        if (ti <= t) continue;
        if (ti < next - TIE || (ti <= next + TIE && b[i] < b[q])) {
          next = ti;
          q = i;
        }
      }
      if (q < 0 || next >= hi) break;
      if (pool[q].restored !== restored)
        events.push({ t: next, weight: r.weight, group: r.group, gain: pool[q].restored });
      restored = pool[q].restored;
      cur = q;
      t = next;
    }
  }
  events.sort((x, y) => x.t - y.t);
  const out: StepInterval[] = [];
  let from = lo;
  for (const e of events) {
    if (e.t > from) out.push({ from, to: e.t, score, byGroup: Float64Array.from(byGroup) });
    score += e.gain ? e.weight : -e.weight;
    byGroup[e.group] += e.gain ? 1 : -1;
    from = e.t;
  }
  out.push({ from, to: hi, score, byGroup: Float64Array.from(byGroup) });
  return out;
}
