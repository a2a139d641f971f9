/**
 * Any program as a fixer: `sh -c command` gets `{state, feedback, format, round}` as JSON on stdin and
 * prints a sequence (NESTFUL or OpenAI form) on stdout. A crash, a time-out or garbage stalls the round.
 */
import type { Sequence } from '../../model/types.ts';
import { stall, type Fixer, type Stalled } from '../engine.ts';
import { describeFailure, runCommand } from '../process.ts';
import { parseReply } from './reply.ts';

export interface CommandFixerOptions {
  readonly command: string;
  /** Default 60 s. */
  readonly timeoutMs?: number;
  /** Name of the feedback format, passed along in the request. */
  readonly format?: string;
}

export const FIXER_TIMEOUT_MS = 60_000;

/** The request a command fixer reads on stdin. */
export interface FixerRequest {
  readonly state: Sequence;
  readonly feedback: string;
  readonly format: string;
  readonly round: number;
}

export function commandFixer(options: CommandFixerOptions): Fixer<Sequence> {
  const timeoutMs = options.timeoutMs ?? FIXER_TIMEOUT_MS;
  return {
    async propose(state: Sequence, feedback: string, round: number): Promise<Sequence | Stalled> {
      const request: FixerRequest = { state, feedback, format: options.format ?? 'issues', round };
      const outcome = await runCommand(options.command, JSON.stringify(request), timeoutMs);
      if (outcome.code !== 0 || outcome.timedOut)
        return stall(`fixer command ${describeFailure(outcome, timeoutMs)}`);
      return parseReply(outcome.stdout, 'fixer command');
    },
  };
}
