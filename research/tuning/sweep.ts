/**
 * A sweep: every setting scored on the same records, in-process and one after the other (restoration
 * rates do not depend on timing, so the numbers are reproducible; only `medianMs` varies between runs).
 */
import type { CostModel } from '../../src/model/cost.ts';
import { evaluateSetting, type EvalOptions, type Setting, type SettingResult } from './evaluate.ts';
import type { LabelledRecord } from './dataset.ts';

/** Records per set repaired once before timing. */
const WARM_UP = 5;

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
  // Warm-up (JIT, solver instance, catalog indexes), so the base row's median time is not a cold start.
  const sets = [...new Set(records.map((r) => r.set))];
  const warm = sets.flatMap((set) => records.filter((r) => r.set === set).slice(0, WARM_UP));
  await evaluateSetting(warm, base, {}, options);
  const baseline = await evaluateSetting(records, base, {}, options);
  log(`base: restored ${baseline.restored}/${baseline.n}`);
  const rows: SettingResult[] = [];
  for (const [i, setting] of settings.entries()) {
    const row = await evaluateSetting(records, base, setting, options);
    rows.push(row);
    log(`setting ${i + 1}/${settings.length}: restored ${row.restored}/${row.n}`);
  }
  return { baseline, rows: rankResults(rows) };
}
