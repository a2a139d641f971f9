/**
 * One setting scored on labelled records: how often the repair restores the gold's data flow
 * (`src/score/flow.ts`: label names and the order of independent steps ignored), how often it is
 * executable (no `ask`/`confirm`), its mean cost and edit count, and the median repair time; every rate
 * with a bootstrap interval, overall and per mistake kind, and each record's outcome (to see which
 * records flip between settings).
 */
import type { CostModel } from '../../src/model/cost.ts';
import { scoreRepair } from '../../src/score/index.ts';
import { formatStringForm } from '../../src/read/sequence.ts';
import { kindGroup } from '../bench/evaluate.ts';
import { mean, median } from '../bench/stats.ts';
import type { Edit, Sequence } from '../../src/model/types.ts';
import { repair } from '../../src/repair/repair.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import type { LabelledRecord } from './dataset.ts';
import { bootstrapMean, flags, type Interval } from './bootstrap.ts';
import { applySetting, type Setting } from './settings.ts';

export type { Setting };

/** Options of every repair in an evaluation, besides the cost model; `mappingsFor` picks a table per set. */
export interface EvalOptions extends Omit<RepairOptions, 'cost' | 'mappings' | 'fixes'> {
  readonly mappingsFor?: (record: LabelledRecord) => RepairOptions['mappings'];
  /** Fixes to find besides the repair (`fixes` minus 1), each judged as the repair is (`alternatives`). */
  readonly alternatives?: number;
}

export interface RecordOutcome {
  readonly id: string;
  /** The repair (or the input when the repair failed). */
  readonly sequence: Sequence;
  readonly edits: readonly Edit[];
  readonly restored: boolean;
  readonly executable: boolean;
  readonly failed: boolean;
  readonly cost: number;
  readonly timeMs: number;
  /** With the option `confidenceEvidence`: the repair's confidence evidence (src/confidence/). */
  readonly evidence?: Readonly<Record<string, number>>;
  /** With `alternatives` and `confidenceEvidence`: fix 2, 3, …, each with its evidence and judgment. */
  readonly alternatives?: readonly {
    readonly evidence: Readonly<Record<string, number>>;
    readonly right: boolean;
  }[];
}

/** What a setting did to one record. */
export interface RecordScore {
  readonly id: string;
  /** The record's kind group (`param_name`, `2 mistakes`; `(none)` when unlabelled). */
  readonly kind: string;
  readonly restored: boolean;
  readonly executable: boolean;
  readonly failed: boolean;
}

/** Counts and rates of one group of records, each rate with its 95 % bootstrap interval. */
export interface GroupScore {
  readonly n: number;
  readonly restored: number;
  readonly executable: number;
  readonly restorationRate: number;
  readonly executableRate: number;
  readonly restorationCi: Interval;
  readonly executableCi: Interval;
}

export interface SettingResult extends GroupScore {
  readonly setting: Setting;
  /** Repairs that ended in `timeout` or `error`. */
  readonly failed: number;
  readonly meanCost: number;
  readonly meanEdits: number;
  readonly medianMs: number;
  /** Per kind group, in the order the kinds first appear. */
  readonly byKind: Readonly<Record<string, GroupScore>>;
  /** Per record, in input order. */
  readonly records: readonly RecordScore[];
}

export function repairOptions(record: LabelledRecord, cost: CostModel, options: EvalOptions): RepairOptions {
  const { mappingsFor, alternatives, ...rest } = options;
  return {
    ...rest,
    ...record.options,
    cost,
    mappings: mappingsFor?.(record),
    ...(alternatives ? { fixes: alternatives + 1 } : {}),
  };
}

/**
 * Whether `repaired` is the record's gold: restored modulo unknowns (the benchmark's measure: an ask stands
 * for a gold literal the input lacks), or, for an `exact` record, the very sequence.
 */
export function judge(record: LabelledRecord, repaired: Sequence): boolean {
  if (record.exact) return formatStringForm(repaired) === formatStringForm(record.gold);
  const executed = record.options?.executed;
  return scoreRepair({ input: record.sequence, gold: record.gold, repaired, executed })
    .restoredModuloUnknowns;
}

/** Repairs one record under `cost` and compares the repair with the gold. */
export async function repairRecord(
  record: LabelledRecord,
  cost: CostModel,
  options: EvalOptions = {},
): Promise<RecordOutcome> {
  const result = await repair(record.sequence, record.catalog, repairOptions(record, cost, options));
  const answered = result.status === 'repaired' || result.status === 'valid';
  const restores = (repaired: Sequence) => judge(record, repaired);
  const alternatives = (result.fixes ?? [])
    .slice(1)
    .flatMap((fix) => (fix.evidence ? [{ evidence: fix.evidence, right: restores(fix.sequence) }] : []));
  return {
    id: record.id,
    sequence: result.sequence,
    edits: result.edits,
    // Restored modulo unknowns, the benchmark's measure: an ask stands for a gold literal the input lacks.
    restored: answered && restores(result.sequence),
    executable: answered && result.isExecutable !== false,
    failed: !answered,
    cost: result.cost,
    timeMs: result.timeMs,
    ...(result.evidence ? { evidence: result.evidence } : {}),
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
}

/** Counts, rates and intervals of a group of records. */
export function groupScore(records: readonly RecordScore[]): GroupScore {
  const n = records.length;
  const restored = records.filter((r) => r.restored).length;
  const executable = records.filter((r) => r.executable).length;
  return {
    n,
    restored,
    executable,
    restorationRate: n === 0 ? 0 : restored / n,
    executableRate: n === 0 ? 0 : executable / n,
    restorationCi: bootstrapMean(flags(records.map((r) => r.restored))),
    executableCi: bootstrapMean(flags(records.map((r) => r.executable))),
  };
}

export function summariseOutcomes(
  setting: Setting,
  outcomes: readonly RecordOutcome[],
  records: readonly LabelledRecord[],
): SettingResult {
  const scores: RecordScore[] = outcomes.map((o, i) => ({
    id: o.id,
    kind: records[i].kind === '' ? '(none)' : kindGroup(records[i].kind),
    restored: o.restored,
    executable: o.executable,
    failed: o.failed,
  }));
  const kinds = [...new Set(scores.map((s) => s.kind))];
  return {
    setting,
    ...groupScore(scores),
    failed: outcomes.filter((o) => o.failed).length,
    meanCost: mean(outcomes.map((o) => o.cost)),
    meanEdits: mean(outcomes.map((o) => o.edits.length)),
    medianMs: median(outcomes.map((o) => o.timeMs)),
    byKind: Object.fromEntries(kinds.map((k) => [k, groupScore(scores.filter((s) => s.kind === k))])),
    records: scores,
  };
}

/** Scores `setting` (overrides on `base`) on `records`, one repair at a time, in order. */
export async function evaluateSetting(
  records: readonly LabelledRecord[],
  base: CostModel,
  setting: Setting,
  options: EvalOptions = {},
): Promise<SettingResult> {
  const cost = applySetting(base, setting);
  const outcomes: RecordOutcome[] = [];
  for (const record of records) outcomes.push(await repairRecord(record, cost, options));
  return summariseOutcomes(setting, outcomes, records);
}
