/**
 * The agent hook: check, heal and repair tool calls before an agent loop executes them. The AI SDK and
 * LangChain adapters (`./ai-sdk.ts`, `./langchain.ts`) are separate entry points, so that neither library
 * is needed to use the hook.
 */
export {
  checkCall,
  checkToolCalls,
  formatHealEdit,
  type CallCheck,
  type CheckOptions,
  type HookOptions,
  type CheckResult as ToolCallsCheck,
} from './hook.ts';
export { originOf, toSequence, toToolCalls, type ExecutableCall, type ToolCall } from './toolcalls.ts';
