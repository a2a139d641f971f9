/**
 * The request vocabulary: one zod schema per field, and the fields each kind of request (validate, fix,
 * compress, loop) takes. Every front end derives its shape from here: the HTTP bodies and `/openapi.json`
 * (src/server), the MCP tools' input (src/mcp), the CLI options (src/cli/request-flags.ts), the TypeScript
 * types below. Shapes the readers parse themselves (sequence, catalog, memory, mappings) are only coarsely
 * typed here: the readers name the offending field. The schemas carry no transforms, so they also describe
 * the JSON.
 */
import { z } from 'zod';
import { MODES, SOLVER_NAMES, STRICTNESS } from '../model/constants.ts';
import { FEEDBACK_FORMATS } from '../feedback/index.ts';
import { WHOLE_LABEL, LABEL_RULE } from '../read/references.ts';

const name = z.string().min(1).max(256);
const json = z.record(z.string(), z.unknown());

export const REQUEST_KINDS = ['validate', 'fix', 'compress', 'loop'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

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
  apis: z.array(name).optional().describe('goal: this API must be called'),
  fields: z.array(name).optional().describe('goal: this field must exist at the end'),
  steps: z
    .array(z.strictObject({ name, arguments: json }))
    .optional()
    .describe('goal: a call with these argument values'),
});

/** Where the sequence and the catalog come from; each front end takes the sources it can serve. */
const sources = {
  id: z.string().max(256).optional().describe('echoed in the result'),
  sequence: SequenceInputSchema,
  catalog: CatalogInputSchema.optional().describe('inline tool catalog'),
  catalogName: CatalogNameSchema.optional(),
  catalogPath: name.optional().describe('tool catalog file (NESTFUL spec or OpenAI tools JSON)'),
};

/** What a validation takes. */
const checking = {
  memory: z
    .union([json, z.array(z.unknown())])
    .optional()
    .describe('items already in memory: {label: value} or [{label, value}]'),
  executed: SequenceInputSchema.optional().describe(
    'the calls already executed, in order (any form the sequence takes): they count against maxTries, and a ' +
      'planned call repeating one whose result memory holds under its label may read that result instead',
  ),
  maxTries: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'most runs of one call (API and arguments), the executed calls included; a repair that cannot keep to ' +
        'it has status exhausted (default: no limit)',
    ),
  types: z.enum(STRICTNESS).optional().describe('literal type/enum checks (default warn)'),
  resultName: name
    .regex(WHOLE_LABEL, `expected a label: ${LABEL_RULE}`)
    .optional()
    .describe('name of the answer pseudo-step (default var_result)'),
};

/** What every repair takes (fix, compress, and the optimiser of the loop). */
const repairing = {
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
    .describe(
      'cost-model preset (default, compress, prefer-maps, ...), an inline cost model, or (CLI, MCP) a file ' +
        '(default: default; compress: compress)',
    ),
  weights: z.record(z.string(), z.number()).optional().describe('weight overrides, e.g. {"slotFill": 1}'),
  solver: z
    .enum(SOLVER_NAMES)
    .optional()
    .describe('solver backend (default portfolio: lp-solver on small models, HiGHS above)'),
  givenOnly: z.boolean().optional().describe('consider only APIs already used in the sequence'),
  allowInsert: z.boolean().optional().describe('allow inserting new calls (default true)'),
  timeout: z
    .number()
    .positive()
    .max(86_400)
    .optional()
    .describe(
      'time limit of the repair in seconds, compiling and solving (default 10; a server caps it below its request time limit)',
    ),
  goals: GoalsSchema.optional().describe('what the repair must reach (modes valid and optimal)'),
  mode: z
    .enum(MODES)
    .optional()
    .describe('sound (executability) | valid (plus goals) | optimal (cheapest meeting the goals)'),
  defensive: z.boolean().optional().describe('add a confirm pseudo-step for every value the repair invents'),
  minConfidence: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      'a repair less likely right than this (its confidence, 0..1) gets status uncertain, the repair kept and ' +
        'flagged (the loop and the agent hooks do not apply it); needs a calibrated cost model (default: none held back)',
    ),
  confidence: z
    .boolean()
    .optional()
    .describe(
      'read the repair’s calibrated confidence, a second solve (default true; false skips it and leaves confidence out)',
    ),
};

/** What a one-shot repair takes besides (fix, compress). */
const once = {
  fixes: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('return up to k distinct repairs in cost order'),
  heal: z
    .boolean()
    .optional()
    .describe('repair malformed argument JSON and coerce values before the optimiser (MCP: default true)'),
};

/** What the repair loop takes besides. */
const looping = {
  maxRounds: z.number().int().min(0).max(50).optional().describe('most rounds (default 10)'),
  stallLimit: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe('stop after this many rejected rounds in a row (default 2)'),
  feedback: z.enum(FEEDBACK_FORMATS).optional().describe('what the fixer is shown (default issues)'),
  escalate: z
    .boolean()
    .optional()
    .describe('widen the optimiser round by round: used APIs, whole catalog, new calls (default true)'),
};

/** Every field of the vocabulary, by name. */
export const REQUEST_FIELDS = { ...sources, ...checking, ...repairing, ...once, ...looping };
export type FieldName = keyof typeof REQUEST_FIELDS;

/** The fields each kind of request takes besides its sources. */
export const KIND_FIELDS = {
  validate: { ...checking },
  fix: { ...checking, ...repairing, ...once },
  compress: { ...checking, ...repairing, ...once },
  loop: { ...checking, ...repairing, ...looping },
} as const satisfies Record<RequestKind, z.ZodRawShape>;

/** The source fields: where the sequence, the catalog and the result's id come from. */
export const SOURCE_FIELDS = sources;

/** A whole request of one kind, every source included (front ends omit the sources they cannot serve). */
export function requestSchema<K extends RequestKind>(kind: K) {
  return z.strictObject({ ...sources, ...KIND_FIELDS[kind] });
}

export const ValidateRequestSchema = requestSchema('validate');
export const RepairRequestSchema = requestSchema('fix');
export const LoopRequestSchema = requestSchema('loop');

export type ValidateRequest = z.infer<typeof ValidateRequestSchema>;
export type RepairRequest = z.infer<typeof RepairRequestSchema>;
export type LoopRequest = z.infer<typeof LoopRequestSchema>;
/** A request of any kind: the fields a kind does not take are absent. */
export type ApiRequest = Partial<RepairRequest & LoopRequest>;
