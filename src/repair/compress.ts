/**
 * compress: the cheapest sequence that still meets the goals (optimal mode with the `compress` preset).
 * Without explicit goals or an answer step, the goal is to keep calling every API the trajectory called.
 */
import type { Catalog, Sequence } from '../model/types.ts';
import { loadCostModel } from '../read/cost-models.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { repair } from './repair.ts';
import type { RepairOptions, RepairResult } from '../model/options.ts';

export function compressOptions(
  sequence: Sequence,
  catalog: Catalog,
  options: RepairOptions = {},
): RepairOptions {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const hasResult = sequence.at(-1)?.name === resultName;
  const known = new Set(catalog.apis.map((a) => a.name));
  const goals =
    options.goals ??
    (hasResult ? undefined : { apis: [...new Set(sequence.map((s) => s.name).filter((n) => known.has(n)))] });
  return { ...options, cost: options.cost ?? loadCostModel('compress'), mode: 'optimal', goals };
}

export function compress(
  sequence: Sequence,
  catalog: Catalog,
  options: RepairOptions = {},
): Promise<RepairResult> {
  return repair(sequence, catalog, compressOptions(sequence, catalog, options));
}
