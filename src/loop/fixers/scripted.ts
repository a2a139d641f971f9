/** Canned candidates, one per round: for tests and demos. */
import type { Sequence } from '../../model/types.ts';
import { InputError, errorMessage } from '../../model/errors.ts';
import { loadJsonWith } from '../../read/files.ts';
import { parseSequence } from '../../read/sequence.ts';
import { stall, type Fixer, type Stalled } from '../engine.ts';

/** Proposes `candidates[round]`; stalls once they run out. */
export function scriptedFixer(candidates: readonly Sequence[]): Fixer<Sequence> {
  return {
    async propose(_state: Sequence, _feedback: string, round: number): Promise<Sequence | Stalled> {
      return round < candidates.length
        ? candidates[round]
        : stall(`no scripted candidate for round ${round}`);
    },
  };
}

/** Candidates from JSON: an array of sequences (each NESTFUL or OpenAI form). Errors name `candidates[i]…`. */
export function parseCandidates(json: unknown, field = 'candidates'): Sequence[] {
  if (!Array.isArray(json)) throw new InputError(field, 'expected a JSON array of sequences');
  return json.map((item, i) => {
    try {
      return parseSequence(item);
    } catch (error) {
      if (!(error instanceof InputError)) throw new InputError(`${field}[${i}]`, errorMessage(error));
      // The inner field is rooted at the sequence (`sequence[2].name`): re-root it here.
      throw new InputError(`${field}[${i}]${error.field.replace(/^[A-Za-z_]\w*/, '')}`, error.problem);
    }
  });
}

/** Reads candidates from a JSON file (an array of sequences). */
export function readCandidates(path: string, field = 'candidates'): Sequence[] {
  return loadJsonWith(path, (json) => parseCandidates(json, field));
}

export function scriptedFixerFromFile(path: string): Fixer<Sequence> {
  return scriptedFixer(readCandidates(path));
}
