/**
 * An OpenAI-compatible chat-completions endpoint as a fixer: the prompt holds the relevant tool
 * specifications, the current sequence and the feedback; the reply is parsed back into a sequence.
 */
import type { Catalog, Sequence } from '../../model/types.ts';
import type { ValidateOptions } from '../../model/options.ts';
import { errorMessage } from '../../model/errors.ts';
import { stall, type Fixer, type Stalled } from '../engine.ts';
import { openIssues } from '../issues.ts';
import { buildPrompt, parseChatMessage } from './prompt.ts';

export interface OpenAiFixerOptions {
  readonly catalog: Catalog;
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** The key itself; otherwise read from `apiKeyEnv`. No key = no Authorization header (local servers). */
  readonly apiKey?: string;
  /** Default `OPENAI_API_KEY`. */
  readonly apiKeyEnv?: string;
  /** Name of the feedback format, shown in the prompt. */
  readonly format?: string;
  /** Default 120 s. */
  readonly timeoutMs?: number;
  /** Default 0. */
  readonly temperature?: number;
  readonly validate?: ValidateOptions;
}

export const OPENAI_TIMEOUT_MS = 120_000;

export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

export function openaiFixer(options: OpenAiFixerOptions): Fixer<Sequence> {
  const url = chatCompletionsUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? OPENAI_TIMEOUT_MS;
  return {
    async propose(state: Sequence, feedback: string): Promise<Sequence | Stalled> {
      const issues = openIssues(state, options.catalog, options.validate);
      const format = options.format ?? 'issues';
      const messages = buildPrompt(
        state,
        options.catalog,
        feedback,
        format,
        issues,
        options.validate?.resultName,
      );
      const key = options.apiKey ?? process.env[options.apiKeyEnv ?? 'OPENAI_API_KEY'];
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key) headers.authorization = `Bearer ${key}`;
      const body = JSON.stringify({ model: options.model, messages, temperature: options.temperature ?? 0 });
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        return stall(
          timedOut
            ? `endpoint timed out after ${timeoutMs / 1000} s`
            : `endpoint unreachable: ${errorMessage(error)}`,
        );
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        return stall(`endpoint reply unreadable: ${errorMessage(error)}`);
      }
      if (!response.ok) return stall(`endpoint answered ${response.status}: ${text.slice(0, 300)}`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return stall('endpoint reply is not JSON');
      }
      const choices = (json as { choices?: unknown }).choices;
      const first = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined) : undefined;
      return first ? parseChatMessage(first.message) : stall('endpoint reply has no choices');
    },
  };
}
