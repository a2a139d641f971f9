/**
 * Request bodies → library calls. Every problem is an `InputError` naming the request field
 * (`solver`, `sequence[2].name`, `weights.slotFill`), which the server answers with 400.
 */
import type { z } from 'zod';
import { InputError, describeZodError, formatPath } from '../model/errors.ts';
import { parseMappings } from '../read/mappings.ts';
import { parseMemory } from '../read/memory.ts';
import { parseSequence } from '../read/sequence.ts';
import type { CostModel } from '../model/cost.ts';
import { WeightsSchema } from '../model/cost.ts';
import { loadCostModel, parseCostModel, presetNames, withWeights } from '../read/cost-models.ts';
import type { Sequence } from '../model/types.ts';
// Bodies are parsed JSON, so their unknown values are JSON values.
import type { Goals, RepairOptions, ValidateOptions } from '../model/options.ts';
import {
  LoopRequestSchema,
  RepairRequestSchema,
  ValidateRequestSchema,
  type RepairRequest,
  type ValidateRequest,
} from '../api/request.ts';
import { DEFAULT_TIME_LIMIT } from '../solvers/index.ts';
import type { CatalogStore, ResolvedCatalog } from './catalogs.ts';
import type { Job, LoopJob, RepairJob } from './jobs.ts';

/** Parses a body with a schema; the first problem becomes an InputError naming its field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  if (first?.code === 'unrecognized_keys') {
    const path = first.path as (string | number)[];
    throw new InputError(formatPath([...path, first.keys[0]]), 'unknown field');
  }
  const { field, problem } = describeZodError(parsed.error);
  // zod calls a JSON object a record.
  throw new InputError(field === '' ? 'body' : field, problem.replace(/\brecord\b/g, 'object'));
}

export interface Prepared<J> {
  readonly catalog: ResolvedCatalog;
  readonly job: J;
}

export interface ValidateCall {
  readonly catalog: ResolvedCatalog;
  readonly id?: string;
  readonly sequence: Sequence;
  readonly options: ValidateOptions;
}

function commonParts(body: ValidateRequest, store: CatalogStore) {
  const catalog = store.resolve(body.catalogName, body.catalog);
  const resultName = body.resultName;
  const sequence = parseSequence(body.sequence, { root: 'sequence', resultName });
  const options: ValidateOptions = {
    ...(body.memory !== undefined ? { memory: parseMemory(body.memory, 'memory') } : {}),
    ...(body.types !== undefined ? { types: body.types } : {}),
    ...(resultName !== undefined ? { resultName } : {}),
  };
  return { catalog, sequence, options };
}

export function prepareValidate(body: unknown, store: CatalogStore): ValidateCall {
  const request = parseBody(ValidateRequestSchema, body);
  return { ...commonParts(request, store), id: request.id };
}

function costModel(request: RepairRequest, fallback: string): CostModel {
  const given = request.costModel ?? fallback;
  let model: CostModel;
  if (typeof given === 'string') {
    // Only presets: a server must not read files named by its clients.
    const names = presetNames();
    if (!names.includes(given)) {
      throw new InputError(
        'costModel',
        `no preset named ${JSON.stringify(given)} (presets: ${names.join(', ')})`,
      );
    }
    model = loadCostModel(given);
  } else {
    model = parseCostModel(given, 'costModel');
  }
  if (!request.weights) return model;
  const known = Object.keys(WeightsSchema.shape);
  for (const name of Object.keys(request.weights)) {
    if (!known.includes(name))
      throw new InputError(`weights.${name}`, `unknown weight (known: ${known.join(', ')})`);
  }
  try {
    return withWeights(model, request.weights);
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(error.field.replace(/^weight/, 'weights'), error.problem);
    throw error;
  }
}

export interface RepairDefaults {
  /** Solver time limits are capped at this many seconds, so they end before the request's time limit. */
  readonly solverCapS: number;
  /** Cost preset when the request names none (default `default`). */
  readonly costModel?: string;
  /** Forced options (compress forces `mode: 'optimal'`). */
  readonly force?: Pick<RepairOptions, 'mode'>;
}

function repairParts(request: RepairRequest, store: CatalogStore, defaults: RepairDefaults) {
  const { catalog, sequence, options: base } = commonParts(request, store);
  const options: RepairOptions = {
    ...base,
    cost: costModel(request, defaults.costModel ?? 'default'),
    ...(request.mappings !== undefined ? { mappings: parseMappings(request.mappings, 'mappings') } : {}),
    ...(request.catalogMappings !== undefined ? { catalogMappings: request.catalogMappings } : {}),
    ...(request.solver !== undefined ? { solver: request.solver } : {}),
    ...(request.givenOnly !== undefined ? { givenOnly: request.givenOnly } : {}),
    ...(request.allowInsert !== undefined ? { allowInsert: request.allowInsert } : {}),
    ...(request.goals !== undefined ? { goals: request.goals as Goals } : {}),
    ...(request.mode !== undefined ? { mode: request.mode } : {}),
    ...(request.defensive !== undefined ? { defensive: request.defensive } : {}),
    ...(request.fixes !== undefined ? { fixes: request.fixes } : {}),
    ...defaults.force,
    timeout: Math.min(request.timeout ?? DEFAULT_TIME_LIMIT, defaults.solverCapS),
  };
  return { catalog, sequence, options };
}

export function prepareRepair(
  body: unknown,
  store: CatalogStore,
  defaults: RepairDefaults,
): Prepared<RepairJob> {
  const request = parseBody(RepairRequestSchema, body);
  const { catalog, sequence, options } = repairParts(request, store, defaults);
  return { catalog, job: { kind: 'repair', id: request.id, sequence, options } };
}

export function prepareLoop(body: unknown, store: CatalogStore, defaults: RepairDefaults): Prepared<LoopJob> {
  const request = parseBody(LoopRequestSchema, body);
  const { catalog, sequence, options } = repairParts(request, store, defaults);
  const job: LoopJob = {
    kind: 'loop',
    id: request.id,
    sequence,
    options,
    maxRounds: request.maxRounds,
    stallLimit: request.stallLimit,
    feedback: request.feedback,
    escalate: request.escalate,
  };
  return { catalog, job };
}

export type { Job };
