/**
 * The cost model: a weight per feature (`src/model/features.ts`: edit kinds, evidence, closeness), the named
 * evidence scores that feature values are computed with, the bounds on candidate generation, and the knobs
 * that shape it. Every number that decides a repair is one of these; presets live in `models/*.json` and
 * are validated by `CostModelSchema`. A file may leave out any weight, score or bound: it then takes the
 * hand-written model's value.
 */
import { z } from 'zod';
import { CalibrationSchema } from './calibration.ts';
import { FEATURES, FEATURE_NAMES, type FeatureName } from './features.ts';

const weight = z.number().finite().min(0).max(1e6);

export const WeightsSchema = z
  .object(
    Object.fromEntries(
      FEATURE_NAMES.map((name) => [
        name,
        weight.default(FEATURES[name].hand).describe(FEATURES[name].meaning),
      ]),
    ) as Record<FeatureName, z.ZodDefault<z.ZodNumber>>,
  )
  .strict();

/**
 * Overrides of some weights (`--weight`, a request's `weights`): the same names and bounds, no defaults, so a
 * weight not given keeps the model's own value (a schema default would put back the hand-written one).
 */
export const WeightOverridesSchema = z
  .object(
    Object.fromEntries(FEATURE_NAMES.map((name) => [name, weight.optional()])) as Record<
      FeatureName,
      z.ZodOptional<typeof weight>
    >,
  )
  .strict();

const score = (value: number, meaning: string) =>
  z.number().finite().min(0).max(1).default(value).describe(meaning);

/**
 * Evidence scores: how strongly one kind of evidence says that a field stands for another name (a match in
 * [0, 1]; a re-pointed reference costs `dissimilarity × (1 − match)` of its best evidence).
 */
export const EvidenceSchema = z
  .object({
    sameLeaf: score(0.99, 'a field of the broken one’s leaf under another path'),
    genericLeaf: score(
      0.45,
      'the same, where that leaf is a generic name (`data`, `results`): little evidence of the field meant (`doctorId = $var2.data.data$` is `data.doctorId`, not the whole `data`); below `minSimilarity`, such a field must also fit the parameter’s declared type',
    ),
    soleField: score(0.6, 'a producer’s only field that can feed the parameter (the label was right)'),
    alikeFeed: score(0.9, 'the field another call of the plan reads into a parameter of the same name'),
    keyedField: score(0.85, 'a top-level field the answer key reading the producer or the consumer spells'),
    keyNamesCall: score(0.5, 'share of an answer key’s words a call’s API name must cover to be named by it'),
    shortenedField: score(0.8, 'the broken field’s words end the field’s (`rating` for `averageRating`)'),
    describedField: score(
      0.8,
      'a field beside the broken one whose name the parameter’s description uses (`location.name` for `q`, "… city name e.g.: q=Paris …")',
    ),
    mappingCap: score(0.95, 'a mapping’s score counts at most this much as a match of the field'),
    paramSimilarity: score(
      0.85,
      'a field named like the parameter counts this share of the names’ similarity',
    ),
    depthPenalty: score(0.01, 'match lost per key a field sits below the top of its output'),
    contextBonus: score(0.001, 'match gained by a field that stands for the parameter in context'),
    compoundSuffix: score(
      0.9,
      'a compound field name that ends the parameter’s (`entityId` for `originEntityId`)',
    ),
    entitySuffix: score(
      0.85,
      'a one-word field whose producer names the parameter’s entity (`id` of search_artist)',
    ),
    describedId: score(
      0.9,
      'the identifier field of the entity a parameter’s description names ("Which airport"); above a name mapping’s score, which rises with the catalog (`the_name_of_the_customer` for "Which customer.": 0.79 among 38 APIs, 0.87 among 10,000)',
    ),
    keyOutputBonus: score(
      0.25,
      'an answer key that is one of an API’s outputs’ own names adds this to its coverage',
    ),
    minKeyCoverage: score(
      0.5,
      'a whole output alone names its API only when the name covers this share of its key',
    ),
    keyNamesLostCall: score(
      1,
      'a lost call read through fields some API outputs is also offered as an API whose name covers this share of an answer key it is shown under, where none of those APIs is named so (convert_currency for `converted_currency = $var1$` among the thousands that output the `id` read)',
    ),
    headlineCoverage: score(
      0.5,
      'an unread field is its API’s headline result when the API’s name covers this share of its words',
    ),
    nameEvidenceSimilarity: score(
      0.75,
      'a field and a parameter this alike by characters are named alike (`pateint_id` / `patient_id`): evidence for a link',
    ),
    strangerFamily: score(0.5, 'an API this unlike every call of the plan is of another family'),
    restoreFieldShare: score(
      0.5,
      'a restored API must output at least this share of the deleted step’s fields',
    ),
  })
  .strict();

