/**
 * The restoration benchmark's measurement of one build: every record of both recipes is repaired with each
 * backend, the first backend's repair is judged against the gold by `src/score`, and the other backends'
 * repairs are compared with it (backend agreement: the identical sequence). Validity is judged by this
 * checkout's validator, so two builds are held to the same standard.
 */
import type { Catalog } from '../../src/model/types.ts';
import type { RepairResult } from '../../src/model/options.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { scoreRepair, type RepairVerdict } from '../../src/score/index.ts';
import { validate } from '../../src/validate/validate.ts';
import type { NestfulStep } from '../../src/read/sequence.ts';
import type { RepairFn } from './build-ref.ts';

export type Recipe = 'first' | 'second';

/** A corrupted record of either recipe. */
export interface BenchRecord {
  readonly id: string;
  readonly kind: string;
  readonly set: string;
  readonly gold: NestfulStep[];
  readonly sequence: NestfulStep[];
}

export type Verdict = Omit<RepairVerdict, 'askReadings'>;

export interface ScoredOutcome {
  readonly id: string;
  readonly recipe: Recipe;
  readonly kind: string;
  readonly set: string;
  /** The build's repair did not return the input as valid. */
  readonly detected: boolean;
  readonly status: string;
  /** The repair re-validates under this checkout's validator (`ask`/`confirm` allowed). */
  readonly valid: boolean;
  readonly verdict: Verdict;
  /** Repair time with the first backend. */
  readonly timeMs: number;
  /** Per other backend: the same sequence (and status) as the first backend's. */
  readonly agree: Readonly<Record<string, boolean>>;
  /** The first backend's repair as a diff against the input, kept when the gold was not restored. */
  readonly diff?: string;
}

const UNANSWERED = new Set(['timeout', 'error']);

export async function scoreRecord(
  record: BenchRecord,
  recipe: Recipe,
  catalog: Catalog,
  repair: RepairFn,
  backends: readonly SolverName[],
): Promise<ScoredOutcome> {
  const results: RepairResult[] = [];
  for (const solver of backends) results.push(await repair(record.sequence, catalog, { solver }));
  const first = results[0];
  const answered = !UNANSWERED.has(first.status);
  const { askReadings: _readings, ...verdict } = scoreRepair({
    input: record.sequence,
    gold: record.gold,
    repaired: answered ? first.sequence : null,
  });
  const same = (r: RepairResult) =>
    r.status === first.status && JSON.stringify(r.sequence) === JSON.stringify(first.sequence);
  return {
    id: record.id,
    recipe,
    kind: record.kind,
    set: record.set,
    detected: first.status !== 'valid',
    status: first.status,
    valid: answered && validate(first.sequence, catalog, { pseudoSteps: true }).valid,
    verdict,
    timeMs: first.timeMs,
    agree: Object.fromEntries(backends.slice(1).map((name, k) => [name, same(results[k + 1])])),
    ...(verdict.restoredModuloAsks ? {} : { diff: first.diff }),
  };
}
