/**
 * Request bodies of the HTTP API. Shapes the adapters already read (sequence, catalog, memory, mappings)
 * are only coarsely typed here: the adapters parse them and name the offending field. These schemas also
 * generate `/openapi.json`, so they carry no transforms.
 */
import { SOLVER_NAMES } from '../solvers/index.ts';
import { z } from 'zod';
import { FEEDBACK_FORMATS } from '../feedback/index.ts';

const name = z.string().min(1).max(256);
const json = z.record(z.string(), z.unknown());

/** Catalog names are file names in `--catalog-dir`, so they are restricted to a safe alphabet. */
export const CATALOG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const CatalogNameSchema = z
  .string()
  .regex(CATALOG_NAME, 'expected 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .describe('name of a catalog registered with PUT /v1/catalogs/{name}');

export const SequenceInputSchema = z
  .union([z.string(), z.array(z.unknown()), json])
  .describe(
    'the tool-call sequence: NESTFUL steps, a NESTFUL sample {input, output}, OpenAI tool_calls (array, ' +
      'assistant message or chat completion), one call, or the string form as one string',
  );

export const CatalogInputSchema = z
  .union([z.array(z.unknown()), json])
  .describe('tool catalog: NESTFUL spec array, OpenAI tools, MCP tools, or {tools|apis|functions: [...]}');

export const GoalsSchema = z.strictObject({
  apis: z.array(name).optional().describe('APIs that must be called'),
  fields: z.array(z.string()).optional().describe('fields that must exist at the end'),
  steps: z
    .array(z.strictObject({ name, arguments: json }))
    .optional()
    .describe('calls that must be made with these argument values'),
});

const common = {
  id: z.string().max(256).optional().describe('echoed in the result'),
  sequence: SequenceInputSchema,
  catalog: CatalogInputSchema.optional().describe('inline catalog (give this or catalogName)'),
  catalogName: CatalogNameSchema.optional(),
  memory: z
    .union([json, z.array(z.unknown())])
    .optional()
    .describe('items already in memory: {label: value} or [{label, value}]'),
  types: z.enum(['off', 'warn', 'strict']).optional().describe('literal type/enum checks (default warn)'),
  resultName: name.optional().describe('name of the answer pseudo-step (default var_result)'),
};

const repairFields = {
  mappings: z
    .union([z.array(z.unknown()), json])
    .optional()
    .describe('mapping table: [{from, to, score}] or {to: [from, ...]}'),
  catalogMappings: z
    .boolean()
    .optional()
    .describe('compute mappings from the catalog itself and use them under `mappings` (default true)'),
  costModel: z
    .union([z.string(), json])
    .optional()
    .describe('cost-model preset name (default, compress, prefer-maps, ...) or an inline cost model'),
  weights: z.record(z.string(), z.number()).optional().describe('weight overrides, e.g. {"slotFill": 1}'),
  solver: z.enum(SOLVER_NAMES).optional().describe('default highs'),
  givenOnly: z.boolean().optional().describe('consider only APIs already used in the sequence'),
  allowInsert: z.boolean().optional().describe('allow inserting new calls (default true)'),
  timeout: z
    .number()
    .positive()
    .max(86_400)
    .optional()
    .describe('solver time limit in seconds (capped below the server request time limit)'),
  goals: GoalsSchema.optional(),
  mode: z.enum(['sound', 'valid', 'optimal']).optional(),
  defensive: z.boolean().optional().describe('confirm every value the repair invents'),
};

export const ValidateRequestSchema = z.strictObject(common).meta({ id: 'ValidateRequest' });

export const RepairRequestSchema = z
  .strictObject({
    ...common,
    ...repairFields,
    fixes: z.number().int().min(1).max(20).optional().describe('return up to this many distinct repairs'),
  })
  .meta({ id: 'RepairRequest' });

export const LoopRequestSchema = z
  .strictObject({
    ...common,
    ...repairFields,
    maxRounds: z.number().int().min(0).max(50).optional().describe('most rounds (default 10)'),
    stallLimit: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe('stop after this many rejected rounds in a row (default 2)'),
    feedback: z.enum(FEEDBACK_FORMATS).optional().describe('feedback format of the rounds (default issues)'),
    escalate: z
      .boolean()
      .optional()
      .describe('widen the optimiser round by round: used APIs, whole catalog, new calls (default true)'),
  })
  .meta({ id: 'LoopRequest' });

export type ValidateRequest = z.infer<typeof ValidateRequestSchema>;
export type RepairRequest = z.infer<typeof RepairRequestSchema>;
export type LoopRequest = z.infer<typeof LoopRequestSchema>;
