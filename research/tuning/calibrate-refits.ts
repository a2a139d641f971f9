/**
 * How far a held-out world's ECE moves with the plans its calibration happens to be fitted on: the world is
 * scored again under calibrations fitted on resamples of the other worlds' gold plans (drawn with replacement,
 * seeded; a plan's records go together, as they are alike). A world whose figure straddles a target across
 * these refits is on it within what the labelled records can tell; one that never reaches it is not.
 */
import { confidenceOf } from '../../src/confidence/confidence.ts';
import { fitCalibration, reliability, type EvidenceSet, type Sample } from '../../src/confidence/fit.ts';
import { mulberry32 } from '../../src/model/prng.ts';

/** Refits per held-out world unless told otherwise (`refract calibrate --refits`, the shipped fit's page). */
export const DEFAULT_REFITS = 20;

/** The seed of the resamples: the same records give the same page. */
export const REFITS_SEED = 1;

/** A labelled repair's evidence with its world (`set`) and gold plan. */
type WorldSample = Sample & { readonly set: string; readonly plan: string };

export interface WorldRefits {
  readonly set: string;
  readonly refits: number;
  /** Its ECE over the refits: median, 10th and 90th percentile (nearest rank). */
  readonly median: number;
  readonly low: number;
  readonly high: number;
  /** Share of the refits that put it at the target or below. */
  readonly atTarget: number;
}

const rank = (sorted: readonly number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];

/** Each world held out in turn, its ECE under `refits` calibrations fitted on resampled plans of the others. */
export function heldOutRefits(
  samples: readonly WorldSample[],
  options: { l2: number; evidence: EvidenceSet; refits: number; target: number; seed?: number },
): WorldRefits[] {
  const sets = [...new Set(samples.map((s) => s.set))].sort();
  if (sets.length < 2 || options.refits <= 0) return [];
  const rng = mulberry32(options.seed ?? REFITS_SEED);
  const fit = (train: readonly WorldSample[]) =>
    fitCalibration(train, { weights: 'refit', l2: options.l2, evidence: options.evidence });
  // Each plan's records, grouped once: a world's resamples draw from the other worlds' plans.
  const byPlan = new Map<string, WorldSample[]>();
  for (const s of samples) {
    const key = `${s.set}\u0000${s.plan}`;
    const plan = byPlan.get(key);
    if (plan) plan.push(s);
    else byPlan.set(key, [s]);
  }
  const allPlans = [...byPlan.values()];
  return sets.map((set) => {
    const test = samples.filter((s) => s.set === set);
    const plans = allPlans.filter((plan) => plan[0].set !== set);
    const eceUnder = (calibration: ReturnType<typeof fit>) =>
      reliability(test.map((s) => ({ confidence: confidenceOf(calibration, s.evidence), right: s.right })))
        .ece;
    const eces = Array.from({ length: options.refits }, () =>
      eceUnder(fit(plans.flatMap(() => plans[Math.floor(rng() * plans.length)]))),
    ).sort((a, b) => a - b);
    return {
      set,
      refits: eces.length,
      median: rank(eces, 0.5),
      low: rank(eces, 0.1),
      high: rank(eces, 0.9),
      atTarget: eces.filter((e) => e <= options.target).length / eces.length,
    };
  });
}

/**
 * The refits' table and a line over the worlds (empty without refits); `ece` gives each world's held-out ECE
 * under the calibration fitted on the other worlds as they are (the held-out table's).
 */
export function refitsSection(
  worlds: readonly WorldRefits[],
  ece: ReadonlyMap<string, number>,
  target: number,
): string[] {
  if (worlds.length === 0) return [];
  const most = worlds.filter((w) => w.atTarget > 0.5).length;
  const none = worlds.filter((w) => w.atTarget === 0).length;
  return [
    `The same held-out ECE under ${worlds[0].refits} calibrations fitted on resamples of the other worlds' gold plans`,
    `(drawn with replacement, seed ${REFITS_SEED}): how far a world's figure moves with the plans the fit happens to see.`,
    '',
    `| world | ECE | refits: median | 10–90 % | refits at ≤ ${target} |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...worlds.map(
      (w) =>
        `| ${w.set} | ${ece.get(w.set)?.toFixed(3) ?? '–'} | ${w.median.toFixed(3)} | ${w.low.toFixed(3)}–${w.high.toFixed(3)} | ${(100 * w.atTarget).toFixed(0)} % |`,
    ),
    '',
    `In most refits ${most} of ${worlds.length} worlds are at ${target} or less; ${none} in none.`,
    '',
  ];
}
