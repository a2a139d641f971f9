/**
 * One weight setting scored on labelled records: how often the repair restores the gold's data flow
 * (`src/score/flow.ts`: label names and the order of independent steps ignored), how often it is
 * executable (no `ask`/`confirm`), its mean cost and edit count, and the median repair time.
 */
import type { CostModel, WeightName } from '../../src/model/cost.ts';
import { withWeights } from '../../src/read/cost-models.ts';
import { sameDataFlow } from '../../src/score/flow.ts';
import { mean, median } from '../bench/stats.ts';
import type { Edit, Sequence } from '../../src/model/types.ts';
import { repair } from '../../src/repair/repair.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import type { LabelledRecord } from './dataset.ts';

/** Weight overrides of one setting (`{ slotFill: 2, newMap: 0.5 }`). */
export type Setting = Partial<Record<WeightName, number>>;

/** Options of every repair in an evaluation, besides the cost model; `mappingsFor` picks a table per set. */
export interface EvalOptions extends Omit<RepairOptions, 'cost' | 'mappings' | 'fixes'> {
  readonly mappingsFor?: (record: LabelledRecord) => RepairOptions['mappings'];
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
}

export interface SettingResult {
  readonly setting: Setting;
  readonly n: number;
  readonly restored: number;
  readonly executable: number;
  /** Repairs that ended in `timeout` or `error`. */
  readonly failed: number;
  readonly restorationRate: number;
  readonly executableRate: number;
  readonly meanCost: number;
  readonly meanEdits: number;
  readonly medianMs: number;
}

export function repairOptions(record: LabelledRecord, cost: CostModel, options: EvalOptions): RepairOptions {
  const { mappingsFor, ...rest } = options;
  return { ...rest, cost, mappings: mappingsFor?.(record) };
}

/** Repairs one record under `cost` and compares the repair with the gold. */
export async function repairRecord(
  record: LabelledRecord,
  cost: CostModel,
  options: EvalOptions = {},
): Promise<RecordOutcome> {
  const result = await repair(record.sequence, record.catalog, repairOptions(record, cost, options));
  const answered = result.status === 'repaired' || result.status === 'valid';
  return {
    id: record.id,
    sequence: result.sequence,
    edits: result.edits,
    restored: answered && sameDataFlow(result.sequence, record.gold),
    executable: answered && result.isExecutable !== false,
    failed: !answered,
    cost: result.cost,
    timeMs: result.timeMs,
  };
}

export function summariseOutcomes(setting: Setting, outcomes: readonly RecordOutcome[]): SettingResult {
  const n = outcomes.length;
  const restored = outcomes.filter((o) => o.restored).length;
  const executable = outcomes.filter((o) => o.executable).length;
  return {
    setting,
    n,
    restored,
    executable,
    failed: outcomes.filter((o) => o.failed).length,
    restorationRate: n === 0 ? 0 : restored / n,
    executableRate: n === 0 ? 0 : executable / n,
    meanCost: mean(outcomes.map((o) => o.cost)),
    meanEdits: mean(outcomes.map((o) => o.edits.length)),
    medianMs: median(outcomes.map((o) => o.timeMs)),
  };
}

/** Scores `setting` (weight overrides on `base`) on `records`, one repair at a time, in order. */
export async function evaluateSetting(
  records: readonly LabelledRecord[],
  base: CostModel,
  setting: Setting,
  options: EvalOptions = {},
): Promise<SettingResult> {
  const cost = withWeights(base, setting);
  const outcomes: RecordOutcome[] = [];
  for (const record of records) outcomes.push(await repairRecord(record, cost, options));
  return summariseOutcomes(setting, outcomes);
}
