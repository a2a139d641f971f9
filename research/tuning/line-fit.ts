/**
 * Minimum-error-rate training of the cost model's weights: the training score itself (records restored,
 * each world weighing the same) is maximised, not a surrogate of it. Every round solves each training record
 * once under the current weights (`CandidatePools.grow`: the gold's point, the optimum, the loss-augmented
 * rival), then sweeps the learned weights one at a time: along each, the exact line search of
 * `line-search.ts` gives the pooled score as a step function, and the weight moves into the best interval
 * (a step into it, never to its far edge) when that gains at least `minGain`, within a trust box around the
 * round's start (`reach`), and, with `guard`, where no world loses a pooled record. The next round's solves bring in
 * the repairs the new weights make (the pools' blind spots), and the fit stops when no weight moves. A round
 * whose solves restore fewer training records of some world than the start (`guard`) is rolled back: the next
 * search starts from the best round kept, with the repairs that cost those records in the pools. The
 * result is the round whose weights the solves themselves restored most training records under, among
 * those where no world restored fewer than at the start (with `guard`).
 *
 * A near-ban weight (above MAX_WEIGHT: candidates priced out of reach, such as links by evidence alone) is
 * an on/off switch: it may move anywhere below its start, and a first probe pass with every ban at `probe`
 * puts the repairs it would allow into the pools, so that the search sees what lifting it would do.
 */
import type { CostModel, Weights } from '../../src/model/cost.ts';
import { FEATURE_NAMES, type FeatureName } from '../../src/model/features.ts';
import { withWeights } from '../../src/read/cost-models.ts';
import { bootstrapMean, flags } from './bootstrap.ts';
import type { LabelledRecord } from './dataset.ts';
import type { EvalOptions } from './evaluate.ts';
import type { EpochReport, FitResult, Score } from './fit-types.ts';
import { lineSearch, type SearchRecord, type StepInterval } from './line-search.ts';
import { LEARNED, MAX_WEIGHT } from './perceptron.ts';
import { CandidatePools, denseWeights } from './pools.ts';

/**
 * Weights that price the ask premium: `askProduced` and its kin are valued at the price of inserting the
 * cheapest producer with its inputs asked (`insertCall + perCall + slotFill × inputs`), so a move of one of
 * these changes the value of those features too, which the pools hold fixed. The line search would misjudge
 * such a move (it sees the asks' premiums stand still): they are not learned unless `learn` names them.
 */
export const PREMIUM_PRICES: readonly FeatureName[] = ['insertCall', 'perCall', 'slotFill'];

/** The features mert learns by default: LEARNED but the premium's prices. */
export const LINE_LEARNED: readonly FeatureName[] = LEARNED.filter((f) => !PREMIUM_PRICES.includes(f));

export interface LineFitOptions extends EvalOptions {
  /** Solve-and-search rounds at most (the fit stops earlier when no weight moves). */
  readonly rounds: number;
  /** Coordinate sweeps over the learned weights per round. */
  readonly sweeps: number;
  /** Margin of the loss-augmented rival, per decision the gold contradicts. */
  readonly margin: number;
  /** Least gain of the weighted training score for a weight to move. */
  readonly minGain: number;
  /** Step into the best interval: at most this share of the weight's scale (at least 1) past its edge. */
  readonly step: number;
  /**
   * No world (set) may restore fewer training records than the start does, less `guardSlack` of its
   * records: on the pools (a search that finds a world below it moves back first) and in the chosen round.
   */
  readonly guard: boolean;
  /** The share of a world's training records it may lose under the guard (rounded down). */
  readonly guardSlack: number;
  /** The weight of every near-ban in the probe pass (0: no probe). */
  readonly probe: number;
  /**
   * The trust box of a round: a weight at `w` may move within [w / reach - ½, reach · (w + ½)] (at least 0, at
   * most MAX_WEIGHT). The pools only know the repairs the weights so far made, so a far move is a guess that
   * the next round's solves check (and roll back when it costs a world records); a wide reach lets the search
   * see a gain that lies far from the start, where nothing changes on the way (a weight whose effect starts at
   * ten times its value).
   */
  readonly reach: number;
  /** Features to learn (default `LINE_LEARNED`). */
  readonly learn?: readonly FeatureName[];
  readonly log?: (line: string) => void;
}

export const LINE_FIT_DEFAULTS = {
  rounds: 6,
  sweeps: 3,
  margin: 0.5,
  minGain: 0.0005,
  step: 0.1,
  guard: true,
  guardSlack: 0,
  probe: 2,
  reach: 10,
} as const;

/** What one solve pass over the training records found. */
interface Pass {
  readonly restored: boolean[];
  readonly executable: boolean[];
  /** Records whose model could not be built or solved. */
  readonly failed: number;
  /** Records whose gold the model cannot hold (candidate coverage misses). */
  readonly goldNotHeld: number;
  readonly added: number;
  /** Restored records per world. */
  readonly byGroup: Float64Array;
}

