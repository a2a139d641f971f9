/** The chat prompt of an LLM fixer, and the parsing of its reply back into a sequence. */
import type { ApiSpec, Catalog, Issue, Sequence } from '../../model/types.ts';
import { indexCatalog, leafOf } from '../../catalog/catalog-index.ts';
import { errorMessage } from '../../model/errors.ts';
import { stall, type Stalled } from '../engine.ts';
import { parseReply } from './reply.ts';
import { isPseudoStep } from '../../model/constants.ts';
import { DEFAULT_RESULT_NAME } from '../../model/constants.ts';
import { parseSequence } from '../../read/sequence.ts';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** At most this many tool specifications go into a prompt. */
export const MAX_PROMPT_TOOLS = 12;

/** Names less similar than this to an unknown API are not worth showing. */
const MIN_SIMILARITY = 0.5;

export const SYSTEM_PROMPT = [
  'You repair sequences of tool calls so that they can be executed.',
  'A sequence is a JSON list of steps {"name": API, "arguments": {...}, "label": "varN"}.',
  'An argument may refer to an earlier step\'s output as "$label.field$" ("$label$" for the whole output).',
  'Use only the tools listed, only their parameters, pass every required parameter, and refer only to',
  'outputs that earlier steps produce. Keep the last step (the answer) as it is unless it is wrong.',
  'Reply with the whole corrected sequence as JSON in a ```json code block, and nothing else.',
].join('\n');

/**
 * The tools worth showing: those the sequence calls, the closest names to calls of unknown APIs, and
 * the producers of fields the issues say are missing. The whole catalog when it is small.
 */
export function relevantApis(
  sequence: Sequence,
  catalog: Catalog,
  issues: readonly Issue[],
  resultName = DEFAULT_RESULT_NAME,
): ApiSpec[] {
  if (catalog.apis.length <= MAX_PROMPT_TOOLS) return [...catalog.apis];
  const index = indexCatalog(catalog);
  const chosen = new Map<string, ApiSpec>();
  const add = (api: ApiSpec | undefined) => {
    if (api && chosen.size < MAX_PROMPT_TOOLS) chosen.set(api.name, api);
  };
  for (const step of sequence) add(index.byName.get(step.name));
  for (const step of sequence) {
    const own = index.byName.has(step.name) || step.name === resultName || isPseudoStep(step);
    if (own) continue;
    for (const hit of index.similarApis(step.name, 3)) if (hit.similarity >= MIN_SIMILARITY) add(hit.api);
  }
  for (const issue of issues) {
    const wanted =
      issue.tag === 'missing_parameter' ? issue.param : issue.ref ? leafOf(refPath(issue.ref)) : undefined;
    if (wanted) for (const p of index.producersOf(wanted).slice(0, 3)) add(p.api);
  }
  return [...chosen.values()];
}

function refPath(raw: string): string {
  return raw.replace(/^\$|\$$/g, '').replace(/\[\d+\]/g, '[]');
}

/** A compact specification of a tool: parameters with type and whether required, top-level outputs. */
export function toolSpec(api: ApiSpec): unknown {
  const parameters: Record<string, unknown> = {};
  for (const p of api.params) {
    parameters[p.name] = {
      type: p.type,
      required: p.required,
      ...(p.enum && p.enum.length > 0 ? { enum: p.enum } : {}),
      ...(p.description ? { description: p.description } : {}),
    };
  }
  const outputs =
    api.outputs?.map((f) => f.path).filter((p) => !p.includes('.') && !p.includes('[]')) ?? null;
  return { name: api.name, description: api.description, parameters, outputs };
}

/** System and user messages: the relevant tools, the current sequence (NESTFUL JSON), the feedback. */
export function buildPrompt(
  sequence: Sequence,
  catalog: Catalog,
  feedback: string,
  format: string,
  issues: readonly Issue[] = [],
  resultName = DEFAULT_RESULT_NAME,
): ChatMessage[] {
  const tools = relevantApis(sequence, catalog, issues, resultName).map(toolSpec);
  const user = [
    'Tools:',
    '```json',
    JSON.stringify(tools, null, 2),
    '```',
    '',
    'Current sequence:',
    '```json',
    JSON.stringify(sequence, null, 2),
    '```',
    '',
    `Feedback (${format}):`,
    feedback,
    '',
    'Return the whole corrected sequence.',
  ].join('\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
}

const CODE_BLOCK = /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/g;

/**
 * A chat message back into a sequence: its own `tool_calls`, else JSON in a code block (the first that
 * parses), else the whole content as bare JSON. Steps may be NESTFUL steps or OpenAI tool calls.
 */
export function parseChatMessage(message: unknown): Sequence | Stalled {
  if (message === null || typeof message !== 'object') return stall('reply has no message');
  const { content, tool_calls: toolCalls } = message as { content?: unknown; tool_calls?: unknown };
  if (Array.isArray(toolCalls) && toolCalls.length > 0) {
    try {
      return parseSequence(toolCalls);
    } catch (error) {
      return stall(`reply tool_calls are no sequence: ${errorMessage(error)}`);
    }
  }
  if (typeof content !== 'string' || content.trim() === '') return stall('reply has no content');
  let first: Stalled | undefined;
  for (const match of content.matchAll(CODE_BLOCK)) {
    const parsed = parseReply(match[1], 'reply');
    if (!('stalled' in parsed)) return parsed;
    first ??= parsed;
  }
  return first ?? parseReply(content, 'reply');
}
