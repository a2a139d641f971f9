/** The error-tag vocabulary of the NESTFUL error tagger, the tag record, and helpers shared by the taggers. */
import type { Issue, Memory, Sequence } from '../model/types.ts';
import type { Strictness } from '../model/constants.ts';

export const ERROR_TAGS = [
  'made_up_api',
  'missing_parameter',
  'made_up_parameter',
  'wrong_assignment',
  'made_up_assignment',
  'missing_memory',
  'missing_call',
  'new_call',
  'bad_repeat',
] as const;

export type ErrorTagName = (typeof ERROR_TAGS)[number];

export interface ErrorTag {
  readonly tag: ErrorTagName;
  /** Predicted step (0-based); for `missing_call`, the step the missing call should come before. */
  readonly step: number;
  /** The gold step involved, when a gold sequence was given. */
  readonly goldStep?: number;
  readonly param?: string;
  readonly ref?: string;
  readonly detail: string;
}

export interface TagOptions {
  readonly gold?: Sequence;
  readonly memory?: Memory;
  readonly resultName?: string;
  /** Literal type/enum checks of the validator (strict: mismatches become `wrong_assignment`). */
  readonly types?: Strictness;
}

/** A validator issue as a tag, keeping its step, parameter, reference and message. */
export function fromIssue(tag: ErrorTagName, issue: Issue): ErrorTag {
  return {
    tag,
    step: issue.step,
    ...(issue.param !== undefined ? { param: issue.param } : {}),
    ...(issue.ref !== undefined ? { ref: issue.ref } : {}),
    detail: issue.message,
  };
}

/** By step, then in vocabulary order; otherwise as found. */
export function order(tags: ErrorTag[]): ErrorTag[] {
  return tags
    .map((t, k) => ({ t, k }))
    .sort(
      (a, b) => a.t.step - b.t.step || ERROR_TAGS.indexOf(a.t.tag) - ERROR_TAGS.indexOf(b.t.tag) || a.k - b.k,
    )
    .map(({ t }) => t);
}
