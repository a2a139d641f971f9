/**
 * The request vocabulary as command-line options: each field of `src/api/request.ts` a command of a kind
 * takes gets its flag here, with the field's description and its values checked against the field's
 * schema (`--solver cplex` → `--solver: expected one of highs, lp-solver, portfolio`). A file-valued flag
 * (`--memory`, `--mappings`) is read here, so its errors name the file; `requestFromFlags` then builds the
 * same request an HTTP body or an MCP call would carry.
 */
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../model/errors.ts';
import { loadMappings } from '../read/mappings.ts';
import { loadMemory } from '../read/memory.ts';
import { parseExecuted } from '../read/sequence.ts';
import { loadWith } from '../read/files.ts';
import { readableFile } from '../read/files.ts';
import { parseWeightFlags } from '../read/cost-models.ts';
import { parseStringForm } from '../read/string-form.ts';
import { checkWeights, requestSettings, type Settings } from '../api/call.ts';
import { loadCatalog } from '../read/catalog.ts';
import type { Catalog, Memory } from '../model/types.ts';
import {
  REQUEST_FIELDS,
  GoalsSchema,
  KIND_FIELDS,
  type ApiRequest,
  type RequestKind,
} from '../api/request.ts';
import { collect, fraction, integer, oneOf, seconds } from '../api/flag-values.ts';

type Value = string | boolean | string[];
type Goals = NonNullable<ApiRequest['goals']>;

interface Flag {
  /** The request field the flag sets. */
  readonly field: keyof typeof REQUEST_FIELDS;
  readonly flags: string;
  /** Help text when it is not the field's own description. */
  readonly help?: string;
  readonly repeat?: boolean;
  /** The field's value from the flag's (and the request's value so far); default: checked by its schema. */
  readonly value?: (given: Value, flag: string, request: ApiRequest) => unknown;
}

const goal =
  (key: keyof Goals, parse: (text: string) => unknown) => (given: Value, _f: string, r: ApiRequest) =>
    ({ ...r.goals, [key]: (given as string[]).map(parse) }) as Goals;

/** Every flag of the vocabulary, in the order `--help` lists them. */
const FLAGS: readonly Flag[] = [
  {
    field: 'catalogPath',
    flags: '-c, --catalog <file>',
    value: (path, flag) => readableFile(flag, path as string),
  },
  {
    field: 'memory',
    flags: '--memory <file>',
    value: (path, flag) => loadMemory(readableFile(flag, path as string)),
  },
  {
    field: 'executed',
    flags: '--executed <file>',
    help: 'the calls already executed, in order (a sequence file): they count against --max-tries, and a planned repeat of one whose result --memory holds may read it instead',
    // Read after --memory: an executed tool call whose id memory keeps is labelled by it.
    value: (path, flag, request) =>
      loadWith(readableFile(flag, path as string), (text) =>
        parseExecuted(text, request.memory as Memory | undefined, { root: flag }),
      ),
  },
  { field: 'maxTries', flags: '--max-tries <n>' },
  {
    field: 'mappings',
    flags: '--mappings <file>',
    value: (path, flag) => loadMappings(readableFile(flag, path as string)),
  },
  {
    field: 'catalogMappings',
    flags: '--no-catalog-mappings',
    help: 'do not compute mappings from the catalog (use only --mappings)',
  },
  { field: 'costModel', flags: '--cost-model <name|file>' },
  {
    field: 'weights',
    flags: '-w, --weight <name=value>',
    help: 'override one weight (repeatable)',
    repeat: true,
    value: (given) => {
      try {
        return checkWeights(parseWeightFlags(given as string[]), '--weight');
      } catch (error) {
        // `--weight slotFill: …`, the flag as typed, not a path into a document.
        if (error instanceof InputError && error.field.startsWith('--weight.'))
          throw new InputError(`--weight ${error.field.slice('--weight.'.length)}`, error.problem);
        throw error;
      }
    },
  },
  { field: 'solver', flags: '--solver <name>' },
  { field: 'givenOnly', flags: '--given-only' },
  { field: 'allowInsert', flags: '--no-insert', help: 'never insert new calls' },
  { field: 'timeout', flags: '--timeout <seconds>', value: (v, flag) => seconds(flag, v as string) },
  { field: 'types', flags: '--types <mode>' },
  { field: 'resultName', flags: '--result-name <name>' },
  { field: 'mode', flags: '--mode <mode>' },
  {
    field: 'goals',
    flags: '--goal-api <name>',
    help: `${GoalsSchema.shape.apis.description} (repeatable)`,
    repeat: true,
    value: goal('apis', (name) => name),
  },
  {
    field: 'goals',
    flags: '--goal-field <name>',
    help: `${GoalsSchema.shape.fields.description} (repeatable)`,
    repeat: true,
    value: goal('fields', (name) => name),
  },
  {
    field: 'goals',
    flags: '--goal-step <call>',
    help: `${GoalsSchema.shape.steps.description}, in the string form: Api(p="v") (repeatable)`,
    repeat: true,
    value: goal('steps', (text) => {
      try {
        const [step] = parseStringForm(text);
        return { name: step.name, arguments: step.arguments };
      } catch (error) {
        throw new InputError('--goal-step', (error as Error).message);
      }
    }),
  },
  { field: 'defensive', flags: '--defensive' },
  {
    field: 'heal',
    flags: '--heal',
    help: 'repair malformed argument JSON (quotes, commas, brackets) and coerce values ("5" for an integer) before the optimiser, each fix an edit of its own',
  },
  {
    field: 'confidence',
    flags: '--no-confidence',
    help: 'skip the second solve that reads a repair’s confidence: a repair has none (a valid input keeps its 1, a partial repair its 0)',
  },
  { field: 'fixes', flags: '--fixes <k>' },
  {
    field: 'minConfidence',
    flags: '--min-confidence <x>',
    value: (v, flag) => fraction(flag, v as string),
  },
  { field: 'maxRounds', flags: '--max-rounds <n>' },
  { field: 'stallLimit', flags: '--stall-limit <m>' },
  { field: 'feedback', flags: '--feedback <format>' },
  { field: 'escalate', flags: '--no-escalate', help: 'one repair with the given options every round' },
];

