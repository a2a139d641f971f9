/**
 * The MCP tools `validate`, `fix` and `compress`: their input shapes (zod, as the MCP SDK takes them) and
 * their handlers, pure apart from reading a catalog file named by `catalogPath`.
 */
import { LRUCache } from 'lru-cache';
import { SOLVER_NAMES } from '../solvers/index.ts';
import { z } from 'zod';
import { loadCatalog, parseCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import { parseMemory } from '../read/memory.ts';
import { parseSequence } from '../read/sequence.ts';
import { resultJson, validationJson } from '../api/render.ts';
import { loadCostModel, withWeights } from '../read/cost-models.ts';
import type { Catalog } from '../model/types.ts';
import { heal } from '../heal/index.ts';
import { repair } from '../repair/repair.ts';
import type { RepairOptions } from '../model/options.ts';
import { validate } from '../validate/validate.ts';

export const validateInput = {
  sequence: z
    .unknown()
    .describe('the tool calls: NESTFUL steps, OpenAI tool_calls, an assistant message, or the string form'),
  catalog: z.unknown().optional().describe('inline tool catalog (NESTFUL spec or OpenAI tools)'),
  catalogPath: z.string().optional().describe('path of a catalog JSON file'),
  memory: z.unknown().optional().describe('items already in memory: {label: output}'),
  types: z.enum(['off', 'warn', 'strict']).optional().describe('literal type/enum checks (default warn)'),
  resultName: z.string().optional().describe('name of the answer pseudo-step (default var_result)'),
};

export const fixInput = {
  ...validateInput,
  costModel: z.string().optional().describe('cost-model preset (default, prefer-maps, ...) or file'),
  weights: z.record(z.string(), z.number()).optional().describe('weight overrides, e.g. {"slotFill": 1}'),
  solver: z.enum(SOLVER_NAMES).optional(),
  givenOnly: z.boolean().optional().describe('only APIs already used in the sequence'),
  catalogMappings: z.boolean().optional().describe('compute mappings from the catalog itself (default true)'),
  allowInsert: z.boolean().optional().describe('allow inserting new calls (default true)'),
  timeout: z.number().positive().max(86_400).optional().describe('solve time limit in seconds'),
  heal: z
    .boolean()
    .optional()
    .describe('repair malformed argument JSON and coerce values first (default true)'),
};

export const compressInput = {
  ...fixInput,
  goals: z
    .object({ apis: z.array(z.string()).optional(), fields: z.array(z.string()).optional() })
    .optional()
    .describe('what must remain: APIs that must be called, fields that must exist at the end'),
};

type Args<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

export interface ToolDefaults {
  /** Catalog used when a call names none. */
  readonly catalog?: Catalog;
}

/** Catalog files read so far, by path (bounded: a client may name many files). */
const catalogCache = new LRUCache<string, Catalog>({ max: 16 });

function catalogOf(args: Args<typeof validateInput>, defaults: ToolDefaults): Catalog {
  if (args.catalog !== undefined) return parseCatalog(args.catalog);
  if (args.catalogPath !== undefined) {
    let catalog = catalogCache.get(args.catalogPath);
    if (!catalog) catalogCache.set(args.catalogPath, (catalog = loadCatalog(args.catalogPath)));
    return catalog;
  }
  if (defaults.catalog) return defaults.catalog;
  throw new InputError('catalog', 'required: an inline catalog or a catalogPath (the server has no default)');
}

export function validateTool(args: Args<typeof validateInput>, defaults: ToolDefaults = {}): object {
  const catalog = catalogOf(args, defaults);
  const sequence = parseSequence(args.sequence, { resultName: args.resultName });
  const memory = args.memory === undefined ? undefined : parseMemory(args.memory);
  return validationJson(
    validate(sequence, catalog, { memory, types: args.types, resultName: args.resultName }),
  );
}

async function repairTool(
  args: Args<typeof compressInput>,
  defaults: ToolDefaults,
  compress: boolean,
): Promise<object> {
  const catalog = catalogOf(args, defaults);
  const healed =
    args.heal === false ? undefined : heal(args.sequence, catalog, { resultName: args.resultName });
  const sequence = healed?.sequence ?? parseSequence(args.sequence, { resultName: args.resultName });
  let cost = loadCostModel(args.costModel ?? (compress ? 'compress' : 'default'));
  if (args.weights) cost = withWeights(cost, args.weights);
  const options: RepairOptions = {
    cost,
    memory: args.memory === undefined ? undefined : parseMemory(args.memory),
    types: args.types,
    resultName: args.resultName,
    solver: args.solver,
    givenOnly: args.givenOnly,
    catalogMappings: args.catalogMappings,
    allowInsert: args.allowInsert,
    timeout: args.timeout,
    ...(compress ? { mode: 'optimal' as const, goals: args.goals } : {}),
  };
  const result = await repair(sequence, catalog, options);
  return { ...resultJson(result), heal: healed?.edits ?? [] };
}

export const fixTool = (args: Args<typeof fixInput>, defaults: ToolDefaults = {}) =>
  repairTool(args, defaults, false);

export const compressTool = (args: Args<typeof compressInput>, defaults: ToolDefaults = {}) =>
  repairTool(args, defaults, true);
