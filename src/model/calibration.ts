/**
 * A repair's confidence: the evidence read off the solve (the cost gap to the best different repair, the
 * edits, the features of the chosen decisions) and the calibration that maps it to the probability that
 * the repair is the intended plan. A calibration is fitted (`refract calibrate`) for one set of weights:
 * `weights` is the digest of the weights it was fitted with.
 */
import { z } from 'zod';
import { canonicalJson } from './canonical.ts';
import { hashSeed } from './prng.ts';
import { FEATURES } from './features.ts';
import { EDIT_KINDS, type Json } from './types.ts';

/** The evidence a calibration reads, besides one count per edit kind and one total per feature. */
export const EVIDENCE = {
  noAlternative:
    'no different repair exists (the second solve, with the chosen decisions cut, is infeasible)',
  unknownAlternative: 'the second solve did not finish (time limit): the gap is unknown and read as 0',
  logGap: 'ln(1 + gap): the cost of the best repair with other decisions minus this repair’s cost',
  relativeGap: 'gap / (gap + cost), the cost as in `logCost`: 1 when no alternative exists',
  logCost: 'ln(1 + cost) of the repair, a repeated call’s deletion excluded',
  edits: 'edits of the repair, asks, confirms and a repeated call’s deletion excluded',
  asks: 'values asked for (ask steps)',
  logMaxEdit: 'ln(1 + the costliest single edit, a repeated call’s deletion excluded)',
  unreadLinks:
    'values the repair takes from an output no other call reads, under another name (`unreadOutput`): which unread output fed a lost value is a guess the names do not back',
  guessesBesideUnread:
    'values the repair asks for or copies from another call that passes them (`reuseLiteral`), after an input call whose output no other input call reads: the value may be that output, wired under names that say nothing or read back from the call it was passed to',
  guessedApi:
    'the repair inserts or puts back a call that more than one catalog API could have been: the one it picks is a guess (how many is left out: it grows with the catalog, not with the odds of a wrong pick)',
  logSteps: 'ln of the steps of the input (its answer step included): a longer plan has more to get wrong',
  gapEdit: 'the part of the gap the edit kinds make (signed ln(1 + |x|)): the alternative edits more',
  gapEvidence:
    'the part of the gap the evidence features make (signed ln(1 + |x|)): the alternative has less support',
  gapCloseness: 'the part of the gap the closeness features make (signed ln(1 + |x|))',
  refsPerStep:
    'references in the input per step (its answer step included): a plan that writes its data flow out says more of what it means',
  namedRefs:
    'share of the input’s references whose field shares a word with the parameter or answer key it feeds (0 without references): where names agree, name evidence is worth more',
  logOutputs:
    'ln(1 + the mean count of output fields of the input’s catalog APIs): the more fields, the more a link can pick wrong',
  describedTerms:
    'the mean count of distinct terms (stemmed, stop words out) in the descriptions of the input’s catalog APIs: how much the catalog says of its APIs',
} as const;

export type EvidenceName = keyof typeof EVIDENCE;

/**
 * The evidence of the input's shape (the same whatever the repair): it tells a world where repairs tend to be
 * right from one where they do not, so a fit reads it only across worlds (`minShapeWorlds` of fitCalibration).
 */
export const SHAPE_EVIDENCE: readonly EvidenceName[] = [
  'refsPerStep',
  'namedRefs',
  'logOutputs',
  'describedTerms',
];

/**
 * The evidence of an alternative (`fixes`: fix 2, 3, …), read against fix 1, the repair. Two fixes can both be
 * right: they may differ only in labels, or in values no repair can know.
 */
export const ALTERNATIVE_EVIDENCE = {
  firstLogit: 'ln(p / (1 - p)) of fix 1’s confidence p (clamped to 0.001–0.999)',
  sameFlow:
    'the fix makes every choice as fix 1 does (no flow or ask change; labels differ): it takes fix 1’s confidence',
  sharedDecisions: 'decisions fix 1 and the fix share, over the decisions either makes (Jaccard)',
  flowChanges:
    'choices (an API, a deletion, a parameter’s source, a reference) the fix makes otherwise, no ask in either',
  askChanges: 'choices the fix makes otherwise where fix 1 or the fix asks',
  logDeficit: 'ln(1 + the fix’s cost minus fix 1’s)',
  rank: 'the fix’s place: 2, 3, …',
  fixEdits: 'edits of the fix, asks and confirms excluded',
  fixAsks: 'values the fix asks for',
} as const;

