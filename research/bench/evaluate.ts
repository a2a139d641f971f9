/**
 * One repair per corrupted record under given options, with the outcome the modes page reports:
 * detection, validity, restoration of the gold (by data flow and in order), executability (no `ask`),
 * lost literals, edits, cost and time. The restoration page judges repairs with `src/score` instead
 * (`scored.ts`).
 */
import type { Catalog } from '../../src/model/types.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import { repair } from '../../src/repair/repair.ts';
import { signature } from '../../src/score/flow.ts';
import { validate } from '../../src/validate/validate.ts';
import type { CorruptionRecord } from './data.ts';
import { lostLiterals, sameDataFlow } from '../../src/score/index.ts';

export interface Outcome {
  readonly id: string;
  readonly kind: string;
  readonly set: string;
  /** The validator calls the corrupted sequence invalid. */
  readonly detected: boolean;
  readonly status: string;
  /** The returned sequence re-validates (with `ask`/`confirm` pseudo-steps allowed). */
  readonly valid: boolean;
  /** Same data flow as the gold (labels and independent step order ignored). */
  readonly restored: boolean;
  /** Same as the gold up to label names, in the same order (`signature` of src/score/flow.ts). */
  readonly restoredInOrder: boolean;
  /** No `ask`/`confirm` pseudo-step in the repair. */
  readonly executable: boolean;
  /** The repair lost a literal argument value that the input and the gold both have (user data gone). */
  readonly lostLiteral: boolean;
  readonly edits: number;
  readonly cost: number;
  readonly timeMs: number;
  readonly vars?: number;
  readonly rows?: number;
  readonly reason?: string;
  /** The repair as a diff against the corrupted input, kept when the gold was not restored. */
  readonly diff?: string;
}

export async function evaluateRecord(
  record: CorruptionRecord,
  catalog: Catalog,
  options: RepairOptions = {},
): Promise<Outcome> {
  const detected = !validate(record.sequence, catalog, options).valid;
  const result = await repair(record.sequence, catalog, options);
  const answered = result.status === 'repaired' || result.status === 'valid';
  const valid = answered && validate(result.sequence, catalog, { ...options, pseudoSteps: true }).valid;
  const restored = answered && sameDataFlow(result.sequence, record.gold);
  return {
    id: record.id,
    kind: record.kind,
    set: record.set,
    detected,
    status: result.status,
    valid,
    restored,
    restoredInOrder: answered && signature(result.sequence) === signature(record.gold),
    executable: answered && result.isExecutable !== false,
    lostLiteral: answered && lostLiterals(record.sequence, record.gold, result.sequence) > 0,
    edits: result.edits.length,
    cost: result.cost,
    timeMs: result.timeMs,
    vars: result.model?.vars,
    rows: result.model?.rows,
    reason: result.reason,
    ...(restored ? {} : { diff: result.diff }),
  };
}

export async function evaluate(
  records: readonly CorruptionRecord[],
  catalogOf: (set: string) => Catalog,
  options: RepairOptions = {},
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const record of records) out.push(await evaluateRecord(record, catalogOf(record.set), options));
  return out;
}

/** Combinations are grouped by their number of mistakes. */
export function kindGroup(kind: string): string {
  const parts = kind.split('+').length;
  return parts > 1 ? `${parts} mistakes` : kind;
}
