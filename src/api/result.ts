/**
 * Response bodies of the HTTP API: the CLI's JSON results (src/api/render.ts, src/loop/report.ts) and the
 * server's own small documents. Used for `/openapi.json` and by tests to check what the server sends.
 */
import { z } from 'zod';
import { STATUSES } from '../model/constants.ts';

const json = z.record(z.string(), z.unknown());

export const StepSchema = z
  .object({ name: z.string(), arguments: json, label: z.string().optional() })
  .meta({ id: 'Step' });

export const IssueSchema = z
  .object({
    tag: z.string(),
    severity: z.enum(['error', 'warning']),
    step: z.number().int().min(1).describe('the step number, counted from 1'),
    param: z.string().optional(),
    ref: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: 'Issue' });

export const EditSchema = z
  .object({
    kind: z.string(),
    step: z
      .number()
      .int()
      .min(1)
      .describe('the step number, counted from 1 (an insertion: the step it goes before)'),
    param: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    cost: z.number(),
    detail: z.string(),
  })
  .meta({ id: 'Edit' });

export const ValidationJsonSchema = z
  .object({
    id: z.string().optional(),
    valid: z.boolean(),
    determination: z.boolean(),
    issues: z.array(IssueSchema),
  })
  .meta({ id: 'Validation' });

export const RepairJsonSchema = z
  .object({
    id: z.string().optional(),
    determination: z
      .boolean()
      .nullable()
      .describe('true = executable as given, false = not (a repair follows), null = undecided'),
    status: z.enum(STATUSES),
    sequence: z.array(StepSchema),
    edits: z.array(EditSchema),
    cost: z.number(),
    optimal: z.boolean(),
    issues: z.array(IssueSchema),
    diff: z.string(),
    solver: z.string(),
    timeMs: z.number(),
    isExecutable: z
      .boolean()
      .optional()
      .describe(
        'true when the sequence may run as it stands: no ask or confirm step, no call over maxTries, no call of the input dropped (partial), not held back as uncertain',
      ),
    dropped: z
      .array(z.object({ step: z.number().int(), name: z.string(), reason: z.string() }))
      .optional()
      .describe('status partial: the input calls that could not be kept, and why'),
    exhausted: z
      .array(
        z.object({
          step: z.number().int(),
          name: z.string(),
          tries: z.number().int(),
          executed: z.number().int(),
        }),
      )
      .optional()
      .describe('status exhausted: the calls that would run more often than maxTries allows'),
    reason: z.string().optional(),
    gap: z.number().optional(),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        'calibrated probability that the repair is the intended plan (a calibrated cost model): 1 for a valid input, 0 for a partial repair',
      ),
    heal: z
      .array(
        z.object({
          kind: z.enum(['repairJson', 'unpackJson', 'coerce']),
          step: z.number().int(),
          param: z.string().optional(),
          from: z.string(),
          to: z.string(),
          cost: z.number(),
          detail: z.string(),
        }),
      )
      .optional()
      .describe('the arguments healed before the repair (heal: true), as JSON text before and after'),
    model: z.object({ vars: z.number(), rows: z.number() }).optional(),
    fixes: z
      .array(
        z.object({
          sequence: z.array(StepSchema),
          edits: z.array(EditSchema),
          cost: z.number(),
          confidence: z
            .number()
            .min(0)
            .max(1)
            .optional()
            .describe('calibrated probability that this fix is the intended plan'),
        }),
      )
      .optional(),
  })
  .meta({ id: 'RepairResult' });

export const LoopJsonSchema = z
  .object({
    id: z.string().optional(),
    sequence: z.array(StepSchema),
    rounds: z.number().int(),
    accepted: z.number().int(),
    stalled: z.number().int(),
    history: z.array(z.number().int()).describe('issue count before the first round and after each'),
    stop: z.enum(['solved', 'stalled', 'max-rounds']),
    leftover: z.array(IssueSchema),
    check: z.object({ pass: z.boolean(), reason: z.string().optional() }).optional(),
    log: z.array(
      z.object({
        round: z.number().int(),
        accepted: z.boolean(),
        reason: z.string(),
        candidateIssues: z.number().int().optional(),
        issues: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'LoopResult' });

export const ErrorSchema = z
  .object({
    error: z.string(),
    field: z.string().nullable().optional().describe('the request field at fault (4xx)'),
    status: z.enum(['timeout', 'error']).optional(),
    determination: z.null().optional().describe('5xx: the sequence was not decided'),
    reason: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const CatalogInfoSchema = z
  .object({ name: z.string(), apis: z.number().int(), version: z.number().int() })
  .meta({ id: 'CatalogInfo' });

export const CatalogListSchema = z
  .object({ catalogs: z.array(CatalogInfoSchema) })
  .meta({ id: 'CatalogList' });

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    uptimeS: z.number(),
    inflight: z.number().int(),
    maxInflight: z.number().int(),
    workers: z.object({
      size: z.number().int(),
      ready: z.number().int(),
      busy: z.number().int(),
      queued: z.number().int(),
      replaced: z.number().int(),
    }),
    catalogs: z.number().int(),
  })
  .meta({ id: 'Health' });

export type ErrorJson = z.infer<typeof ErrorSchema>;
export type CatalogInfo = z.infer<typeof CatalogInfoSchema>;
export type HealthJson = z.infer<typeof HealthSchema>;