export type AlternativeEvidenceName = keyof typeof ALTERNATIVE_EVIDENCE;

/** Prefixes of the other evidence: `kind.<edit kind>` counts edits, `feature.<name>` totals a feature. */
export const KIND_PREFIX = 'kind.';
export const FEATURE_PREFIX = 'feature.';

/**
 * Evidence read from the `form` set on (`form`, `kinds`, `all`): 1 when every edit of the repair fixes how a
 * call is written (FORM_KINDS), 0 when it supplies data flow (a link, an ask, a copied value, a put-back call,
 * a memory item) or makes no edit.
 */
export const FORM_ONLY = 'formOnly';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

/** A logistic score of standardised evidence and the isotonic steps that map it to a probability. */
const scoreShape = {
  evidence: z.array(z.string().min(1)).describe('the evidence names the score reads, in order'),
  mean: z.array(finite).describe('per evidence: its mean on the fitting records (standardisation)'),
  scale: z.array(finite.refine((x) => x > 0, 'must be > 0')).describe('per evidence: its spread'),
  coefficients: z.array(finite).describe('per evidence: the logistic coefficient'),
  intercept: finite,
  steps: z
    .array(z.tuple([finite, z.number().min(0).max(1)]))
    .min(1)
    .describe('isotonic steps [score upper bound, probability], ascending; a score above all takes the last'),
  fitted: z
    .object({
      records: z.number().int().min(0),
      right: z.number().int().min(0),
      l2: z.number().min(0),
      sets: z.array(z.string()).optional(),
    })
    .describe('what the calibration was fitted on'),
};

const sameLengths = (c: {
  evidence: unknown[];
  mean: unknown[];
  scale: unknown[];
  coefficients: unknown[];
}) =>
  c.mean.length === c.evidence.length &&
  c.scale.length === c.evidence.length &&
  c.coefficients.length === c.evidence.length;
const SAME_LENGTHS = 'evidence, mean, scale and coefficients must have the same length';

const EDIT_KIND_NAMES: ReadonlySet<string> = new Set(EDIT_KINDS);

/** A count per edit kind (`kind.slotFill`), `formOnly`, or a feature total (`feature.linkAny`) this version computes. */
const isDetail = (name: string) =>
  name === FORM_ONLY ||
  (name.startsWith(KIND_PREFIX) && EDIT_KIND_NAMES.has(name.slice(KIND_PREFIX.length))) ||
  (name.startsWith(FEATURE_PREFIX) && name.slice(FEATURE_PREFIX.length) in FEATURES);

/** An evidence name no longer (or never) computed: a calibration reading it would read 0 there, silently. */
const unknownEvidence =
  (known: Readonly<Record<string, string>>, detail: boolean) =>
  (c: { evidence: readonly string[] }, ctx: z.RefinementCtx) => {
    c.evidence.forEach((name, i) => {
      if (name in known || (detail && isDetail(name))) return;
      ctx.addIssue({
        code: 'custom',
        path: ['evidence', i],
        message: `\`${name}\` is not evidence this version computes; refit the calibration (refract calibrate)`,
      });
    });
  };

export const ScoreCalibrationSchema = z
  .object(scoreShape)
  .strict()
  .refine(sameLengths, SAME_LENGTHS)
  .superRefine(unknownEvidence(ALTERNATIVE_EVIDENCE, false));

export const CalibrationSchema = z
  .object({
    method: z
      .literal('logistic+isotonic')
      .describe('a logistic score of the standardised evidence, mapped to a probability by isotonic steps'),
    weights: z.string().describe('digest of the weights the calibration was fitted with (weightsDigest)'),
    ...scoreShape,
    alternatives: ScoreCalibrationSchema.optional().describe(
      'the confidence of the alternatives (`fixes`: fix 2, 3, …), read from ALTERNATIVE_EVIDENCE',
    ),
  })
  .strict()
  .refine(sameLengths, SAME_LENGTHS)
  .superRefine(unknownEvidence(EVIDENCE, true));

export type Calibration = z.infer<typeof CalibrationSchema>;
/** The score and steps of a calibration, without what ties it to weights: what `confidenceOf` reads. */
export type ScoreCalibration = z.infer<typeof ScoreCalibrationSchema>;

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
