/**
 * Checking a request against its schema, for the front ends that receive JSON (HTTP bodies, MCP tool
 * arguments): the first problem becomes an `InputError` naming the request field (`solver`, `goals.apis`,
 * an unknown field by its own name), so every front end refuses bad input with the same one-line error.
 */
import type { z } from 'zod';
import { InputError, describeZodError, formatPath } from '../model/errors.ts';

/** Parses `value` with `schema`; `root` names the request itself when the problem is with the whole of it. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, root = 'body'): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  if (first?.code === 'unrecognized_keys') {
    const path = first.path as (string | number)[];
    throw new InputError(formatPath([...path, first.keys[0]]), 'unknown field');
  }
  const { field, problem } = describeZodError(parsed.error);
  // zod calls a JSON object a record.
  throw new InputError(field === '' ? root : field, problem.replace(/\brecord\b/g, 'object'));
}
