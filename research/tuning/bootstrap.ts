/**
 * Percentile bootstrap confidence intervals for rates over records, seeded so that a page is reproducible.
 * A rate is the share of records with some property (restored, executable); its interval comes from
 * resampling the records with replacement. The paired version resamples records once for two settings
 * and gives the interval of their difference, which is what "does this setting beat the base?" needs.
 */
import { mulberry32 } from '../../src/model/prng.ts';

export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

export interface BootstrapOptions {
  /** Resamples (default 2000). */
  readonly resamples?: number;
  /** Confidence level (default 0.95). */
  readonly level?: number;
  readonly seed?: number;
}

const DEFAULT_RESAMPLES = 2000;

function percentiles(values: Float64Array, level: number): Interval {
  values.sort();
  const tail = (1 - level) / 2;
  const at = (q: number) =>
    values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))];
  return { lo: at(tail), hi: at(1 - tail) };
}

/** The interval of the mean of `values` (0/1 flags for a rate; any numbers work). NaN bounds for none. */
export function bootstrapMean(values: ArrayLike<number>, options: BootstrapOptions = {}): Interval {
  const n = values.length;
  if (n === 0) return { lo: NaN, hi: NaN };
  const rng = mulberry32(options.seed ?? 1);
  const means = new Float64Array(options.resamples ?? DEFAULT_RESAMPLES);
  for (let b = 0; b < means.length; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(rng() * n)];
    means[b] = sum / n;
  }
  return percentiles(means, options.level ?? 0.95);
}

/** The interval of mean(a) − mean(b) over the same records (`a[i]` and `b[i]` belong to record i). */
export function bootstrapPairedDifference(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: BootstrapOptions = {},
): Interval {
  if (a.length !== b.length) throw new RangeError('paired samples must have the same length');
  const diff = Float64Array.from({ length: a.length }, (_, i) => a[i] - b[i]);
  return bootstrapMean(diff, options);
}

/** 1 for true, 0 for false. */
export function flags(values: readonly boolean[]): Uint8Array {
  return Uint8Array.from(values, (v) => (v ? 1 : 0));
}
