/** What the commands that read files of records (batch jobs, fix, export) hand a call for each record. */
import type { Sequence } from '../model/types.ts';
import type { RecordItem } from '../read/records.ts';
import type { Settings } from './call.ts';

/**
 * What a record of a file gives a call: its sequence, or, when the settings heal, the sequence as given (one
 * that could not be read included: `RecordOptions.keepUnparsed`); undefined when it gives nothing to repair.
 */
export function recordSubject(
  settings: Settings,
  record: RecordItem,
): { readonly sequence: Sequence } | { readonly input: unknown } | undefined {
  const given = record.unparsed ?? record.sequence;
  if (settings.heal === true && given !== undefined) return { input: given };
  return record.error === undefined && record.sequence ? { sequence: record.sequence } : undefined;
}
