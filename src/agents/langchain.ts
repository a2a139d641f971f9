/**
 * LangChain.js adapter: validates and repairs an `AIMessage`'s tool calls before the tool node runs. Calls
 * LangChain could not parse (`invalid_tool_calls`, malformed argument JSON) are healed too. The outcome is
 * noted under `additional_kwargs.refract`; a list with no executable repair keeps its calls, so a graph can
 * route on `refract.executable` and send `refract.feedback` back to the model.
 */
import { AIMessage, isAIMessage, type BaseMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import type { Catalog, Edit } from '../model/types.ts';
import type { HealEdit } from '../heal/types.ts';
import { catalog as aCatalog, checked, checkedAsync, object, optional } from '../api/arguments.ts';
import { InputError } from '../model/errors.ts';
import { kindOf } from '../read/json.ts';
import {
  adapterOptions,
  checkToolCalls,
  hookOptions,
  type AdapterOptions,
  type CheckOptions,
  type ExecutableCall,
} from './hook.ts';
import type { ToolCall } from './toolcalls.ts';

/** What the wrapper records in `additional_kwargs.refract`. */
export interface RepairNote {
  readonly ok: boolean;
  readonly executable: boolean;
  readonly heal: readonly HealEdit[];
  readonly edits: readonly Edit[];
  readonly cost: number;
  readonly feedback: string;
}

function toolCallsOf(message: AIMessage): ToolCall[] {
  const valid = (message.tool_calls ?? []).map((tc) => ({
    id: tc.id,
    type: 'function' as const,
    function: { name: tc.name, arguments: JSON.stringify(tc.args ?? {}) },
  }));
  const invalid = (message.invalid_tool_calls ?? []).map((tc) => ({
    id: tc.id,
    type: 'function' as const,
    function: { name: tc.name ?? '', arguments: tc.args ?? '' },
  }));
  // LangChain splits the calls it parsed from those it could not; the model's own order (which a label such
  // as `$var1.skyId$` counts in) is the provider's raw list, where the message keeps one.
  const raw = message.additional_kwargs?.tool_calls;
  const place = new Map<string, number>();
  if (Array.isArray(raw))
    raw.forEach((tc: unknown, i) => {
      const id = (tc as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && !place.has(id)) place.set(id, i);
    });
  const at = (call: ToolCall) => (call.id === undefined ? undefined : place.get(call.id)) ?? Infinity;
  return [...valid, ...invalid]
    .map((call, i) => ({ call, i }))
    .sort((a, b) => at(a.call) - at(b.call) || a.i - b.i)
    .map(({ call }) => call);
}

const asLangChain = (call: ExecutableCall) => ({
  id: call.id,
  name: call.function.name,
  args: JSON.parse(call.function.arguments) as Record<string, unknown>,
  type: 'tool_call' as const,
});

/** A LangChain message (`BaseMessage`), named so in errors rather than by the method it is told by. */
function langchainMessage(value: unknown, name: string): unknown {
  const getType = (value as { _getType?: unknown } | null)?._getType;
  if (typeof value === 'object' && value !== null && typeof getType === 'function') return value;
  throw new InputError(name, `expected a LangChain message (an AIMessage, say), received ${kindOf(value)}`);
}

/** The message with its tool calls checked and, when needed and possible, repaired. */
export const repairAIMessage = checkedAsync(repairMessage, {
  message: langchainMessage,
  options: hookOptions,
});

async function repairMessage<M extends BaseMessage>(
  message: M,
  options: CheckOptions,
): Promise<M | AIMessage> {
  if (!isAIMessage(message)) return message;
  const calls = toolCallsOf(message);
  if (calls.length === 0) return message;
  const check = await checkToolCalls(calls, options);
  if (check.ok) return message;
  const note: RepairNote = {
    ok: check.ok,
    executable: check.executable,
    heal: check.heal,
    edits: check.repair?.edits ?? [],
    cost: check.cost,
    feedback: check.feedback,
  };
  const kwargs: Record<string, unknown> = { ...message.additional_kwargs, refract: note };
  if (check.executable && kwargs.tool_calls !== undefined) kwargs.tool_calls = check.calls;
  return new AIMessage({
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
    tool_calls: check.executable ? check.calls.map(asLangChain) : message.tool_calls,
    invalid_tool_calls: check.executable ? [] : message.invalid_tool_calls,
  });
}

/** A Runnable mapping an AIMessage to the same message with checked (and repaired) tool calls. */
export const repairToolCallsRunnable = checked(toolCallsRunnable, {
  catalog: aCatalog,
  options: optional(object),
});

function toolCallsRunnable(
  catalog: Catalog,
  options: AdapterOptions = {},
): RunnableLambda<AIMessage, AIMessage> {
  // Checked once here, not per message (unless memory or executed are read per message): each message then
  // goes to the unchecked core. A message that is no AIMessage passes through as it is; the types say what a
  // chat model's output becomes.
  const checkedNow = adapterOptions(options, catalog);
  return RunnableLambda.from((message: BaseMessage) => repairMessage(message, checkedNow())).withConfig({
    runName: 'refractRepairToolCalls',
  }) as unknown as RunnableLambda<AIMessage, AIMessage>;
}

/** The note a repair left on a message (`additional_kwargs.refract`), typed; undefined when there is none. */
export const repairNote = checked(noteOf, { message: langchainMessage });

function noteOf(message: BaseMessage): RepairNote | undefined {
  const note = message.additional_kwargs?.refract;
  return note !== null && typeof note === 'object' ? (note as RepairNote) : undefined;
}
