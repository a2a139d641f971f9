/**
 * The loop over tool-call sequences: the validator's errors are the issues, the feedback formats are
 * what the fixer is shown, and the checks are a shell command or a function.
 */
import type { Catalog, Issue, Sequence } from '../model/types.ts';
import type { RepairOptions, ValidateOptions } from '../model/options.ts';
import { feedback, type FeedbackFormat } from '../feedback/index.ts';
import { repair } from '../repair/repair.ts';
import { validate } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { isSequence, openIssues } from './issues.ts';
import { runLoop, type CheckResult, type Checks, type Fixer, type LoopResult } from './engine.ts';
import { describeFailure, runCommand } from './process.ts';

/** No checks, a shell command (the candidate as JSON on stdin, exit 0 = pass), or a function. */
export type ToolCallChecks =
  undefined | { readonly command: string; readonly timeoutMs?: number } | Checks<Sequence>;

export interface ToolCallLoopOptions {
  readonly sequence: Sequence;
  readonly catalog: Catalog;
  readonly fixer: Fixer<Sequence>;
  /** What the fixer is shown; default `issues`. */
  readonly feedback?: FeedbackFormat;
  readonly checks?: ToolCallChecks;
  readonly maxRounds?: number;
  readonly stallLimit?: number;
  readonly proposeTimeoutMs?: number;
  /** Memory, answer-step name and type strictness for the validator. */
  readonly validate?: ValidateOptions;
  /** Options of the repair shown by the `suggestions` feedback. */
  readonly repair?: RepairOptions;
}

/** Default time limit of a check command. */
export const CHECK_TIMEOUT_MS = 30_000;

/** A check that runs `sh -c command` with the candidate (NESTFUL JSON) on stdin; exit 0 = pass. */
export function commandCheck(command: string, timeoutMs = CHECK_TIMEOUT_MS): Checks<Sequence> {
  return async (sequence): Promise<CheckResult> => {
    const outcome = await runCommand(command, JSON.stringify(sequence), timeoutMs);
    if (outcome.code === 0 && !outcome.timedOut) return { pass: true };
    return { pass: false, reason: `check command ${describeFailure(outcome, timeoutMs)}` };
  };
}

function toChecks(checks: ToolCallChecks): Checks<Sequence> | undefined {
  if (checks === undefined || typeof checks === 'function') return checks;
  return commandCheck(checks.command, checks.timeoutMs);
}

/** The feedback text for a state, with the optimiser's repair when the format shows suggestions. */
export async function feedbackFor(
  format: FeedbackFormat,
  sequence: Sequence,
  catalog: Catalog,
  options: { validate?: ValidateOptions; repair?: RepairOptions } = {},
): Promise<string> {
  const v = options.validate ?? {};
  const validation = validate(sequence, catalog, v);
  const repaired =
    format === 'suggestions' && !validation.valid
      ? await repair(sequence, catalog, { ...v, ...options.repair })
      : undefined;
  return feedback(format, {
    sequence,
    catalog,
    validation,
    repair: repaired,
    memory: v.memory,
    resultName: v.resultName ?? DEFAULT_RESULT_NAME,
  });
}

/** Runs the repair loop on a tool-call sequence. */
export function loopToolCalls(options: ToolCallLoopOptions): Promise<LoopResult<Sequence, Issue>> {
  const { catalog } = options;
  const v = options.validate ?? {};
  const format = options.feedback ?? 'issues';
  return runLoop<Sequence, Issue>({
    initial: options.sequence,
    issues: (s) => openIssues(s, catalog, v),
    checks: toChecks(options.checks),
    fixer: options.fixer,
    feedback: (s) => feedbackFor(format, s, catalog, { validate: v, repair: options.repair }),
    maxRounds: options.maxRounds,
    stallLimit: options.stallLimit,
    proposeTimeoutMs: options.proposeTimeoutMs,
    isState: isSequence,
  });
}
