/** Reading a command's input: one sequence (any form) or many records (NESTFUL data array, JSONL). */
import { parseRecords, type RecordItem } from '../read/records.ts';
import { parseSequenceText } from '../read/sequence.ts';
import { InputError } from '../model/errors.ts';
import { isPlainObject } from '../read/json.ts';

export interface Input {
  /** True when the input held one sequence (results print as one document, not JSON lines). */
  readonly single: boolean;
  readonly records: readonly RecordItem[];
}

export function parseInput(text: string): Input {
  if (text.trim() === '') throw new InputError('input', 'empty input: expected a sequence or records');
  // One record (`{"id": …, "sequence": …, "memory": …}`, a JSONL file of one line): its id, memory, goals
  // and catalog are the record's, as they are on any line of a longer file; without an id it prints as one
  // sequence does.
  const record = recordObject(text);
  if (record) {
    const records = parseRecords(text);
    return { single: record.id === undefined && records.length === 1, records };
  }
  let singleError: unknown;
  try {
    return { single: true, records: [{ id: '0', sequence: parseSequenceText(text) }] };
  } catch (error) {
    singleError = error;
  }
  const records = parseRecords(text);
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
