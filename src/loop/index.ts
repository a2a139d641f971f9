/** The repair loop: a generic engine, its tool-call instance, fixers, presets and multi-sample picking. */
export * from './engine.ts';
export * from './presets.ts';
export * from './toolcalls.ts';
export * from './issues.ts';
export * from './report.ts';
export * from './pick.ts';
export { milpFixer, MILP_ESCALATION, type MilpFixerOptions } from './fixers/milp.ts';
export {
  commandFixer,
  FIXER_TIMEOUT_MS,
  type CommandFixerOptions,
  type FixerRequest,
} from './fixers/command.ts';
export { openaiFixer, chatCompletionsUrl, type OpenAiFixerOptions } from './fixers/openai.ts';
export { buildPrompt, parseChatMessage, relevantApis, type ChatMessage } from './fixers/prompt.ts';
export { scriptedFixer, scriptedFixerFromFile, parseCandidates, readCandidates } from './fixers/scripted.ts';
