/**
 * The library's edge. The entry points `src/index.ts` exports check their arguments here and throw an
 * `InputError` naming the argument (`catalog`, `options.mode`, `sequence[2].name`), then call the pure
 * core unchanged. Options are checked with the request vocabulary's own schemas (src/api/request.ts), goals
 * against the catalog (`checkGoals`). The front ends check a request once, through `requestSettings`, and
 * call the core directly, so a batch record pays nothing here.
 */
import { z } from 'zod';
import type { Catalog, Memory, Sequence, Step } from '../model/types.ts';
import type { RepairOptions, RepairResult, Validation } from '../model/options.ts';
import type { CostModel } from '../model/cost.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { isPlainObject, kindOf } from '../read/json.ts';
import { parseMappings } from '../read/mappings.ts';
import { parseMemory } from '../read/memory.ts';
import { parseCostModel, withWeights as withWeightsCore } from '../read/cost-models.ts';
import { validate as validateCore } from '../validate/validate.ts';
import { repair as repairCore } from '../repair/repair.ts';
import { compress as compressCore, compressOptions as compressOptionsCore } from '../repair/compress.ts';
import { checkStep as checkStepCore, memoryFromCalls as memoryFromCallsCore } from '../repair/step.ts';
import { scoreRepair as scoreRepairCore, type RepairVerdict, type ScoreInput } from '../score/index.ts';
import { heal as healCore } from '../heal/index.ts';
import type { Healed, HealOptions } from '../heal/types.ts';
import { REQUEST_FIELDS } from './request.ts';
import { checkWeights } from './call.ts';
import { checkGoals } from './goals.ts';

const count = z.number().int().positive().optional();

/** The library's options: the request fields they share, in their parsed form, and the library's own. */
const OptionsSchema = z.looseObject({
  types: REQUEST_FIELDS.types,
  resultName: REQUEST_FIELDS.resultName,
  catalogMappings: REQUEST_FIELDS.catalogMappings,
  solver: REQUEST_FIELDS.solver,
  givenOnly: REQUEST_FIELDS.givenOnly,
  allowInsert: REQUEST_FIELDS.allowInsert,
  timeout: REQUEST_FIELDS.timeout,
  mode: REQUEST_FIELDS.mode,
  defensive: REQUEST_FIELDS.defensive,
  fixes: REQUEST_FIELDS.fixes,
  pseudoSteps: z.boolean().optional(),
  deadline: z.number().finite().optional(),
  signal: z.instanceof(AbortSignal).optional(),
  backend: z
    .custom<object>(
      (v) => typeof v === 'object' && v !== null && typeof (v as { solve?: unknown }).solve === 'function',
      'expected a solver backend (an object with a solve method)',
    )
    .optional(),
  maxModelVars: count,
  maxModelNonzeros: count,
});

const HealOptionsSchema = z.looseObject({
  repairJson: z.boolean().optional(),
  unpackJson: z.boolean().optional(),
  coerce: z.boolean().optional(),
  weights: z.record(z.string(), z.number().finite().min(0)).optional(),
  resultName: REQUEST_FIELDS.resultName,
});

/** A parsed catalog (from `loadCatalog` or `parseCatalog`), not its JSON. */
export function catalogArgument(value: unknown, name = 'catalog'): Catalog {
  if (isPlainObject(value) && Array.isArray(value.apis)) return value as unknown as Catalog;
  const hint = Array.isArray(value) || isPlainObject(value) ? ': parse its JSON with parseCatalog first' : '';
  throw new InputError(
    name,
    `expected a catalog from loadCatalog or parseCatalog, received ${kindOf(value)}${hint}`,
  );
}

/** One parsed step: a name, an arguments object, an optional label. */
export function stepArgument(value: unknown, name: string): Step {
  if (!isPlainObject(value)) throw new InputError(name, `expected a step, received ${kindOf(value)}`);
  if (typeof value.name !== 'string')
    throw new InputError(`${name}.name`, `expected string, received ${kindOf(value.name)}`);
  if (!isPlainObject(value.arguments))
    throw new InputError(`${name}.arguments`, `expected object, received ${kindOf(value.arguments)}`);
  if (value.label !== undefined && typeof value.label !== 'string')
    throw new InputError(`${name}.label`, `expected string, received ${kindOf(value.label)}`);
  return value as unknown as Step;
}