/**
 * How the catalog's own mappings are scored (`src/catalog/mapping-sides.ts`): a noisy-or of name likeness,
 * description likeness and the input's description naming the field, scaled by how well the types fit; the
 * pairs at or above `threshold` are kept, the best `top` per input parameter.
 */
export const MappingScoringSchema = z
  .object({
    threshold: score(0.6, 'computed pairs scoring below this are no mappings'),
    top: z.number().int().min(1).max(100).default(3).describe('computed sources kept per input parameter'),
    nameWeight: score(0.8, 'how much name likeness (cosine of IDF-weighted name words) counts'),
    descriptionWeight: score(
      0.55,
      'how much description likeness counts (also the most a pair scores without a shared name word)',
    ),
    headMismatch: score(0.6, 'name likeness kept when the last words differ (`author` is no `authorID`)'),
    modifierContrast: score(
      0.5,
      'likeness kept when the names differ only by a modifier (`check_in`/`check_out`)',
    ),
    mentionCompound: score(0.7, 'evidence of a compound field name written in the input’s description'),
    mentionWord: score(0.35, 'evidence of a one-word field name written in the input’s description'),
    rarityFloor: score(
      0.5,
      'a field name rarer than this (IDF share) starts to count when written in a description',
    ),
    rarityRange: z
      .number()
      .finite()
      .min(0.01)
      .max(1)
      .default(0.3)
      .describe('over this much more rarity a written name counts fully'),
    outputCandidates: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(512)
      .describe(
        'outputs scored for one parameter at most: where more share a word with it (`id`, `name` in a large catalog), those sharing the rarest words (a bound on the work, not a price)',
      ),
    inputSides: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(16)
      .describe(
        'readings of one parameter name scored at most (its parameters grouped by type and description words), those standing for the most APIs first (a bound on the work, not a price)',
      ),
    typeScalar: score(0.85, 'type fit of two different scalar types'),
    typeMixed: score(0.6, 'type fit of a scalar and a structured type'),
    typeStructured: score(0.8, 'type fit of two different structured types'),
  })
  .strict();

const bound = (value: number, max: number, meaning: string) =>
  z.number().int().min(0).max(max).default(value).describe(meaning);