async function solvePass(
  pools: CandidatePools,
  train: readonly LabelledRecord[],
  groupOf: (r: LabelledRecord) => number,
  groups: number,
  cost: CostModel,
  options: LineFitOptions,
): Promise<Pass> {
  const restored: boolean[] = [];
  const executable: boolean[] = [];
  const byGroup = new Float64Array(groups);
  let failed = 0;
  let goldNotHeld = 0;
  let added = 0;
  for (const record of train) {
    const outcome = await pools.grow(record, cost, options);
    restored.push(outcome?.restored ?? false);
    executable.push(outcome?.executable ?? false);
    if (!outcome) failed++;
    else {
      added += outcome.added;
      if (!outcome.goldHeld) goldNotHeld++;
      if (outcome.restored) byGroup[groupOf(record)]++;
    }
  }
  return { restored, executable, failed, goldNotHeld, added, byGroup };
}

/** The training score of a pass, as the evaluation sets are scored. */
function passScore(pass: Pass): Score {
  const n = pass.restored.length;
  return {
    n,
    restored: pass.restored.filter(Boolean).length,
    executable: pass.executable.filter(Boolean).length,
    restorationCi: bootstrapMean(flags(pass.restored)),
  };
}

/** The box a weight may move in during one round: around its start, a near-ban anywhere below it. */
function box(f: FeatureName, at: number, start: Weights, reach: number): [number, number] {
  if (start[f] > MAX_WEIGHT) return [0, start[f]];
  return [Math.max(0, at / reach - 0.5), Math.min(MAX_WEIGHT, reach * (at + 0.5))];
}

/** Where in the best allowed interval a weight goes: a step past the edge nearest to where it is. */
function stepInto(iv: StepInterval, scale: number, step: number): number {
  const into = Math.min((iv.to - iv.from) / 2, step * Math.max(1, scale));
  return iv.from >= 0 ? iv.from + into : iv.to - into;
}

/** One round of coordinate sweeps on the pools; returns the new weights and how many moves were made. */
function searchRound(
  pools: CandidatePools,
  records: readonly SearchRecord[],
  groups: number,
  weights: Weights,
  start: Weights,
  slack: Float64Array,
  learn: readonly FeatureName[],
  options: LineFitOptions,
): { weights: Weights; moves: number } {
  const w = denseWeights(weights);
  const at = new Map(learn.map((f) => [f, weights[f]]));
  // The pooled count per world under the start's weights (the pools grow: recounted every round), less the
  // slack: with the guard, no move goes below it, and a search that finds a world below it moves back first.
  const floor = new Float64Array(groups);
  const initial = denseWeights(start);
  for (const r of records) if (pools.restores(r.id, initial)) floor[r.group]++;
  for (let g = 0; g < groups; g++) floor[g] -= slack[g];
  let moves = 0;
  for (let sweep = 0; sweep < options.sweeps; sweep++) {
    let moved = 0;
    for (const f of learn) {
      const i = FEATURE_NAMES.indexOf(f);
      const [lo, hi] = box(f, at.get(f)!, start, options.reach);
      if (hi - lo <= 0) continue;
      const d = new Float64Array(FEATURE_NAMES.length);
      d[i] = 1;
      const intervals = lineSearch(pools, records, groups, w, d, lo - w[i], hi - w[i]);
      const here = intervals.find((iv) => iv.from <= 0 && 0 <= iv.to)!;
      const fits = (iv: StepInterval) => !options.guard || iv.byGroup.every((k, g) => k >= floor[g]);
      const allowed = intervals.filter(fits);
      if (allowed.length === 0) continue;
      const best = Math.max(...allowed.map((iv) => iv.score));
      if (fits(here) && best < here.score + options.minGain) continue;
      // Of the best intervals, the nearest: the smallest move that gains as much.
      const nearest = allowed
        .filter((iv) => iv.score >= best - 1e-12)
        .sort(
          (x, y) => Math.min(Math.abs(x.from), Math.abs(x.to)) - Math.min(Math.abs(y.from), Math.abs(y.to)),
        )[0];
      w[i] = Math.min(hi, Math.max(lo, w[i] + stepInto(nearest, w[i], options.step)));
      moved++;
    }
    moves += moved;
    if (moved === 0) break;
  }
  const out: Weights = { ...weights };
  for (const f of learn) out[f] = Math.round(w[FEATURE_NAMES.indexOf(f)] * 1e5) / 1e5;
  return { weights: out, moves };
}

/**
 * Fits the weights of `base` on `train` by minimum-error-rate training; `evaluation` names the sets scored
 * before and after every round (the training set is scored by the round's own solves, as `train`).
 */
