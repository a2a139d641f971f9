/** The options every repair command shares (--catalog, --memory, --cost-model, …) and their loading. */
import type { Command } from 'commander';
import { loadCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import { loadMappings } from '../read/mappings.ts';
import { loadMemory } from '../read/memory.ts';
import { loadCostModel, parseWeightFlags, withWeights } from '../read/cost-models.ts';
import type { Catalog } from '../model/types.ts';
import type { Goals, RepairOptions } from '../model/options.ts';
import { collect, integer, oneOf, seconds } from './flag-values.ts';
import { SOLVER_NAMES } from '../solvers/index.ts';
import { parseStringForm } from '../read/string-form.ts';

export interface RepairFlags {
  catalog?: string;
  memory?: string;
  mappings?: string;
  /** `--no-catalog-mappings` sets false. */
  catalogMappings?: boolean;
  costModel: string;
  weight?: string[];
  solver: string;
  givenOnly?: boolean;
  insert: boolean;
  timeout?: string;
  types: string;
  resultName: string;
  mode?: string;
  goalApi?: string[];
  goalField?: string[];
  goalStep?: string[];
  defensive?: boolean;
  fixes?: string;
}

/** The repair flags of a command given only `--catalog`: every option at its default. */
export function defaultRepairFlags(catalog?: string): RepairFlags {
  return {
    catalog,
    costModel: 'default',
    solver: 'highs',
    insert: true,
    types: 'warn',
    resultName: 'var_result',
  };
}

/** The keys of `RepairFlags`, for passing the repair flags alone (e.g. to worker threads) as plain data. */
const REPAIR_FLAG_KEYS = [
  'catalog',
  'memory',
  'mappings',
  'catalogMappings',
  'costModel',
  'weight',
  'solver',
  'givenOnly',
  'insert',
  'timeout',
  'types',
  'resultName',
  'mode',
  'goalApi',
  'goalField',
  'goalStep',
  'defensive',
  'fixes',
] as const satisfies readonly (keyof RepairFlags)[];

export function pickRepairFlags(flags: RepairFlags): RepairFlags {
  const out: Record<string, unknown> = {};
  for (const key of REPAIR_FLAG_KEYS) if (flags[key] !== undefined) out[key] = flags[key];
  return out as unknown as RepairFlags;
}

export function addRepairOptions(cmd: Command): Command {
  return cmd
    .option('-c, --catalog <file>', 'tool catalog (NESTFUL spec or OpenAI tools JSON)')
    .option('--memory <file>', 'memory items JSON ({label: {field: value}})')
    .option('--mappings <file>', 'mapping table JSON ([{from, to, score}])')
    .option('--no-catalog-mappings', 'do not compute mappings from the catalog (use only --mappings)')
    .option('--cost-model <name|file>', 'cost-model preset name or JSON file', 'default')
    .option('-w, --weight <name=value>', 'override one weight (repeatable)', collect)
    .option('--solver <name>', 'highs | lp-solver | portfolio', 'highs')
    .option('--given-only', 'only APIs already used in the sequence')
    .option('--no-insert', 'never insert new calls')
    .option('--timeout <seconds>', 'solve time limit in seconds')
    .option('--types <mode>', 'literal type/enum checks: off | warn | strict', 'warn')
    .option('--result-name <name>', 'name of the answer pseudo-step', 'var_result')
    .option(
      '--mode <mode>',
      'sound (executability) | valid (plus goals) | optimal (cheapest meeting the goals)',
    )
    .option('--goal-api <name>', 'goal: this API must be called (repeatable)', collect)
    .option('--goal-field <name>', 'goal: this field must exist at the end (repeatable)', collect)
    .option(
      '--goal-step <call>',
      'goal: a call with these values, in the string form: Api(p="v") (repeatable)',
      collect,
    )
    .option('--defensive', 'add a confirm pseudo-step for every value the repair invented')
    .option('--fixes <k>', 'return up to k distinct repairs in order of cost');
}

export interface Loaded {
  readonly catalog: Catalog;
  readonly options: RepairOptions;
}

export function loadRepairOptions(flags: RepairFlags): Loaded {
  if (!flags.catalog) throw new InputError('--catalog', 'required: the tool catalog to check against');
  const { options, catalog } = loadRepairOptionsWithoutCatalog(flags);
  return { options, catalog: catalog! };
}

/** As `loadRepairOptions`, for commands whose records may bring their own catalog (`--catalog` optional). */
export function loadRepairOptionsWithoutCatalog(flags: RepairFlags): {
  catalog?: Catalog;
  options: RepairOptions;
} {
  const catalog = flags.catalog ? loadCatalog(flags.catalog) : undefined;
  let cost = loadCostModel(flags.costModel);
  if (flags.weight?.length) cost = withWeights(cost, parseWeightFlags(flags.weight));
  const options: RepairOptions = {
    cost,
    memory: flags.memory ? loadMemory(flags.memory) : undefined,
    mappings: flags.mappings ? loadMappings(flags.mappings) : undefined,
    catalogMappings: flags.catalogMappings ?? true,
    solver: oneOf('--solver', flags.solver, SOLVER_NAMES),
    givenOnly: flags.givenOnly ?? false,
    allowInsert: flags.insert,
    timeout: flags.timeout === undefined ? undefined : seconds('--timeout', flags.timeout),
    types: oneOf('--types', flags.types, ['off', 'warn', 'strict'] as const),
    resultName: flags.resultName,
    mode:
      flags.mode === undefined
        ? undefined
        : oneOf('--mode', flags.mode, ['sound', 'valid', 'optimal'] as const),
    goals: goalsFrom(flags),
    defensive: flags.defensive ?? false,
    fixes: flags.fixes === undefined ? undefined : integer('--fixes', flags.fixes, 1, 100),
  };
  return { catalog, options };
}

function goalsFrom(flags: RepairFlags): Goals | undefined {
  if (!flags.goalApi?.length && !flags.goalField?.length && !flags.goalStep?.length) return undefined;
  const steps = (flags.goalStep ?? []).map((text) => {
    try {
      const [step] = parseStringForm(text);
      return { name: step.name, arguments: step.arguments };
    } catch (error) {
      throw new InputError('--goal-step', (error as Error).message);
    }
  });
  return { apis: flags.goalApi, fields: flags.goalField, steps };
}