/** Bounds on candidate generation: they keep a model small; weights, not bounds, decide between candidates. */
export const BoundsSchema = z
  .object({
    fillsPerParameter: bound(
      12,
      1000,
      'sources besides `ask` per required parameter: the cheapest, and as many more that are cheapest counting what putting their call in costs (an inserted lookup among strangers whose output is named alike)',
    ),
    reassignPerReference: bound(
      8,
      1000,
      're-pointing options per broken reference (the cheapest, with `reassignOwnLabel` of its own label among them)',
    ),
    reassignOwnLabel: bound(
      2,
      1000,
      'options per broken reference that keep its own label (another field of the call it names), kept within `reassignPerReference` however cheap the other labels’ are: in a large catalog the inserted producers of a field of its name are many',
    ),
    linksPerParameter: bound(
      4,
      1000,
      'fields of other names linked by evidence alone per required parameter without an argument (the cheapest; the gold-constrained solve of fit and coverage holds every one)',
    ),
    copiesPerParameter: bound(
      4,
      1000,
      'literals passed under other names copied per required parameter without an argument (the cheapest; the gold-constrained solve holds every one)',
    ),
    restoreCandidates: bound(
      5,
      100,
      'APIs offered for one deleted step: the cheapest under the weights, the best evidence first among equals',
    ),
    askersPerReader: bound(4, 100, 'earlier asks whose answer one call may read (the nearest)'),
    apisTakingArguments: bound(
      3,
      100,
      'catalog APIs offered for a step whose API is unknown because they take every argument it passes, besides the `apiCandidates` most similar names when none of those takes them all (the most similar names among them): a made-up name keeps its arguments',
    ),
    argumentTakers: bound(
      50,
      100_000,
      'APIs taking every argument of a step whose API is unknown beyond which none is offered for that reason: arguments that many APIs take (`id`, `query` in a large catalog) say nothing of which API was meant',
    ),
    unreadFieldsPerCall: bound(
      2,
      100,
      'an unread call with more fields of the parameter’s type than this gives no evidence of which one',
    ),
    misspeltWord: bound(
      6,
      100,
      'a plan word this long or longer, read with one letter wrong, still relates an API to the plan (no stranger)',
    ),
    commonWordApis: bound(
      50,
      1_000_000,
      'a word of more API names than this (and than `commonWordShare` of them) relates nothing in that catalog: `track` in hundreds of names is no evidence that Track_Face belongs with Track_Order',
    ),
    commonWordShare: z
      .number()
      .finite()
      .min(0)
      .max(1)
      .default(0.02)
      .describe(
        'the share of a catalog’s API names a word must be in, besides more than `commonWordApis` of them, to relate nothing in it',
      ),
    labelFuzz: z
      .number()
      .finite()
      .min(0)
      .max(1)
      .default(0.34)
      .describe('a made-up label reads as another when their lexical distance is at most this'),
    optimalPerCall: z
      .number()
      .finite()
      .min(0)
      .max(1e6)
      .default(2)
      .describe('the price of a call in optimal mode when `perCall` is 0'),
  })
  .strict();

export const CostModelSchema = z
  .object({
    name: z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    weights: WeightsSchema,
    evidence: EvidenceSchema.default(EvidenceSchema.parse({})),
    bounds: BoundsSchema.default(BoundsSchema.parse({})),
    mappings: MappingScoringSchema.default(MappingScoringSchema.parse({})),
    calibration: CalibrationSchema.optional().describe(
      'maps a repair’s evidence to its confidence (refract calibrate); fitted for these weights',
    ),
    minSimilarity: z
      .number()
      .min(0)
      .max(1)
      .describe('a rename (API or parameter) is a candidate only at this name similarity or more'),
    apiCandidates: z
      .number()
      .int()
      .min(1)
      .max(100)
      .describe('catalog APIs considered for a step whose API is unknown (the most similar)'),
    insertDepth: z
      .number()
      .int()
      .min(0)
      .max(5)
      .describe('how deep inserted calls nest (an inserted call’s inputs may need inserted calls)'),
    insertLimit: z
      .number()
      .int()
      .min(0)
      .max(200)
      .describe(
        'inserted-call candidates in one model at most: the related producers of every need first, then the strangers, each in catalog order',
      ),
    /**
     * Keep every call of the input (sound and valid modes): a call is deleted only when it duplicates an
     * earlier one or no catalog API is close to its name (the result is then `partial`). False lets the
     * weights decide (`deleteStep`); optimal mode always may delete.
     */
    keepCalls: z
      .boolean()
      .default(true)
      .describe('keep every call of the input (sound, valid modes); false lets deleteStep decide'),
  })
  .strict();

export type Weights = z.infer<typeof WeightsSchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
export type Bounds = z.infer<typeof BoundsSchema>;
export type MappingScoring = z.infer<typeof MappingScoringSchema>;
export type CostModel = z.infer<typeof CostModelSchema>;
export type WeightName = keyof Weights;
