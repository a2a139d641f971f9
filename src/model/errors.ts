/**
 * Input errors of the adapters. Every problem with an external shape is reported as an `InputError` whose
 * `field` is the path of the offending value (`catalog[3].query_parameters.origin.required`), so a user can
 * find it in the file.
 */
import type { z } from 'zod';

/** A path into an external document: object keys and array indexes, the first segment naming the root. */
export type FieldPath = readonly (string | number)[];

/**
 * `text` on one line: line breaks and other control characters (an excerpt of the input quoted by
 * `JSON.parse`'s message, a file name) written as escapes, so that an error is always one line.
 */
export function oneLine(text: string): string {
  // String(): a caller outside the type checker may pass another value, which a template would have printed.
  return String(text).replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, (c) => {
    const escaped = JSON.stringify(c).slice(1, -1);
    return escaped.length > 1 ? escaped : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A problem with user-supplied input. `field` locates it; `problem` says what is wrong (one line each). */
export class InputError extends Error {
  readonly field: string;
  readonly problem: string;
  /** The file (or other source) the input came from, when known. */
  readonly source?: string;

  constructor(field: string, problem: string, source?: string) {
    const flat = oneLine(problem);
    const located = field === '' ? flat : `${oneLine(field)}: ${flat}`;
    super(source ? `${oneLine(source)}: ${located}` : located);
    this.name = 'InputError';
    this.field = field;
    this.problem = flat;
    if (source !== undefined) this.source = source;
  }

  /** The same error, attributed to `source` (a file name). */
  from(source: string): InputError {
    return new InputError(this.field, this.problem, source);
  }
}

/**
 * Input over a configured limit: `too-large` when the input itself exceeds it (a catalog nested too deep,
 * a model too large), `full` when the input is fine but a shared store has no room for it, `busy` when
 * a shared capacity is used up for now (try again later).
 */
export type LimitKind = 'too-large' | 'full' | 'busy';

export class LimitError extends InputError {
  readonly kind: LimitKind;

  constructor(field: string, problem: string, kind: LimitKind = 'too-large') {
    super(field, problem);
    this.name = 'LimitError';
    this.kind = kind;
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Writes a path the way a reader would type it: `catalog[3].query_parameters["Exchange Rate"]`. */
export function formatPath(path: FieldPath): string {
  let out = '';
  path.forEach((segment, i) => {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (i === 0) out = segment;
    else out += IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  });
  return out;
}

type Issue = z.core.$ZodIssue;

/** The problem part of one issue, without zod's generic prefixes. */
function describeIssue(issue: Issue): string {
  if (issue.code === 'invalid_union') {
    const expected = new Set<string>();
    let absent = true;
    for (const branch of issue.errors) {
      for (const inner of branch)
        if (inner.code === 'invalid_type' && inner.path.length === 0) {
          expected.add(inner.expected);
          absent &&= inner.message.endsWith('received undefined');
        }
    }
    // A field left out is named as missing, not as a value of the wrong kind.
    if (expected.size > 0) return `${absent ? 'required: ' : ''}expected ${[...expected].join(' or ')}`;
  }
  return issue.message.replace(/^Invalid (input|option): /, '');
}

/** The location and problem of the first issue of a ZodError, `at` being the path of the parsed value. */
export function describeZodError(error: z.ZodError, at: FieldPath = []): { field: string; problem: string } {
  const [first, ...rest] = error.issues;
  if (!first) return { field: formatPath(at), problem: 'invalid input' };
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  return {
    field: formatPath([...at, ...(first.path as (string | number)[])]),
    problem: describeIssue(first) + more,
  };
}

/** One line: `catalog[3].query_parameters.origin.required: expected boolean, received string`. */
export function formatZodError(error: z.ZodError, at: FieldPath = []): string {
  const { field, problem } = describeZodError(error, at);
  return field === '' ? problem : `${field}: ${problem}`;
}

/** Turns a ZodError into an InputError located under `at`. */
export function inputErrorFromZod(error: z.ZodError, at: FieldPath = []): InputError {
  const { field, problem } = describeZodError(error, at);
  return new InputError(field, problem);
}

/** Parses `value` with `schema`, throwing an InputError located under `at` on failure. */
export function parseAt<S extends z.ZodType>(schema: S, value: unknown, at: FieldPath): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw inputErrorFromZod(result.error, at);
  return result.data;
}

/**
 * A one-line message for any thrown value. `named` puts the error's class first (`RuntimeError: Aborted()`):
 * the solvers keep it, so that a broken runtime can be told from a bad input by its reason.
 */
export function errorMessage(error: unknown, named = false): string {
  if (!(error instanceof Error)) return String(error);
  return named ? `${error.name}: ${error.message}` : error.message;
}
