/**
 * From a request to the pipeline: `requestSettings` turns a request's fields into library options (once
 * per request, or once per file of records), `makeCall` adds the sequence and the catalog, and `runCall`
 * is the one place that calls the pipeline (`validate`, `repair`, `compress`, the repair loop). Every front
 * end (CLI, HTTP, MCP, batch) is a shell around these three; the cost model is defaulted here only.
 * Problems are `InputError`s naming the request field (`costModel`, `weights.slotFill`, `sequence[2].name`).
 */
import type { Catalog, Memory, Sequence } from '../model/types.ts';
import type { Goals, RepairOptions, RepairResult, Validation } from '../model/options.ts';
import type { CostModel } from '../model/cost.ts';
import { WeightOverridesSchema, WeightsSchema } from '../model/cost.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { parseMappings } from '../read/mappings.ts';
import { parseMemory } from '../read/memory.ts';
import { heldLabels, parseExecuted, parseSequence } from '../read/sequence.ts';
import { loadCostModel, parseCostModel, presetNames, withWeights } from '../read/cost-models.ts';
import { validate } from '../validate/validate.ts';
import { DEFAULT_TIME_LIMIT } from '../solvers/index.ts';
import { checkMinConfidence, repair } from '../repair/repair.ts';
import { compress } from '../repair/compress.ts';
import type { FeedbackFormat } from '../feedback/index.ts';
import { heal, type HealEdit } from '../heal/index.ts';
import type { Fixer, LoopResult } from '../loop/engine.ts';
import { milpFixer } from '../loop/fixers/milp.ts';
import { loopToolCalls, type ToolCallChecks } from '../loop/toolcalls.ts';
import type { Issue } from '../model/types.ts';
import type { ApiRequest, RequestKind } from './request.ts';
import { checkGoalFields, checkGoals } from './goals.ts';
import { unknownName } from './arguments.ts';

export interface RequestContext {
  /** String values may name files (a cost model): the CLI and MCP yes, a server never. */
  readonly files: boolean;
  /** A server's cap on the solver time limit in seconds; the limit is then always set (default 10 s). */
  readonly timeoutCap?: number;
  /** The catalog every sequence of the request is checked against, when one is: goals are checked on it. */
  readonly catalog?: Catalog;
}

export interface LoopSettings {
  readonly maxRounds?: number;
  readonly stallLimit?: number;
  readonly feedback?: FeedbackFormat;
  readonly escalate?: boolean;
}

/** A request's options, resolved: plain data (structured-clonable), ready for many sequences. */
export interface Settings {
  readonly kind: RequestKind;
  /** Repair options; a validation uses `memory`, `types` and `resultName` only. */
  readonly options: RepairOptions;
  /** Heal the sequence before the optimiser (fix, compress). */
  readonly heal?: boolean;
  readonly loop?: LoopSettings;
}

/** One sequence to run, with everything it needs. */
export interface Call extends Settings {
  readonly id?: string;
  readonly sequence: Sequence;
  readonly catalog: Catalog;
  /** The healing edits, when the sequence was healed. */
  readonly healed?: readonly HealEdit[];
}

export type Answer =
  | { readonly kind: 'validate'; readonly id?: string; readonly validation: Validation }
  | {
      readonly kind: 'fix' | 'compress';
      readonly id?: string;
      readonly result: RepairResult;
      readonly healed?: readonly HealEdit[];
    }
  | { readonly kind: 'loop'; readonly id?: string; readonly result: LoopResult<Sequence, Issue> };

/** The preset a kind of request repairs with when it names none. */
export function defaultCostModel(kind: RequestKind): string {
  return kind === 'compress' ? 'compress' : 'default';
}

function costModel(kind: RequestKind, request: ApiRequest, files: boolean): CostModel {
  const given = request.costModel ?? defaultCostModel(kind);
  let model: CostModel;
  if (typeof given !== 'string') model = parseCostModel(given, 'costModel');
  else if (files) model = loadCostModel(given, 'costModel');
  else {
    const names = presetNames();
    if (!names.includes(given)) {
      throw new InputError(
        'costModel',
        `no preset named ${JSON.stringify(given)} (presets: ${names.join(', ')})`,
      );
    }
    model = loadCostModel(given, 'costModel');
  }
  if (!request.weights) return model;
  return withWeights(model, checkWeights(request.weights, 'weights'));
}

/** Weight overrides checked against the weights' schema; `root` names them in errors (`weights.slotFill`). */
export function checkWeights(
  weights: Readonly<Record<string, number>>,
  root: string,
): Record<string, number> {
  const known = Object.keys(WeightsSchema.shape);
  for (const weight of Object.keys(weights)) {
    if (!known.includes(weight))
      throw new InputError(`${root}.${weight}`, unknownName('weight', weight, known));
  }
  return parseAt(WeightOverridesSchema, weights, [root]) as Record<string, number>;
}

