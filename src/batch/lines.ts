/**
 * The line of a record that could not be processed (malformed, or its workers failed twice). Kept apart
 * from the repair so that the main thread writes it without loading the solver.
 */
import type { RecordItem } from '../read/records.ts';
import { outcomeOf } from './summary.ts';
import type { Outcome } from './types.ts';

/** Same keys as a result line, plus `reason`. */
export function errorLine(id: string, reason: string): Record<string, unknown> {
  return {
    id,
    determination: null,
    status: 'error',
    sequence: null,
    edits: [],
    cost: 0,
    optimal: false,
    issues: [],
    timeMs: 0,
    reason,
  };
}

export function errorDone(record: RecordItem, reason: string): { line: string; outcome: Outcome } {
  const line = errorLine(record.id, reason);
  return { line: JSON.stringify(line), outcome: outcomeOf(record, line) };
}