/** The schema under `.optional()` and friends. */
function inner(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

/** A flag's text checked against its field's schema, with the CLI's own wording of the problem. */
function fromText(flag: string, schema: z.ZodType, text: string): unknown {
  const s = inner(schema);
  if (s instanceof z.ZodEnum) return oneOf(flag, text, s.options as string[]);
  if (s instanceof z.ZodNumber) return integer(flag, text, s.minValue ?? 0, s.maxValue ?? undefined);
  const parsed = s.safeParse(text);
  if (!parsed.success) throw new InputError(flag, parsed.error.issues[0]?.message ?? 'invalid value');
  return parsed.data;
}

function flagsOf(kind: RequestKind): Flag[] {
  const fields = new Set<string>(['catalogPath', ...Object.keys(KIND_FIELDS[kind])]);
  return FLAGS.filter((f) => fields.has(f.field));
}

function longName(flags: string): string {
  return /--[a-z-]+/.exec(flags)![0];
}

/** The field's description, with the values an enumerated field takes when it does not list them. */
function helpText(flag: Flag): string {
  const help = flag.help ?? REQUEST_FIELDS[flag.field].description ?? '';
  const s = inner(REQUEST_FIELDS[flag.field]);
  if (!(s instanceof z.ZodEnum)) return help;
  const values = s.options as string[];
  return values.every((v) => help.includes(v)) ? help : `${help}: ${values.join(' | ')}`;
}

/** Adds the options of a request of `kind` (and `--catalog`) to a command. */
export function addRequestOptions(cmd: Command, kind: RequestKind): Command {
  for (const flag of flagsOf(kind)) {
    const option = new Option(flag.flags, helpText(flag));
    if (flag.repeat) option.argParser(collect);
    cmd.addOption(option);
  }
  return cmd;
}

/** The flag that sets each part of the goals (`goals.apis[0]` is a `--goal-api` value). */
const GOAL_FLAGS = { apis: '--goal-api', fields: '--goal-field', steps: '--goal-step' } as const;

/**
 * The command line's name for a request field an error names, or null when it is the same: the goals'
 * parts are the flags that gave them, the cost model is `cost-model` as the preset and file reader says.
 */
function commandLineField(field: string): string | null {
  const goal = /^goals\.(apis|fields|steps)\b/.exec(field);
  if (goal) return GOAL_FLAGS[goal[1] as keyof typeof GOAL_FLAGS];
  if (field === 'minConfidence') return '--min-confidence';
  const cost = /^costModel(?=$|\.)/.exec(field);
  return cost ? `cost-model${field.slice(cost[0].length)}` : null;
}

/** Runs `settle` (the request's settings); an error names the field as the command line gives it. */
export function asFlags<T>(settle: () => T): T {
  try {
    return settle();
  } catch (error) {
    const field = error instanceof InputError ? commandLineField(error.field) : null;
    if (field === null) throw error;
    const { problem, source } = error as InputError;
    throw new InputError(field, problem, source);
  }
}

/** The request the parsed options of a `kind` command stand for (only the flags given). */
export function requestFromFlags(kind: RequestKind, flags: Record<string, unknown>): ApiRequest {
  let request: ApiRequest = {};
  for (const flag of flagsOf(kind)) {
    const given = flags[new Option(flag.flags).attributeName()] as Value | undefined;
    // `--no-x` options read true when absent: only `false` was given.
    if (given === undefined || (flag.flags.startsWith('--no-') && given === true)) continue;
    const name = longName(flag.flags);
    const value = flag.value
      ? flag.value(given, name, request)
      : typeof given === 'boolean'
        ? given
        : fromText(name, REQUEST_FIELDS[flag.field], given as string);
    request = { ...request, [flag.field]: value };
  }
  return request;
}

/**
 * The request a command's flags stand for, with its catalog (when `--catalog` is given, or required) and its
 * settings, resolved before anything is read, written or enqueued: a bad flag (a goal the catalog has no API
 * of) is refused first, naming the flag.
 */
export function resolveRequest<Required extends boolean = false>(
  kind: RequestKind,
  flags: Record<string, unknown>,
  catalogRequired?: Required,
): {
  request: ApiRequest;
  settings: Settings;
  catalog: Required extends true ? Catalog : Catalog | undefined;
} {
  const request = requestFromFlags(kind, flags);
  if (catalogRequired && !request.catalogPath)
    throw new InputError('--catalog', 'required: the tool catalog to check against');
  const catalog = request.catalogPath ? loadCatalog(request.catalogPath) : undefined;
  const settings = asFlags(() => requestSettings(kind, request, { files: true, catalog }));
  return { request, settings, catalog: catalog as Required extends true ? Catalog : Catalog | undefined };
}
