/**
 * Fitting a calibration on labelled repairs (evidence, right or not). Logistic regression ranks: it
 * combines evidence of different scales into one score, and its L2 penalty keeps a few hundred records from
 * over-fitting sixty inputs. Isotonic regression calibrates: it maps the score to the observed rate of right
 * repairs without assuming the score's shape, only that a higher score is not less often right. Each step's
 * rate is (right + 1) / (records + 2), so a step of all-right repairs says 0.99…, never a certain 1.
 */
import {
  ALTERNATIVE_EVIDENCE,
  EVIDENCE,
  FORM_ONLY,
  KIND_PREFIX,
  SHAPE_EVIDENCE,
  type Calibration,
  type ScoreCalibration,
} from '../model/calibration.ts';
import { calibrationScore } from './confidence.ts';
import type { EvidenceVector } from './evidence.ts';

export interface Sample {
  readonly evidence: EvidenceVector;
  readonly right: boolean;
  /** The world (a record's `set`) the repair is of, where known. */
  readonly set?: string;
}

export interface FitCalibrationOptions {
  /** The L2 penalty on the standardised coefficients (default 1). */
  readonly l2?: number;
  /** Newton steps at most (default 50). */
  readonly iterations?: number;
  /** The weights digest the evidence was read under (weightsDigest). */
  readonly weights: string;
  readonly sets?: readonly string[];
  /**
   * Which evidence the score reads: `core` (default), the second solve, the gap's parts, the edit summary and
   * the input's shape (EVIDENCE); `form`, with `formOnly` too (whether every edit fixes how a call is written:
   * better on the worlds it was fitted on, worse on a world it never saw); `kinds`, with the counts per edit
   * kind as well; or `all`, with the feature totals as well. The counts and totals fit the worlds they are
   * fitted on and transfer worse (docs/cost-model.md has the measures).
   */
  readonly evidence?: EvidenceSet;
  /**
   * An edit kind's count is read only when at least this many fitting repairs that make that kind are right
   * (default MIN_KIND_RIGHT). A kind the labels never show right would be priced as a sure failure, and that
   * says only that no labelled intent needs it (no benchmark record has memory, so no repair there reads it).
   */
  readonly minKindRight?: number;
  /**
   * The input's shape (SHAPE_EVIDENCE) is read only when the samples span at least this many worlds (their
   * `set`; default MIN_SHAPE_WORLDS). Within one world it tells one gold plan's records from another's and
   * says nothing of the next plan: fitted on a world's own records, it lost ECE on held-out plans.
   */
  readonly minShapeWorlds?: number;
}

/** The default `minKindRight`. */
export const MIN_KIND_RIGHT = 10;

/** The default `minShapeWorlds`. */
export const MIN_SHAPE_WORLDS = 2;

export const EVIDENCE_SETS = ['core', 'form', 'kinds', 'all'] as const;
export type EvidenceSet = (typeof EVIDENCE_SETS)[number];

const CORE = new Set<string>(Object.keys(EVIDENCE));
const ALTERNATIVE = new Set<string>(Object.keys(ALTERNATIVE_EVIDENCE));
const SHAPE = new Set<string>(SHAPE_EVIDENCE);

/** Evidence names seen in the samples with any spread, sorted (a constant says nothing). */
function namesOf(
  samples: readonly Sample[],
  read: (name: string) => boolean,
): { names: string[]; mean: number[]; scale: number[] } {
  const all = [...new Set(samples.flatMap((s) => Object.keys(s.evidence)))].filter(read).sort();
  const names: string[] = [];
  const mean: number[] = [];
  const scale: number[] = [];
  for (const name of all) {
    const xs = samples.map((s) => s.evidence[name] ?? 0);
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
    if (sd <= 1e-9) continue;
    names.push(name);
    mean.push(m);
    scale.push(sd);
  }
  return { names, mean, scale };
}