/** A parsed sequence (from `parseSequence`): an array of steps. */
export function sequenceArgument(value: unknown, name = 'sequence'): Sequence {
  if (!Array.isArray(value))
    throw new InputError(
      name,
      `expected a sequence (an array of steps; parseSequence reads any form), received ${kindOf(value)}`,
    );
  value.forEach((step, i) => stepArgument(step, `${name}[${i}]`));
  return value as Sequence;
}

/** Options checked and normalised (memory, mappings and cost model in their parsed form). */
export function optionsArgument<T extends RepairOptions>(
  value: unknown,
  catalog: Catalog,
  name = 'options',
): T {
  if (value === undefined) return {} as T;
  if (!isPlainObject(value)) throw new InputError(name, `expected object, received ${kindOf(value)}`);
  parseAt(OptionsSchema, value, [name]);
  const options = value as unknown as T;
  const normal: { -readonly [K in keyof RepairOptions]?: RepairOptions[K] } = {};
  if (options.memory !== undefined) normal.memory = parseMemory(options.memory, `${name}.memory`) as Memory;
  if (options.mappings !== undefined) normal.mappings = parseMappings(options.mappings, `${name}.mappings`);
  if (options.cost !== undefined) normal.cost = parseCostModel(options.cost, `${name}.cost`);
  if (options.goals !== undefined) normal.goals = checkGoals(options.goals, catalog, `${name}.goals`);
  return Object.keys(normal).length === 0 ? options : { ...options, ...normal };
}

type Arguments = [sequence: Sequence, catalog: Catalog, options?: RepairOptions];

/** A core function of (sequence, catalog, options) behind the edge's checks of its three arguments. */
function checked<R>(core: (sequence: Sequence, catalog: Catalog, options: RepairOptions) => R) {
  return (...[sequence, catalog, options]: Arguments): R => {
    const parsed = catalogArgument(catalog);
    return core(sequenceArgument(sequence), parsed, optionsArgument(options, parsed));
  };
}

export const validate: (...args: Arguments) => Validation = checked(validateCore);
// Async, so that a bad argument rejects the promise as a failed repair would.
export const repair = async (...args: Arguments): Promise<RepairResult> => checked(repairCore)(...args);
export const compress = async (...args: Arguments): Promise<RepairResult> => checked(compressCore)(...args);
export const compressOptions = checked(compressOptionsCore);

export async function checkStep(
  call: Step,
  catalog: Catalog,
  options?: RepairOptions & { readonly executed?: Sequence },
): ReturnType<typeof checkStepCore> {
  const checked = catalogArgument(catalog);
  const opts = optionsArgument<RepairOptions & { readonly executed?: Sequence }>(options, checked);
  if (opts.executed !== undefined) sequenceArgument(opts.executed, 'options.executed');
  return checkStepCore(stepArgument(call, 'call'), checked, opts);
}

export function memoryFromCalls(executed: Sequence, catalog: Catalog): Memory {
  return memoryFromCallsCore(sequenceArgument(executed, 'executed'), catalogArgument(catalog));
}

export function withWeights(model: CostModel, overrides: Partial<Record<string, number>>): CostModel {
  const parsed = parseCostModel(model, 'model');
  if (!isPlainObject(overrides))
    throw new InputError('overrides', `expected object, received ${kindOf(overrides)}`);
  return withWeightsCore(parsed, checkWeights(overrides as Record<string, number>, 'overrides'));
}

export function heal(input: unknown, catalog: Catalog, options?: HealOptions): Healed {
  const checked = catalogArgument(catalog);
  if (options !== undefined) parseAt(HealOptionsSchema, options, ['options']);
  return healCore(input, checked, options);
}

const ScoreSchema = z.looseObject({
  input: z.array(z.unknown()),
  gold: z.array(z.unknown()),
  repaired: z.array(z.unknown()).nullable(),
});

export function scoreRepair(input: ScoreInput): RepairVerdict {
  parseAt(ScoreSchema, input, ['input']);
  sequenceArgument(input.input, 'input.input');
  sequenceArgument(input.gold, 'input.gold');
  if (input.repaired !== null) sequenceArgument(input.repaired, 'input.repaired');
  return scoreRepairCore(input);
}
