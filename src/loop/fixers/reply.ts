/** A fixer's JSON reply back into a sequence. */
import type { Sequence } from '../../model/types.ts';
import { parseSequence } from '../../read/sequence.ts';
import { errorMessage } from '../../model/errors.ts';
import { stall, type Stalled } from '../engine.ts';

/** Parses a JSON reply (NESTFUL or OpenAI form) into a sequence, or explains why it cannot. */
export function parseReply(text: string, who: string): Sequence | Stalled {
  if (text.trim() === '') return stall(`${who} printed nothing`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return stall(`${who} printed no JSON: ${errorMessage(error)}`);
  }
  try {
    return parseSequence(json);
  } catch (error) {
    return stall(`${who} printed no sequence: ${errorMessage(error)}`);
  }
}