/** The options of a request of `kind` (its fields already checked against the kind's schema). */
export function requestSettings(kind: RequestKind, request: ApiRequest, context: RequestContext): Settings {
  const memory = request.memory !== undefined ? parseMemory(request.memory, 'memory') : undefined;
  const checking: RepairOptions = {
    ...(memory !== undefined ? { memory } : {}),
    ...(request.executed !== undefined
      ? {
          executed: parseExecuted(request.executed, memory, {
            root: 'executed',
            resultName: request.resultName,
          }),
        }
      : {}),
    ...(request.maxTries !== undefined ? { maxTries: request.maxTries } : {}),
    ...(request.types !== undefined ? { types: request.types } : {}),
    ...(request.resultName !== undefined ? { resultName: request.resultName } : {}),
  };
  if (kind === 'validate') return { kind, options: checking };
  const cap = context.timeoutCap;
  const options: RepairOptions = {
    ...checking,
    cost: costModel(kind, request, context.files),
    ...(request.mappings !== undefined ? { mappings: parseMappings(request.mappings, 'mappings') } : {}),
    ...(request.catalogMappings !== undefined ? { catalogMappings: request.catalogMappings } : {}),
    ...(request.solver !== undefined ? { solver: request.solver } : {}),
    ...(request.givenOnly !== undefined ? { givenOnly: request.givenOnly } : {}),
    ...(request.allowInsert !== undefined ? { allowInsert: request.allowInsert } : {}),
    ...(request.goals !== undefined
      ? { goals: context.catalog ? checkGoals(request.goals, context.catalog) : (request.goals as Goals) }
      : {}),
    ...(request.mode !== undefined ? { mode: request.mode } : {}),
    ...(request.defensive !== undefined ? { defensive: request.defensive } : {}),
    ...(request.confidence !== undefined ? { confidence: request.confidence } : {}),
    ...(request.fixes !== undefined ? { fixes: request.fixes } : {}),
    ...(request.minConfidence !== undefined ? { minConfidence: request.minConfidence } : {}),
    ...(cap !== undefined
      ? { timeout: Math.min(request.timeout ?? DEFAULT_TIME_LIMIT, cap) }
      : request.timeout !== undefined
        ? { timeout: request.timeout }
        : {}),
  };
  // Refused here, once per request, before any sequence is read: a threshold needs a calibrated model, a
  // field goal something that could meet it (a record's own memory and goals are checked when repaired).
  checkMinConfidence(options);
  if (context.catalog) checkGoalFields(options, context.catalog);
  if (kind === 'loop') {
    const { maxRounds, stallLimit, feedback, escalate } = request;
    return { kind, options, loop: { maxRounds, stallLimit, feedback, escalate } };
  }
  return { kind, options, ...(request.heal !== undefined ? { heal: request.heal } : {}) };
}

/** What a call runs on: a raw sequence (any form `parseSequence` reads) or a parsed one. */
export type Subject = {
  readonly id?: string;
  readonly catalog: Catalog;
  /** A record's own memory, executed calls and goals take the place of the request's. */
  readonly memory?: Memory;
  readonly executed?: Sequence;
  readonly goals?: Goals;
} & ({ readonly input: unknown } | { readonly sequence: Sequence });

/** Settings plus one sequence: parses (or heals) the sequence; a record's memory and goals win. */
export function makeCall(settings: Settings, subject: Subject): Call {
  const { catalog } = subject;
  const resultName = settings.options.resultName;
  const memory = subject.memory;
  const executed = subject.executed;
  const goals = settings.kind !== 'validate' ? subject.goals : undefined;
  // Most calls (every record of a batch without its own memory or goals) keep the settings' options as
  // they are: no copy per call.
  const options: RepairOptions =
    memory === undefined && goals === undefined && executed === undefined
      ? settings.options
      : {
          ...settings.options,
          ...(memory !== undefined ? { memory } : {}),
          ...(executed !== undefined ? { executed } : {}),
          ...(goals !== undefined ? { goals } : {}),
        };
  // Written out key by key: spreads after own keys take V8's slow path (a batch makes a call per record).
  const call = (sequence: Sequence, healed?: readonly HealEdit[]): Call => ({
    kind: settings.kind,
    options,
    heal: settings.heal,
    loop: settings.loop,
    id: subject.id,
    catalog,
    sequence,
    healed,
  });
  if ('sequence' in subject) return call(subject.sequence);
  if (settings.heal) {
    const healed = heal(subject.input, catalog, {
      resultName,
      held: heldLabels(options.memory, options.executed),
    });
    return call(healed.sequence, healed.edits);
  }
  return call(
    parseSequence(subject.input, {
      root: 'sequence',
      resultName,
      held: heldLabels(options.memory, options.executed),
    }),
  );
}

/** What only a command line can add to a loop: another fixer, checks (shell commands). */
export interface LoopExtras {
  readonly fixer?: Fixer<Sequence>;
  readonly checks?: ToolCallChecks;
}

/** The pipeline call of a request: validate, repair, compress or the repair loop. */
export async function runCall(call: Call, extras: LoopExtras = {}): Promise<Answer> {
  const { kind, sequence, catalog, options } = call;
  const id = call.id === undefined ? {} : { id: call.id };
  switch (kind) {
    case 'validate':
      return { kind, ...id, validation: validate(sequence, catalog, options) };
    case 'fix':
    case 'compress': {
      const run = kind === 'compress' ? compress : repair;
      const result = await run(sequence, catalog, options);
      // One shape whatever the call has (no spread after own keys: V8's slow path, once per record).
      return { kind, id: call.id, result, healed: call.healed };
    }
    case 'loop': {
      const loop = call.loop ?? {};
      const { memory, resultName, types, executed, maxTries } = options;
      const result = await loopToolCalls({
        sequence,
        catalog,
        fixer: extras.fixer ?? milpFixer({ catalog, repair: options, escalate: loop.escalate }),
        feedback: loop.feedback,
        checks: extras.checks,
        maxRounds: loop.maxRounds,
        stallLimit: loop.stallLimit,
        validate: { memory, resultName, types, executed, maxTries },
        repair: options,
      });
      return { kind, ...id, result };
    }
  }
}
