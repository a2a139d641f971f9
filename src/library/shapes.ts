/**
 * The shapes of the library's own intermediate values (a repair result, a validation, a loop's result, a
 * MILP model, a mapping table…) as cheap argument checks: the fields a function taking one reads first.
 * A value the library produced always passes; a hand-made one missing them is an `InputError` naming the
 * field instead of a TypeError.
 */
import {
  anything,
  arrayOf,
  boolean,
  func,
  number,
  object,
  oneOf,
  optional,
  sequence,
  shaped,
  string,
  type Check,
} from '../api/arguments.ts';
import { REQUEST_KINDS } from '../api/request.ts';

export const issue = shaped({ step: number, tag: string, message: string }, 'an issue');
export const edit = shaped({ kind: string, step: number, cost: number }, 'an edit');
export const healEdit = shaped({ kind: string, step: number, from: string, to: string }, 'a healing edit');
export const mapping = shaped({ from: string, to: string, score: number }, 'a mapping');
export const errorTag = shaped({ tag: string, step: number }, 'an error tag');

export const validation = shaped({ valid: boolean, issues: arrayOf(issue) }, 'a validation');
export const result = shaped(
  { status: string, sequence, edits: arrayOf(edit), issues: arrayOf(issue), cost: number },
  'a repair result',
);
export const loopResult = shaped(
  {
    state: anything,
    stop: string,
    rounds: number,
    history: arrayOf(number),
    leftover: arrayOf(),
    log: arrayOf(),
  },
  'a loop result',
);
export const pickResult = shaped(
  { by: string, reason: string, candidates: arrayOf(object) },
  'a pick result',
);

/** A rendered request's answer: its kind says which result it carries. */
export const answer: Check = (value, name, args) => {
  shaped({ kind: oneOf(REQUEST_KINDS) }, 'an answer')(value, name, args);
  const { kind } = value as { kind: string };
  if (kind === 'validate') return shaped({ validation })(value, name, args);
  return shaped({ result: kind === 'loop' ? loopResult : result })(value, name, args);
};

export const mappingTable = shaped(
  { mappings: arrayOf(mapping), computed: arrayOf(mapping), learned: arrayOf(object), occurrences: number },
  'a mapping table',
);
export const modesView = shaped({ rows: arrayOf(object), results: arrayOf(result) }, 'a modes view');
export const verdict = shaped({ answered: boolean, restored: boolean }, 'a repair verdict');
export const scoreSummary = shaped({ n: number, answered: number, asks: number }, 'a score summary');
export const batchSummary = shaped(
  { records: number, statuses: object, successRate: number, latencyMs: object },
  'a batch summary',
);
export const progressState = shaped(
  { done: number, rate: number, total: optional(number) },
  'a progress state',
);

export const milpModel = shaped(
  { numVars: number, cost: arrayOf(number), rows: arrayOf(object) },
  'a MILP model (from compile)',
);
export const plan = shaped(
  { steps: sequence, calls: arrayOf(object), offset: number, resultName: string },
  'a plan (from compile)',
);
export const zodError = shaped({ issues: arrayOf(object) }, 'a ZodError');
export const schema = shaped({ safeParse: func }, 'a zod schema');
export const fixer = shaped({ propose: func }, 'a fixer (an object with a propose method)');
export const writable = shaped({ write: func }, 'a writable stream');
