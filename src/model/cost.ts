/**
 * The cost model: one weight per edit kind plus the knobs that shape candidate generation. Every weight
 * is a parameter; presets live in `models/*.json` and are validated by `CostModelSchema`.
 */
import { z } from 'zod';

const weight = z.number().finite().min(0).max(1e6);

export const WeightsSchema = z
  .object({
    deleteStep: weight.describe('remove a call; its arguments are lost too (each charged as dropParam)'),
    renameApi: weight.describe('call another catalog API at a step; scaled up by name dissimilarity'),
    renameParam: weight.describe('keep a value, change its parameter name; scaled up by dissimilarity'),
    dropParam: weight.describe('remove an argument the API does not accept (or lost with its step)'),
    dropResult: weight.describe('remove a reference from the answer pseudo-step (var_result)'),
    reassign: weight.describe(
      'point a reference at another existing output, or fill a parameter from an output of its own name',
    ),
    newMap: weight.describe('fill a parameter from an output of another name through the mapping table'),
    slotFill: weight.describe('ask(p): the value must come from the user'),
    fromMemory: weight.describe('fill a parameter from an item already in memory'),
    reuseLiteral: weight.describe(
      'fill a parameter with a value the sequence passes to a same-named parameter: a literal, or a reference to an output',
    ),
    insertCall: weight.describe('add a new catalog call (its own inputs are charged as well)'),
    restoreStep: weight
      .default(2)
      .describe(
        'put back a deleted step: a catalog call under a label that is referenced but defined nowhere, whose referenced fields it outputs (its inputs are charged as well)',
      ),
    askProduced: weight
      .default(1)
      .describe(
        'asking for a value some catalog API outputs (an id, or a value the plan took from an output) also costs this times inserting that API with its inputs asked, so the call goes in rather than the question (0: off)',
      ),
    unreadOutput: weight
      .default(3)
      .describe(
        'fill a parameter that has no argument from a field of another name, of the same declared type, of an earlier call whose output no other call reads (only the answer, or nothing)',
      ),
    relabel: weight.describe('change the output label of a step'),
    addLabel: weight.describe('give an unlabelled step a label'),
    moveStep: weight.describe('move a call earlier so its output exists before it is used'),
    confirm: weight.describe('defensive mode: confirm a value the repair invented'),
    perCall: weight.describe(
      'cost of every call kept or added, in any mode (optimal mode uses 2 when this is 0): unnecessary calls go',
    ),
    dissimilarity: weight.describe('extra cost per unit of name dissimilarity (1 - similarity) on renames'),
    tieBreak: weight.describe('tiny cost per unit of lexical distance, so ties break by closeness'),
  })
  .strict();

export const CostModelSchema = z
  .object({
    name: z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    weights: WeightsSchema,
    /** Renames below this name similarity are not candidates. */
    minSimilarity: z.number().min(0).max(1),
    /** How many catalog APIs to consider per step (by name and argument overlap). */
    apiCandidates: z.number().int().min(1).max(100),
    /** Maximum depth of inserted calls (an inserted call's inputs may need inserted calls). */
    insertDepth: z.number().int().min(0).max(5),
    /** Maximum number of inserted-call candidates in one model. */
    insertLimit: z.number().int().min(0).max(200),
    /**
     * Keep every call of the input (sound and valid modes): a call is deleted only when it duplicates an
     * earlier one or no catalog API is close to its name (the result is then `partial`). False lets the
     * weights decide (`deleteStep`); optimal mode always may delete.
     */
    keepCalls: z.boolean().default(true),
  })
  .strict();

export type Weights = z.infer<typeof WeightsSchema>;
export type CostModel = z.infer<typeof CostModelSchema>;
export type WeightName = keyof Weights;
