/**
 * The restoration benchmark on the large-catalog worlds: every `every`-th record of each world (per recipe
 * and kind, so small groups keep their share) is repaired against the world's catalog, judged by
 * `src/score` (`scoreRepair`, and `judgeWithCatalog` for stranger calls and unsupported wirings); each
 * first- and second-recipe record is also repaired against the shipped catalog it comes from, so every
 * kind's large-catalog figure stands next to its small-catalog one on the same records.
 */
import type { Catalog } from '../../src/model/types.ts';
import type { CostModel } from '../../src/model/cost.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { repair } from '../../src/repair/repair.ts';
import {
  blindPick,
  judgeWithCatalog,
  strangerCalls,
  unsupportedWirings,
  mergeScoreSummaries,
  scoreRepair,
  summariseVerdicts,
  type ScoreSummary,
} from '../../src/score/index.ts';
import { KIND_ORDERS } from './restoration-summary.ts';
import { FLAT_KINDS } from './worlds/flat.ts';
import { loadSetCatalog, type SetName } from './data.ts';
import { kindGroup } from './evaluate.ts';
import { flowCatalog } from './flow-data.ts';
import { loadLargeWorld, type LargeRecord } from './large-data.ts';
import { median, quantile } from './stats.ts';
import { LARGE_RECIPES, type LargeRecipe } from './worlds/large.ts';

const UNANSWERED = new Set(['timeout', 'error']);

export interface LargeOutcome {
  readonly world: string;
  readonly recipe: LargeRecipe;
  readonly kind: string;
  readonly id: string;
  readonly verdict: ScoreSummary;
  readonly strangers: number;
  /** Whether a call the gold adds to the input is itself a stranger to the input plan (a lost call of no kin). */
  readonly goldStranger: boolean;
  readonly unsupported: number;
  /** Whether the gold itself makes a wiring without evidence (judged as a repair of the input). */
  readonly goldUnsupported: boolean;
  /** The chance a blind pick among its stand-ins names the API of every call the gold adds (null: none). */
  readonly blindPick: number | null;
  readonly timeMs: number;
  /** The same record repaired against its shipped catalog (first and second recipe). */
  readonly small?: ScoreSummary;
  /** A stranger call or unsupported wiring, as `api` / `param=reference`, for the page's examples. */
  readonly example?: string;
}

export interface LargeRow {
  readonly kind: string;
  readonly n: number;
  readonly score: ScoreSummary;
  /** Repairs with a stranger call (of them, where a call the gold adds is one too); unsupported wirings in all. */
  readonly strangers: number;
  readonly strangersOfStrangeGold: number;
  readonly unsupported: number;
  /** Unsupported wirings in repairs whose gold wires without evidence too. */
  readonly unsupportedOfUnsupportedGold: number;
  /** Records whose gold adds a call, and the sum of a blind pick's chances of naming their lost APIs. */
  readonly lostCalls: number;
  readonly blindPick: number;
  readonly small: ScoreSummary | null;
  readonly medianMs: number;
}

export interface LargeWorldSummary {
  readonly world: string;
  readonly apis: number;
  readonly records: number;
  readonly measured: number;
  readonly recipes: Partial<Record<LargeRecipe, readonly LargeRow[]>>;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  /**
   * Repair times of a second pass over every `REPEAT_EVERY`-th measured record, once every parameter name of
   * the first pass has its computed mappings cached (a long-running process's steady state).
   */
  readonly again: {
    readonly n: number;
    readonly p50Ms: number;
    readonly p90Ms: number;
    readonly p99Ms: number;
  };
  readonly examples: readonly string[];
}

/** p50, p90 and p99 of repair times, in ms to a tenth. */
function percentiles(times: readonly number[]): { p50Ms: number; p90Ms: number; p99Ms: number } {
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    p50Ms: round(quantile(times, 0.5)),
    p90Ms: round(quantile(times, 0.9)),
    p99Ms: round(quantile(times, 0.99)),
  };
}

/** The second, timing-only pass repairs every this-th measured record again. */
export const REPEAT_EVERY = 4;

export interface LargeSummary {
  readonly model: string;
  readonly every: number;
  readonly solver: string;
  readonly date: string;
  readonly worlds: readonly LargeWorldSummary[];
}

export interface LargeOptions {
  readonly sizes: readonly number[];
  readonly every: number;
  readonly recipes?: readonly LargeRecipe[];
  readonly cost?: CostModel;
  readonly model?: string;
  readonly solver?: SolverName;
  readonly log?: (line: string) => void;
}

