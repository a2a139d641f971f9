/**
 * Feedback: what a fixer (an LLM, a script, a person) is shown about a sequence. One text per format,
 * deterministic, shared by the repair loop and every other command that prints feedback.
 */
import type { Catalog, Memory, Sequence } from '../model/types.ts';
import type { RepairResult, Validation } from '../model/options.ts';
import { validate } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { explainText, traceText } from './flow.ts';
import { issuesText, suggestionsText, verdictText } from './formats.ts';

export const FEEDBACK_FORMATS = ['verdict', 'issues', 'suggestions', 'explain', 'trace'] as const;

/** `verdict` | `issues` | `suggestions` | `explain` | `trace`. */
export type FeedbackFormat = (typeof FEEDBACK_FORMATS)[number];

export interface FeedbackInput {
  readonly sequence: Sequence;
  readonly catalog: Catalog;
  /** The sequence's validation; computed when absent. */
  readonly validation?: Validation;
  /** The optimiser's repair of the sequence (used by `suggestions`). */
  readonly repair?: RepairResult;
  readonly memory?: Memory;
  /** Name of the answer pseudo-step (default `var_result`). */
  readonly resultName?: string;
}

export function isFeedbackFormat(value: unknown): value is FeedbackFormat {
  return typeof value === 'string' && (FEEDBACK_FORMATS as readonly string[]).includes(value);
}

/** The feedback text of one format. */
export function feedback(format: FeedbackFormat, input: FeedbackInput): string {
  const resultName = input.resultName ?? DEFAULT_RESULT_NAME;
  const validation =
    input.validation ?? validate(input.sequence, input.catalog, { memory: input.memory, resultName });
  switch (format) {
    case 'verdict':
      return verdictText(validation);
    case 'issues': {
      // A repair held back below the threshold says so: the model is to plan again, not to wait for it.
      const repair = input.repair;
      const text = issuesText(input.sequence, validation);
      const held = repair?.status === 'uncertain' || (repair?.status === 'partial' && repair.reason);
      return held ? `${text}\nnot applied: ${repair.reason ?? 'uncertain'}` : text;
    }
    case 'suggestions':
      return suggestionsText(input.sequence, validation, input.repair);
    case 'explain':
      return explainText({ ...input, resultName });
    case 'trace':
      return traceText({ ...input, resultName });
  }
}

export { formatCall, formatIssue } from './render.ts';
export { formatEdit } from './formats.ts';