/** Solves `A x = b` (A symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r][n];
    for (let k = r + 1; k < n; k++) s -= m[r][k] * x[k];
    x[r] = s / m[r][r];
  }
  return x;
}

/** Penalised logistic regression by Newton's method: [intercept, ...coefficients]. */
function logistic(rows: readonly number[][], labels: readonly number[], l2: number, iterations: number) {
  const d = rows[0].length;
  let w = new Array<number>(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = w.map((wi, j) => (j === 0 ? 0 : l2 * wi));
    const hess = Array.from({ length: d }, (_, i) =>
      Array.from({ length: d }, (_, j) => (i === j && i > 0 ? l2 : 0)),
    );
    rows.forEach((x, r) => {
      const z = x.reduce((a, xi, j) => a + xi * w[j], 0);
      const p = 1 / (1 + Math.exp(-z));
      const h = Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < d; i++) {
        grad[i] += (p - labels[r]) * x[i];
        for (let j = 0; j <= i; j++) hess[i][j] += h * x[i] * x[j];
      }
    });
    for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) hess[i][j] = hess[j][i];
    hess[0][0] += 1e-9;
    const step = solveLinear(hess, grad);
    w = w.map((wi, j) => wi - step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

/** A step's probability: its rate of right points, smoothed towards one half ((right + 1) / (n + 2)). */
const stepRate = (b: { right: number; n: number }) => (b.right + 1) / (b.n + 2);

interface Block {
  upper: number;
  right: number;
  n: number;
}

/** Pools the last two blocks while the earlier one's `rate` is not below the later one's. */
function poolViolators(blocks: Block[], rate: (b: Block) => number): void {
  while (blocks.length > 1) {
    const b = blocks[blocks.length - 1];
    const a = blocks[blocks.length - 2];
    if (rate(a) < rate(b)) break;
    blocks.splice(blocks.length - 2, 2, { upper: b.upper, right: a.right + b.right, n: a.n + b.n });
  }
}

/**
 * Pool-adjacent-violators on (score, right) sorted by score: the isotonic steps. The points pool on their rate
 * of right points; the blocks then pool again on the smoothed rate each step reports: a small block of right
 * points above a large, nearly all right one (2 of 2 above 99 of 100) has the higher rate but the lower
 * smoothed one (0.75 against 0.98), and a higher score must never say less. (Pooling the points on the smoothed
 * rate would shrink each single point to 2/3 or 1/3 and pool nearly everything into one step.)
 */
export function isotonicSteps(points: readonly { score: number; right: boolean }[]): Calibration['steps'] {
  const sorted = [...points].sort((a, b) => a.score - b.score);
  const blocks: Block[] = [];
  const raw = (b: Block) => b.right / b.n;
  for (const p of sorted) {
    const last = blocks[blocks.length - 1];
    if (last && last.upper === p.score) {
      last.right += p.right ? 1 : 0;
      last.n++;
    } else blocks.push({ upper: p.score, right: p.right ? 1 : 0, n: 1 });
    poolViolators(blocks, raw);
  }
  const steps: Block[] = [];
  for (const block of blocks) {
    steps.push({ ...block });
    poolViolators(steps, stepRate);
  }
  return steps.map((b) => [b.upper, stepRate(b)] as [number, number]);
}

/** The logistic score of the evidence `read` keeps, and its isotonic steps. */
function fitScore(
  samples: readonly Sample[],
  read: (name: string) => boolean,
  options: Omit<FitCalibrationOptions, 'weights' | 'evidence'>,
): ScoreCalibration {
  if (samples.length === 0) throw new Error('no samples to calibrate on');
  const l2 = options.l2 ?? 1;
  const { names, mean, scale } = namesOf(samples, read);
  const rows = samples.map((s) => [1, ...names.map((n, i) => ((s.evidence[n] ?? 0) - mean[i]) / scale[i])]);
  const w = logistic(
    rows,
    samples.map((s) => (s.right ? 1 : 0)),
    l2,
    options.iterations ?? 50,
  );
  const ranked: ScoreCalibration = {
    evidence: names,
    mean,
    scale,
    coefficients: w.slice(1),
    intercept: w[0],
    steps: [[1, 0.5]],
    fitted: {
      records: samples.length,
      right: samples.filter((s) => s.right).length,
      l2,
      ...(options.sets ? { sets: [...options.sets] } : {}),
    },
  };
  const steps = isotonicSteps(
    samples.map((s) => ({ score: calibrationScore(ranked, s.evidence), right: s.right })),
  );
  return { ...ranked, steps };
}

export function fitCalibration(samples: readonly Sample[], options: FitCalibrationOptions): Calibration {
  const set = options.evidence ?? 'core';
  const minRight = options.minKindRight ?? MIN_KIND_RIGHT;
  // The edit-kind counts are read from `kinds` on; `formOnly` from `form` on.
  const counts = set === 'kinds' || set === 'all';
  const rightWith = new Map<string, number>();
  for (const s of counts ? samples : [])
    if (s.right)
      for (const name in s.evidence)
        if (name.startsWith(KIND_PREFIX) && s.evidence[name] > 0)
          rightWith.set(name, (rightWith.get(name) ?? 0) + 1);
  const worlds = new Set(samples.map((s) => s.set)).size;
  const shape = worlds >= (options.minShapeWorlds ?? MIN_SHAPE_WORLDS);
  const read = (name: string) =>
    name.startsWith(KIND_PREFIX)
      ? counts && (rightWith.get(name) ?? 0) >= minRight
      : name === FORM_ONLY
        ? set !== 'core'
        : (set === 'all' || CORE.has(name)) && (shape || !SHAPE.has(name));
  const score = fitScore(samples, read, options);
  return { method: 'logistic+isotonic', weights: options.weights, ...score };
}

/**
 * The calibration of the alternatives (fix 2, 3, …) on their samples, each with its ALTERNATIVE_EVIDENCE
 * (`firstLogit` under the repair's own calibration).
 */
export function fitAlternatives(
  samples: readonly Sample[],
  options: Omit<FitCalibrationOptions, 'weights' | 'evidence'> = {},
): ScoreCalibration {
  return fitScore(samples, (name) => ALTERNATIVE.has(name), options);
}

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
  readonly meanConfidence: number;
  readonly rightRate: number;
}

