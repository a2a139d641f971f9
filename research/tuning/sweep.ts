/**
 * A sweep: every setting scored on the same records, in-process. The settings are interleaved record by
 * record (record 1 under the base and every setting, then record 2, …), so the cost of a cold process (JIT,
 * WebAssembly tiering: the first few hundred repairs run several times slower) and any change in the
 * machine's load fall on every setting alike; the base row no longer pays for the warm-up. Restoration
 * does not depend on timing, so the rates are reproducible; only `medianMs` varies between runs.
 */
import type { CostModel } from '../../src/model/cost.ts';
import { sample } from '../bench/context.ts';
import {
  repairRecord,
  summariseOutcomes,
  type EvalOptions,
  type RecordOutcome,
  type SettingResult,
} from './evaluate.ts';
import type { LabelledRecord } from './dataset.ts';
import { applySetting, type Setting } from './settings.ts';

/** Untimed repairs before the sweep, spread over the records. */
const WARM_UP = 30;

export interface SweepResult {
  /** The base cost model without overrides, scored on the same records. */
  readonly baseline: SettingResult;
  /** One row per setting, best first (see `rankResults`). */
  readonly rows: readonly SettingResult[];
}

/**
 * Best first: restoration rate, then executable rate, then fewer edits; ties keep the settings' order,
 * so the ranking is deterministic. Mean cost is not compared: it is in each setting's own units.
 */
export function rankResults(rows: readonly SettingResult[]): SettingResult[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort(
      (a, b) =>
        b.row.restored / Math.max(1, b.row.n) - a.row.restored / Math.max(1, a.row.n) ||
        b.row.executable / Math.max(1, b.row.n) - a.row.executable / Math.max(1, a.row.n) ||
        a.row.meanEdits - b.row.meanEdits ||
        a.i - b.i,
    )
    .map(({ row }) => row);
}

export async function runSweep(
  records: readonly LabelledRecord[],
  base: CostModel,
  settings: readonly Setting[],
  options: EvalOptions = {},
  log: (line: string) => void = () => {},
): Promise<SweepResult> {
  const all: Setting[] = [{}, ...settings];
  const models = all.map((s) => applySetting(base, s));
  for (const record of sample(records, WARM_UP)) await repairRecord(record, base, options);
  const outcomes: RecordOutcome[][] = all.map(() => []);
  const step = Math.max(1, Math.ceil(records.length / 10));
  for (const [i, record] of records.entries()) {
    for (const [k, model] of models.entries()) outcomes[k].push(await repairRecord(record, model, options));
    if ((i + 1) % step === 0 || i + 1 === records.length)
      log(
        `${i + 1}/${records.length} records × ${all.length} settings (base restored ${count(outcomes[0])})`,
      );
  }
  const results = all.map((s, k) => summariseOutcomes(s, outcomes[k], records));
  return { baseline: results[0], rows: rankResults(results.slice(1)) };
}

const count = (outcomes: readonly RecordOutcome[]) => outcomes.filter((o) => o.restored).length;
