/**
 * compile: sequence + catalog + cost model -> solver-neutral MILP and the plan to read its solution back
 * (the `apply` half of the pipeline; `decode` is the inverse).
 */
import type { Catalog, Sequence } from '../model/types.ts';
import type { CostModel } from '../model/cost.ts';
import type { MilpModel } from '../model/milp.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { labelFacts, labelUniqueness, originalCalls } from './calls.ts';
import { insertedCalls } from './inserted.ts';
import { CompileContext, type CompileOptions } from './context.ts';
import type { Plan } from './plan.ts';
import { argumentDrops, parameterSources } from './sources.ts';
import { goalCandidates, goalRows } from './goals.ts';
import { deletedSteps, restoredCalls } from './restore.ts';
import { roleRows } from './roles.ts';
import { emptiedLabels, rerunCalls } from './rerun.ts';
import { askRows, slotShareRows } from './asks.ts';
import { uniqueTies } from './ties.ts';
import { pendingRows, unreadSources } from './unread.ts';
import { linkSources } from './links.ts';
import { twinRows } from './fills.ts';
import { triesRows } from './executed.ts';
import { impliedCatalog } from '../catalog/implied.ts';

export type { CompileOptions };

export interface Compiled {
  readonly model: MilpModel;
  readonly plan: Plan;
}

export function compile(
  steps: Sequence,
  catalog: Catalog,
  cost: CostModel,
  options: CompileOptions = {},
): Compiled {
  const mode = options.mode ?? (options.goals ? 'valid' : 'sound');
  // The model follows the catalog's own conventions for required inputs (validation reads it as written).
  const ctx = new CompileContext(steps, impliedCatalog(catalog), cost, {
    ...options,
    mode,
    goals: mode === 'sound' ? undefined : options.goals,
  });
  const { produced, orphans } = labelFacts(ctx);
  deletedSteps(ctx, orphans);
  originalCalls(ctx, orphans);
  restoredCalls(ctx, orphans);
  rerunCalls(ctx, emptiedLabels(ctx, produced));
  insertedCalls(ctx, goalCandidates(ctx));
  labelUniqueness(ctx);
  triesRows(ctx);
  const drops = argumentDrops(ctx);
  const offset = parameterSources(ctx, drops);
  twinRows(ctx);
  roleRows(ctx);
  askRows(ctx);
  slotShareRows(ctx);
  goalRows(ctx);
  unreadSources(ctx);
  linkSources(ctx);
  pendingRows(ctx);
  const built = ctx.builder.build();
  // The last tie-break, added to the model only: reported costs are the edits' (plan.costs).
  const ties = uniqueTies(built.numVars, cost.weights.tieBreak / 100);
  const model: MilpModel = { ...built, cost: built.cost.map((c, v) => c + ties[v]) };
  const taken = new Set<string>([...produced, ...orphans, ...ctx.held]);
  for (const refs of ctx.refs) for (const site of refs) taken.add(site.ref.label);
  const plan: Plan = {
    steps,
    calls: ctx.calls,
    offset,
    resultName: options.resultName ?? DEFAULT_RESULT_NAME,
    costs: built.cost,
    features: ctx.features,
    offsetFeatures: ctx.offsetFeatures,
    ties,
    dropCosts: new Map([...drops].map(([key, f]) => [key, ctx.price(f)])),
    drops,
    takenLabels: taken,
    reused: ctx.repeats,
    defensive: options.defensive ?? false,
    confirmCost: cost.weights.confirm,
    asks: ctx.asks,
    slotShares: ctx.slotShares,
  };
  return { model, plan };
}