/** The running sums of one reliability bin: points, their confidence total, the right ones among them. */
export interface BinSums {
  n: number;
  confidence: number;
  right: number;
}

/** Empty sums for `bins` equal-width bins of confidence. */
export function emptyBins(bins = 10): BinSums[] {
  return Array.from({ length: bins }, () => ({ n: 0, confidence: 0, right: 0 }));
}

/**
 * Adds one point to its bin: bin b holds [b/bins, (b+1)/bins), the last one its upper bound too. Sums can be
 * kept while points stream by (a batch summary), and give the same diagram as the points themselves.
 */
export function addToBins(sums: BinSums[], point: { confidence: number; right: boolean }): void {
  const bins = sums.length;
  const c = point.confidence;
  if (!(c >= 0)) return;
  let b = Math.min(bins - 1, Math.floor(c * bins));
  while (b > 0 && c < b / bins) b--;
  while (b < bins - 1 && c >= (b + 1) / bins) b++;
  sums[b].n++;
  sums[b].confidence += c;
  sums[b].right += point.right ? 1 : 0;
}

/** The reliability diagram of binned sums (empty bins left out), and its expected calibration error. */
export function reliabilityOfBins(sums: readonly BinSums[]): { bins: ReliabilityBin[]; ece: number } {
  const bins = sums.length;
  const total = sums.reduce((a, s) => a + s.n, 0);
  const out: ReliabilityBin[] = [];
  let ece = 0;
  sums.forEach((s, b) => {
    if (s.n === 0) return;
    const meanConfidence = s.confidence / s.n;
    const rightRate = s.right / s.n;
    ece += (s.n / total) * Math.abs(meanConfidence - rightRate);
    out.push({ lower: b / bins, upper: (b + 1) / bins, n: s.n, meanConfidence, rightRate });
  });
  return { bins: out, ece };
}

/** Ten equal-width bins of confidence, and the expected calibration error they give. */
export function reliability(points: readonly { confidence: number; right: boolean }[], bins = 10) {
  const sums = emptyBins(bins);
  for (const p of points) addToBins(sums, p);
  return reliabilityOfBins(sums);
}

/**
 * How well the confidences rank the points: the chance that a right point, drawn at random, is more confident
 * than a wrong one (ties count half; the area under the ROC curve). 0.5 is no ranking at all, 1 a perfect one;
 * calibration alone says nothing of it. Undefined (NaN) without both right and wrong points.
 */
export function rankingAuc(points: readonly { confidence: number; right: boolean }[]): number {
  const sorted = [...points].sort((a, b) => a.confidence - b.confidence);
  let wrong = 0;
  let wins = 0;
  for (let i = 0; i < sorted.length;) {
    // A run of equal confidences: each right one beats the wrong ones below it and ties the run's wrong ones.
    let j = i;
    let runRight = 0;
    let runWrong = 0;
    while (j < sorted.length && sorted[j].confidence === sorted[i].confidence) {
      if (sorted[j].right) runRight++;
      else runWrong++;
      j++;
    }
    wins += runRight * (wrong + runWrong / 2);
    wrong += runWrong;
    i = j;
  }
  const right = sorted.length - wrong;
  return right === 0 || wrong === 0 ? NaN : wins / (right * wrong);
}

/** Precision of the most confident `share` of the points, and the share kept at `precision` or better. */
export function selective(
  points: readonly { confidence: number; right: boolean }[],
  share = 0.9,
  precision = 0.99,
) {
  const sorted = [...points].sort((a, b) => b.confidence - a.confidence);
  const n = Math.min(sorted.length, Math.max(1, Math.round(share * sorted.length)));
  // The cut may fall inside points of one confidence: they share the places left at their right rate, so
  // that the figure does not depend on the order they came in.
  const cut = sorted[n - 1]?.confidence;
  const above = sorted.filter((p) => p.confidence > (cut ?? Infinity));
  const tied = sorted.filter((p) => p.confidence === cut);
  const rightOf = (xs: readonly { right: boolean }[]) => xs.filter((p) => p.right).length;
  const topRight =
    rightOf(above) + (tied.length === 0 ? 0 : ((n - above.length) * rightOf(tied)) / tied.length);
  let right = 0;
  let kept = 0;
  sorted.forEach((p, i) => {
    right += p.right ? 1 : 0;
    // Only at a confidence boundary: points of equal confidence are kept or dropped together.
    const boundary = i === sorted.length - 1 || sorted[i + 1].confidence < p.confidence;
    if (boundary && right / (i + 1) >= precision) kept = i + 1;
  });
  return {
    topPrecision: sorted.length === 0 ? NaN : topRight / n,
    keptAtPrecision: sorted.length === 0 ? 0 : kept / sorted.length,
  };
}
