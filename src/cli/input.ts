/** Reading a command's input: one sequence (any form) or many records (NESTFUL data array, JSONL). */
import { dirname, resolve } from 'node:path';
import { parseRecords, type RecordItem, type RecordOptions } from '../read/records.ts';
import { RecordCatalogs } from '../batch/catalogs.ts';
import { heldLabels, parseSequenceText } from '../read/sequence.ts';
import { InputError } from '../model/errors.ts';
import { isPlainObject } from '../read/json.ts';

export interface Input {
  /** True when the input held one sequence (results print as one document, not JSON lines). */
  readonly single: boolean;
  readonly records: readonly RecordItem[];
}

/**
 * Where the records of an input read a catalog they name by path (`"catalog": "tools.json"`): the input
 * file's folder, or the working directory for standard input.
 */
export const recordBase = (file: string | undefined): string =>
  file === undefined || file === '-' ? process.cwd() : dirname(resolve(file));

/**
 * `file`: the input's path (absent or `-` for standard input), for the catalogs its records name; `run`: the
 * run's memory and executed calls, whose labels no unlabelled call of the input takes.
 */
export function parseInput(
  text: string,
  file?: string,
  run: Pick<RecordOptions, 'memory' | 'executed' | 'keepUnparsed'> = {},
): Input {
  const options: RecordOptions = {
    ...run,
    parseCatalog: new RecordCatalogs({ base: recordBase(file) }).parse,
  };
  if (text.trim() === '') throw new InputError('input', 'empty input: expected a sequence or records');
  // One record (`{"id": …, "sequence": …, "memory": …}`, a JSONL file of one line): its id, memory, goals
  // and catalog are the record's, as they are on any line of a longer file; without an id it prints as one
  // sequence does.
  const record = recordObject(text);
  if (record) {
    const records = parseRecords(text, options);
    return { single: record.id === undefined && records.length === 1, records };
  }
  let singleError: unknown;
  try {
    const held = heldLabels(run.memory, run.executed);
    return { single: true, records: [{ id: '0', sequence: parseSequenceText(text, { held }) }] };
  } catch (error) {
    singleError = error;
  }
  const records = parseRecords(text, options);
  // One sequence that cannot be read as given, kept for healing (`--heal`).
  if (records.length === 1 && records[0].unparsed !== undefined) return { single: true, records };
  if (records.length === 1 && records[0].error) {
    // Neither one sequence nor a record file: report the single-sequence reading, which names the field.
    throw singleError instanceof InputError ? singleError : new InputError('input', records[0].error);
  }
  return { single: false, records };
}

/** The object `text` holds when it is one JSON object with a `sequence` (a record), else null. */
function recordObject(text: string): { id?: unknown } | null {
  const trimmed = text.trim();
  if (trimmed[0] !== '{') return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isPlainObject(value) && Object.hasOwn(value, 'sequence') ? (value as { id?: unknown }) : null;
  } catch {
    return null;
  }
}
