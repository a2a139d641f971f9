/**
 * compile: sequence + catalog + cost model -> solver-neutral MILP and the plan to read its solution back
 * (the `apply` half of the pipeline; `decode` is the inverse).
 */
import type { Catalog, Sequence } from '../model/types.ts';
import type { CostModel } from '../model/cost.ts';
import type { MilpModel } from '../model/milp.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { insertedCalls, labelFacts, labelUniqueness, originalCalls } from './calls.ts';
import { CompileContext, type CompileOptions } from './context.ts';
import type { Plan } from './plan.ts';
import { parameterSources } from './sources.ts';
import { goalCandidates, goalRows } from './goals.ts';

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
  const ctx = new CompileContext(steps, catalog, cost, {
    ...options,
    mode,
    goals: mode === 'sound' ? undefined : options.goals,
  });
  const { produced, orphans } = labelFacts(ctx);
  originalCalls(ctx, orphans);
  insertedCalls(ctx, orphans, goalCandidates(ctx, orphans));
  labelUniqueness(ctx);
  const offset = parameterSources(ctx);
  goalRows(ctx);
  const model = ctx.builder.build();
  const taken = new Set<string>([...produced, ...orphans, ...Object.keys(ctx.memory)]);
  for (const refs of ctx.refs) for (const site of refs) taken.add(site.ref.label);
  const plan: Plan = {
    steps,
    calls: ctx.calls,
    offset,
    resultName: options.resultName ?? DEFAULT_RESULT_NAME,
    costs: model.cost,
    dropCost: cost.weights.dropParam,
    dropResultCost: cost.weights.dropResult,
    takenLabels: taken,
    kinds: ctx.kinds,
    defensive: options.defensive ?? false,
    confirmCost: cost.weights.confirm,
  };
  return { model, plan };
}
