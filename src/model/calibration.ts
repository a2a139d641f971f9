/**
 * A repair's confidence: the evidence read off the solve (the cost gap to the best different repair, the
 * edits, the features of the chosen decisions) and the calibration that maps it to the probability that
 * the repair is the intended plan. A calibration is fitted (`refract calibrate`) for one set of weights:
 * `weights` is the digest of the weights it was fitted with.
 */
import { z } from 'zod';
import { canonicalJson } from './canonical.ts';
import { hashSeed } from './prng.ts';
import type { Json } from './types.ts';

/** The evidence a calibration reads, besides one count per edit kind and one total per feature. */
export const EVIDENCE = {
  noAlternative:
    'no different repair exists (the second solve, with the chosen decisions cut, is infeasible)',
  unknownAlternative: 'the second solve did not finish (time limit): the gap is unknown and read as 0',
  logGap: 'ln(1 + gap): the cost of the best repair with other decisions minus this repair’s cost',
  relativeGap: 'gap / (gap + cost): 1 when no alternative exists',
  logCost: 'ln(1 + cost) of the repair',
  edits: 'edits of the repair, asks and confirms excluded',
  asks: 'values asked for (ask steps)',
  logMaxEdit: 'ln(1 + the costliest single edit)',
} as const;

export type EvidenceName = keyof typeof EVIDENCE;

/** Prefixes of the other evidence: `kind.<edit kind>` counts edits, `feature.<name>` totals a feature. */
export const KIND_PREFIX = 'kind.';
export const FEATURE_PREFIX = 'feature.';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const CalibrationSchema = z
  .object({
    method: z
      .literal('logistic+isotonic')
      .describe('a logistic score of the standardised evidence, mapped to a probability by isotonic steps'),
    weights: z.string().describe('digest of the weights the calibration was fitted with (weightsDigest)'),
    evidence: z.array(z.string().min(1)).describe('the evidence names the score reads, in order'),
    mean: z.array(finite).describe('per evidence: its mean on the fitting records (standardisation)'),
    scale: z.array(finite.refine((x) => x > 0, 'must be > 0')).describe('per evidence: its spread'),
    coefficients: z.array(finite).describe('per evidence: the logistic coefficient'),
    intercept: finite,
    steps: z
      .array(z.tuple([finite, z.number().min(0).max(1)]))
      .min(1)
      .describe(
        'isotonic steps [score upper bound, probability], ascending; a score above all takes the last',
      ),
    fitted: z
      .object({
        records: z.number().int().min(0),
        right: z.number().int().min(0),
        l2: z.number().min(0),
        sets: z.array(z.string()).optional(),
      })
      .describe('what the calibration was fitted on'),
  })
  .strict()
  .refine(
    (c) =>
      c.mean.length === c.evidence.length &&
      c.scale.length === c.evidence.length &&
      c.coefficients.length === c.evidence.length,
    'evidence, mean, scale and coefficients must have the same length',
  );

export type Calibration = z.infer<typeof CalibrationSchema>;

/** A short digest of a weights object (order of keys ignored): ties a calibration to its weights. */
export function weightsDigest(weights: Readonly<Record<string, number>>): string {
  return hashSeed(canonicalJson(weights as Json))
    .toString(16)
    .padStart(8, '0');
}

const digests = new WeakMap<object, string>();

/**
 * The cost model's calibration when it was fitted under these very weights, else none: the evidence is read in
 * the model's costs, so a calibration fitted under other weights (a `--weight` override, a sweep) says nothing.
 */
export function calibrationInForce(cost: {
  readonly weights: Readonly<Record<string, number>>;
  readonly calibration?: Calibration;
}): Calibration | undefined {
  const calibration = cost.calibration;
  if (!calibration) return undefined;
  let digest = digests.get(cost.weights);
  if (digest === undefined) digests.set(cost.weights, (digest = weightsDigest(cost.weights)));
  return calibration.weights === digest ? calibration : undefined;
}
