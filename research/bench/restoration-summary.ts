/**
 * Rows of the restoration benchmark: per recipe, per set and per kind group (single kinds, then "2
 * mistakes", "3 mistakes", then "overall"), the counts of `src/score`'s summary plus detection, validity,
 * backend agreement and the median repair time. A `RestorationSummary` is what the baseline JSON holds and
 * what `--json` prints.
 */
import { summariseVerdicts, type ScoreSummary } from '../../src/score/index.ts';
import { kindGroup } from './evaluate.ts';
import { SINGLE_FLOW_KINDS } from './flow-mistakes.ts';
import { MISTAKE_KINDS } from './mistakes.ts';
import type { Recipe, ScoredOutcome } from './scored.ts';
import { median } from './stats.ts';

export const KIND_ORDERS: Readonly<Record<Recipe, readonly string[]>> = {
  first: [...MISTAKE_KINDS, '2 mistakes', '3 mistakes'],
  second: [...SINGLE_FLOW_KINDS, '2 mistakes'],
};

export interface ScoredRow {
  readonly kind: string;
  readonly n: number;
  readonly detected: number;
  readonly valid: number;
  readonly score: ScoreSummary;
  /** Per backend other than the first: repairs identical to the first backend's. */
  readonly agree: Readonly<Record<string, number>>;
  readonly medianMs: number;
}

export interface RecipeSummary {
  /** All sets together, then each set. */
  readonly all: readonly ScoredRow[];
  readonly sets: Readonly<Record<string, readonly ScoredRow[]>>;
}

export interface RestorationSummary {
  /** What was measured: `working tree`, or a ref and its commit. */
  readonly build: string;
  readonly commit?: string;
  readonly quick: boolean;
  readonly backends: readonly string[];
  readonly date: string;
  readonly recipes: Partial<Readonly<Record<Recipe, RecipeSummary>>>;
}

function row(kind: string, xs: readonly ScoredOutcome[]): ScoredRow {
  const agree: Record<string, number> = {};
  for (const o of xs)
    for (const [name, same] of Object.entries(o.agree)) agree[name] = (agree[name] ?? 0) + (same ? 1 : 0);
  return {
    kind,
    n: xs.length,
    detected: xs.filter((o) => o.detected).length,
    valid: xs.filter((o) => o.valid).length,
    score: summariseVerdicts(xs.map((o) => ({ ...o.verdict, askReadings: [] }))),
    agree,
    // Rounded so that summaries written to JSON stay short and stable in diffs.
    medianMs: Math.round(median(xs.map((o) => o.timeMs)) * 1000) / 1000,
  };
}

/** One row per kind group (in `order`, then any other), then `overall`. */
export function scoredRows(outcomes: readonly ScoredOutcome[], order: readonly string[]): ScoredRow[] {
  const groups = new Map<string, ScoredOutcome[]>();
  for (const o of outcomes) groups.set(kindGroup(o.kind), [...(groups.get(kindGroup(o.kind)) ?? []), o]);
  const keys = [
    ...order.filter((k) => groups.has(k)),
    ...[...groups.keys()].filter((k) => !order.includes(k)),
  ];
  return [...keys.map((k) => row(k, groups.get(k)!)), row('overall', outcomes)];
}

export function summariseRestoration(
  outcomes: readonly ScoredOutcome[],
  meta: Omit<RestorationSummary, 'recipes'>,
): RestorationSummary {
  const recipes: Partial<Record<Recipe, RecipeSummary>> = {};
  for (const recipe of ['first', 'second'] as const) {
    const mine = outcomes.filter((o) => o.recipe === recipe);
    if (mine.length === 0) continue;
    const setNames = [...new Set(mine.map((o) => o.set))];
    recipes[recipe] = {
      all: scoredRows(mine, KIND_ORDERS[recipe]),
      sets: Object.fromEntries(
        setNames.map((set) => [
          set,
          scoredRows(
            mine.filter((o) => o.set === set),
            KIND_ORDERS[recipe],
          ),
        ]),
      ),
    };
  }
  return { ...meta, recipes };
}