export async function fitByLineSearch(
  train: readonly LabelledRecord[],
  evaluation: Readonly<Record<string, readonly LabelledRecord[]>>,
  base: CostModel,
  options: LineFitOptions,
  scoreSets: (
    sets: Readonly<Record<string, readonly LabelledRecord[]>>,
    model: CostModel,
  ) => Promise<Record<string, Score>>,
): Promise<Pick<FitResult, 'before' | 'epochs' | 'chosen' | 'goldNotHeld'> & { weights: Weights }> {
  const log = options.log ?? (() => {});
  const learn = options.learn ?? LINE_LEARNED;
  const worlds = [...new Set(train.map((r) => r.set))].sort();
  const groupOf = (r: LabelledRecord) => worlds.indexOf(r.set);
  const perWorld = worlds.map((w) => train.filter((r) => r.set === w).length);
  const records: SearchRecord[] = train.map((r) => ({
    id: r.id,
    group: groupOf(r),
    weight: 1 / (worlds.length * perWorld[groupOf(r)]),
  }));
  const pools = new CandidatePools();
  const start = base.weights;
  if (options.probe > 0) {
    const bans = Object.fromEntries(
      learn.filter((f) => start[f] > MAX_WEIGHT).map((f) => [f, options.probe]),
    );
    if (Object.keys(bans).length > 0) {
      const probe = await solvePass(pools, train, groupOf, worlds.length, withWeights(base, bans), options);
      log(`probe pass (${JSON.stringify(bans)}): ${probe.added} repairs pooled`);
    }
  }
  let pass = await solvePass(pools, train, groupOf, worlds.length, base, options);
  const goldNotHeld = pass.goldNotHeld;
  const slack = Float64Array.from(perWorld, (n) => Math.floor(options.guardSlack * n));
  const startCounts = pass.byGroup.map((k, g) => k - slack[g]);
  const before = { train: passScore(pass), ...(await scoreSets(evaluation, base)) };
  log(`before: train ${before.train.restored}/${before.train.n}; ${pass.goldNotHeld} golds not held`);
  let weights = start;
  const epochs: EpochReport[] = [];
  // Each world weighs the same in the choice of the round, as in the search.
  const balanced = (p: Pass) => p.byGroup.reduce((sum, k, g) => sum + k / perWorld[g], 0) / worlds.length;
  let best: RoundOutcome = { weights: start, score: balanced(pass), round: 0 };
  for (let round = 1; round <= options.rounds; round++) {
    const found = searchRound(pools, records, worlds.length, weights, start, slack, learn, options);
    if (found.moves === 0) break;
    const moved = learn.filter((f) => found.weights[f] !== weights[f]);
    log(`round ${round}: ${moved.map((f) => `${f} ${weights[f]} -> ${found.weights[f]}`).join(', ')}`);
    weights = found.weights;
    const model = withWeights(base, weights);
    pass = await solvePass(pools, train, groupOf, worlds.length, model, options);
    const scores = { train: passScore(pass), ...(await scoreSets(evaluation, model)) };
    const inseparable = train.filter((r) => !pools.winnable(r.id)).length - pass.goldNotHeld;
    epochs.push({
      epoch: round,
      updates: found.moves,
      inseparable: Math.max(0, inseparable),
      skipped: pass.goldNotHeld + pass.failed,
      restoredInPass: scores.train.restored,
      weights,
      scores,
    });
    const lost = worlds.filter((_, g) => pass.byGroup[g] < startCounts[g]);
    const kept = !options.guard || lost.length === 0;
    log(
      `round ${round}: ${found.moves} moves, train ${scores.train.restored}/${scores.train.n}` +
        `${kept ? '' : ` (${lost.join(', ')} lost records: not kept)`}, ${pass.added} repairs pooled; ` +
        Object.entries(scores)
          .map(([name, s]) => `${name} ${s.restored}/${s.n}`)
          .join(', '),
    );
    ({ best, weights } = afterRound(best, { weights, score: balanced(pass), round }, kept));
  }
  return { before, epochs, weights: best.weights, chosen: best.round, goldNotHeld };
}

/** A round's weights and the training score its solves gave (each world weighing the same). */
export interface RoundOutcome {
  readonly weights: Weights;
  readonly score: number;
  readonly round: number;
}

/**
 * The best round so far and where the next search starts, after a round. A kept round becomes the best if it
 * scores higher, and the next search goes on from it either way. A round that cost a world records (not
 * kept) is rolled back: the next search starts again from the best round kept, its pools now holding the
 * repairs the rolled-back weights made (what the move would cost).
 */
export function afterRound(
  best: RoundOutcome,
  round: RoundOutcome,
  kept: boolean,
): { best: RoundOutcome; weights: Weights } {
  if (!kept) return { best, weights: best.weights };
  return { best: round.score > best.score + 1e-12 ? round : best, weights: round.weights };
}
