/**
 * Vercel AI SDK adapter. `createRepairToolCall` is a ready `experimental_repairToolCall`: an unknown tool
 * name becomes the closest catalog tool, bad arguments are healed, renamed or dropped by the optimiser, and
 * `null` (no repair) is returned when no executable call results. `checkSteps` checks the tool calls of a
 * whole multi-step run (`result.steps`) as one sequence.
 */
import type { ToolCallRepairFunction, ToolSet } from 'ai';
import { parseCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import {
  arrayOf,
  catalog as aCatalog,
  checked,
  checkedAsync,
  func,
  object,
  optional,
  record,
  shaped,
  type Check,
} from '../api/arguments.ts';
import {
  checkCall,
  adapterOptions,
  checkToolCalls,
  hookOptions,
  type AdapterOptions,
  type CheckOptions,
  type CheckResult,
} from './hook.ts';
import type { ToolCall } from './toolcalls.ts';
import type { FeedbackFormat } from '../feedback/index.ts';

export interface RepairToolCallOptions extends AdapterOptions {
  /** The catalog to check against; default: built from the tools' input schemas. */
  readonly catalog?: Catalog;
  /** What each check's `feedback` (for `onCheck`) holds; default `issues` (the SDK sends the model its own error). */
  readonly feedback?: FeedbackFormat;
  /** Called with every check, e.g. to log the edits or show the feedback. */
  readonly onCheck?: (check: Awaited<ReturnType<typeof checkCall>>, toolCall: SdkToolCall) => void;
}

type RepairInput = Parameters<ToolCallRepairFunction<ToolSet>>[0];
type InputSchema = RepairInput['inputSchema'];
/** The SDK's failed tool call (`{toolCallId, toolName, input}`, input being JSON text). */
export type SdkToolCall = RepairInput['toolCall'];

const fromTools = new WeakMap<object, Promise<Catalog>>();

/** A tool set: an object of tools by name. */
const toolSet: Check = (value, name, args) => {
  record()(value, name, args);
  for (const [key, tool] of Object.entries(value as object)) object(tool, `${name}.${key}`, args);
  return value;
};

/** The catalog of an AI SDK tool set (name, description, JSON Schema of the input), built once per set. */
export const catalogFromTools = checkedAsync(toolsCatalog, { tools: toolSet, inputSchema: func });

function toolsCatalog(tools: ToolSet, inputSchema: InputSchema): Promise<Catalog> {
  let catalog = fromTools.get(tools);
  if (!catalog) {
    catalog = Promise.all(
      Object.entries(tools).map(async ([name, tool]) => ({
        name,
        description: tool.description ?? '',
        parameters: await inputSchema({ toolName: name }),
      })),
    ).then((entries) => parseCatalog(entries));
    fromTools.set(tools, catalog);
  }
  return catalog;
}

/** An `experimental_repairToolCall` function for `generateText` / `streamText`. */
export const createRepairToolCall = checked(repairToolCall, {
  options: optional(shaped({ catalog: optional(aCatalog), onCheck: optional(func) })),
});

function repairToolCall(options: RepairToolCallOptions = {}): ToolCallRepairFunction<ToolSet> {
  const { catalog: given, onCheck, feedback = 'issues', ...rest } = options;
  // The options are checked once per catalog they meet (goals name its APIs): the given catalog's now, so a
  // bad option fails here; a tool set's on its first repair. The calls then go to the unchecked core.
  // Memory and executed calls given as functions are read at every repair (an agent's memory grows).
  const checkedFor = new WeakMap<Catalog, () => CheckOptions>();
  const optionsFor = (catalog: Catalog): (() => CheckOptions) => {
    let checked = checkedFor.get(catalog);
    if (!checked) {
      checked = adapterOptions({ ...rest, feedback }, catalog);
      checkedFor.set(catalog, checked);
    }
    return checked;
  };
  // Without a catalog, all but the goals (which name its APIs) are checked now against none: a bad threshold
  // or cost model fails here, not as an error the model is sent at its first repair.
  if (given) optionsFor(given);
  else adapterOptions({ ...rest, goals: undefined, feedback }, { apis: [] });
  return async ({ toolCall, tools, inputSchema }) => {
    let catalog: Catalog;
    try {
      catalog = given ?? (await toolsCatalog(tools, inputSchema));
    } catch (error) {
      // A tool schema the catalog reader cannot take: no repair, the SDK reports the original error.
      if (error instanceof InputError) return null;
      throw error;
    }
    const call: ToolCall = {
      id: toolCall.toolCallId,
      type: 'function',
      function: { name: toolCall.toolName, arguments: toolCall.input },
    };
    const check = await checkCall(call, optionsFor(catalog)());
    onCheck?.(check, toolCall);
    // `ok` means the catalog sees nothing to fix: the SDK's own schema rejected the call, so give up.
    if (check.ok || !check.call) return null;
    return { ...toolCall, toolName: check.call.function.name, input: check.call.function.arguments };
  };
}

/** The tool calls of AI SDK steps (`result.steps`), in order. */
export interface StepLike {
  readonly toolCalls: readonly {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: unknown;
  }[];
}

/** Checks the tool calls of all steps as one sequence (`var1`... in call order). */
export const checkSteps = checkedAsync(stepsCheck, {
  steps: arrayOf(shaped({ toolCalls: arrayOf(object) }, 'a step (from result.steps)')),
  options: hookOptions,
});

function stepsCheck(steps: readonly StepLike[], options: CheckOptions): Promise<CheckResult> {
  const calls: ToolCall[] = steps.flatMap((step) =>
    step.toolCalls.map((c) => ({
      id: c.toolCallId,
      type: 'function' as const,
      function: {
        name: c.toolName,
        // An object goes as is: the parser copies it with a depth limit, where stringifying could overflow.
        arguments: (c.input ?? {}) as string | object,
      },
    })),
  );
  return checkToolCalls(calls, options);
}