/** Every `every`-th record of each recipe and kind group, from the first (deterministic). */
export function everyKth<T extends { recipe: string; kind: string }>(
  records: readonly T[],
  every: number,
): T[] {
  const seen = new Map<string, number>();
  return records.filter((r) => {
    const key = `${r.recipe}/${kindGroup(r.kind)}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n % every === 0;
  });
}

function shippedCatalog(record: LargeRecord): Catalog {
  return record.recipe === 'first' ? loadSetCatalog(record.from as SetName) : flowCatalog(record.from);
}

/** Kind groups in the order the restoration page lists them; flat plans: their kinds, then pairs. */
const ORDER: Readonly<Record<LargeRecipe, readonly string[]>> = {
  ...KIND_ORDERS,
  flat: [...FLAT_KINDS, '2 mistakes'],
};

function kindOrder(recipe: LargeRecipe, kinds: Iterable<string>): string[] {
  const present = new Set(kinds);
  return [
    ...ORDER[recipe].filter((k) => present.has(k)),
    ...[...present].filter((k) => !ORDER[recipe].includes(k)).sort(),
  ];
}

function row(kind: string, xs: readonly LargeOutcome[]): LargeRow {
  const small = xs.filter((o) => o.small);
  return {
    kind,
    n: xs.length,
    score: mergeScoreSummaries(xs.map((o) => o.verdict)),
    strangers: xs.filter((o) => o.strangers > 0).length,
    strangersOfStrangeGold: xs.filter((o) => o.strangers > 0 && o.goldStranger).length,
    unsupported: xs.reduce((a, o) => a + o.unsupported, 0),
    unsupportedOfUnsupportedGold: xs.reduce((a, o) => a + (o.goldUnsupported ? o.unsupported : 0), 0),
    lostCalls: xs.filter((o) => o.blindPick !== null).length,
    blindPick: xs.reduce((a, o) => a + (o.blindPick ?? 0), 0),
    small: small.length > 0 ? mergeScoreSummaries(small.map((o) => o.small!)) : null,
    medianMs: Math.round(median(xs.map((o) => o.timeMs)) * 100) / 100,
  };
}

export function largeRows(outcomes: readonly LargeOutcome[], recipe: LargeRecipe): LargeRow[] {
  const mine = outcomes.filter((o) => o.recipe === recipe);
  const groups = kindOrder(
    recipe,
    mine.map((o) => kindGroup(o.kind)),
  );
  return [
    ...groups.map((g) =>
      row(
        g,
        mine.filter((o) => kindGroup(o.kind) === g),
      ),
    ),
    row('overall', mine),
  ];
}

async function repairOnce(record: LargeRecord, catalog: Catalog, options: LargeOptions) {
  const result = await repair(record.sequence, catalog, {
    solver: options.solver ?? 'highs',
    ...(options.cost ? { cost: options.cost } : {}),
  });
  return { result, repaired: UNANSWERED.has(result.status) ? null : result.sequence };
}

/** Small-catalog verdicts by recipe/id: the same record in every world is repaired once. */
type SmallCache = Map<string, ScoreSummary>;

async function measureWorld(
  size: number,
  options: LargeOptions,
  small: SmallCache,
): Promise<LargeWorldSummary> {
  const world = loadLargeWorld(size);
  const recipes = options.recipes ?? LARGE_RECIPES;
  const picked = everyKth(
    world.records.filter((r) => recipes.includes(r.recipe)),
    options.every,
  );
  // Warm: the first repair on a catalog builds its index and term tables.
  if (picked.length > 0) await repairOnce(picked[0], world.catalog, options);
  const outcomes: LargeOutcome[] = [];
  for (const record of picked) {
    const { result, repaired } = await repairOnce(record, world.catalog, options);
    const input = { input: record.sequence, gold: record.gold, repaired };
    const verdict = summariseVerdicts([scoreRepair(input)]);
    const judged = judgeWithCatalog({ ...input, catalog: world.catalog });
    // The gold judged as a repair of the input: a lost call no name of the plan ties to is a stranger too.
    const goldStranger =
      strangerCalls(record.sequence, record.sequence, record.gold, world.catalog).length > 0;
    const goldUnsupported =
      unsupportedWirings(record.sequence, record.sequence, record.gold, world.catalog).length > 0;
    let mine: ScoreSummary | undefined;
    if (record.recipe !== 'flat') {
      const key = `${record.recipe}/${record.id}`;
      mine = small.get(key);
      if (!mine) {
        const catalog = shippedCatalog(record);
        const other = await repairOnce(record, catalog, options);
        mine = summariseVerdicts([scoreRepair({ ...input, repaired: other.repaired })]);
        small.set(key, mine);
      }
    }
    const s = judged.strangerCalls[0];
    const u = judged.unsupportedWirings[0];
    outcomes.push({
      world: world.name,
      recipe: record.recipe,
      kind: record.kind,
      id: record.id,
      verdict,
      strangers: judged.strangerCalls.length,
      goldStranger,
      unsupported: judged.unsupportedWirings.length,
      goldUnsupported,
      blindPick: blindPick(record.sequence, record.gold, world.catalog)?.chance ?? null,
      timeMs: result.timeMs,
      ...(mine ? { small: mine } : {}),
      ...(s || u
        ? {
            example: `${record.id} (${record.kind}): ${
              s ? `stranger ${s.api}` : `${repaired![u!.step].name}(${u!.param}=${u!.reference})`
            }`,
          }
        : {}),
    });
  }
  options.log?.(`large ${world.name}: ${outcomes.length} of ${world.records.length} records`);
  const times = outcomes.map((o) => o.timeMs);
  const again: number[] = [];
  for (const record of picked.filter((_, i) => i % REPEAT_EVERY === 0))
    again.push((await repairOnce(record, world.catalog, options)).result.timeMs);
  return {
    world: world.name,
    apis: world.catalog.apis.length,
    records: world.records.length,
    measured: outcomes.length,
    recipes: Object.fromEntries(
      recipes.filter((r) => outcomes.some((o) => o.recipe === r)).map((r) => [r, largeRows(outcomes, r)]),
    ),
    ...percentiles(times),
    again: { n: again.length, ...percentiles(again) },
    examples: outcomes.flatMap((o) => (o.example ? [o.example] : [])).slice(0, 8),
  };
}

export async function measureLarge(options: LargeOptions): Promise<LargeSummary> {
  const small: SmallCache = new Map();
  const worlds: LargeWorldSummary[] = [];
  for (const size of options.sizes) worlds.push(await measureWorld(size, options, small));
  return {
    model: options.model ?? 'default',
    every: options.every,
    solver: options.solver ?? 'highs',
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    worlds,
  };
}
