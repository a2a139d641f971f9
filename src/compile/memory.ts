/**
 * A memory item seen as the output of a call: the fields it holds, typed. Where an executed call carries the
 * item's label and its API is in the catalog, the item is that API's result, and each field it holds takes
 * the declared type and description (and the item the API's parameters); a field the catalog does not
 * declare, or an item of no known call, takes the type of the value stored. So a memory item is judged as a planned call's output is: a field
 * must be able to feed the parameter, the sole field that can is the one meant, a field may stand for a
 * parameter in context. Only the paths the item holds are offered.
 */
import type { ApiSpec, Json, OutputField, Step, ValueType } from '../model/types.ts';
import { memoryPaths, memoryValueAt } from '../validate/outputs.ts';
import { segments } from '../read/references.ts';
import type { CompileContext } from './context.ts';
import type { Call } from './plan.ts';

/** The item under `label` as the output of a call (an API of no parameters whose outputs it holds). */
export function memoryApi(ctx: CompileContext, label: string): ApiSpec {
  const facts = runFacts(ctx);
  let api = facts.views.get(label);
  if (!api) facts.views.set(label, (api = itemApi(ctx, label)));
  return api;
}

/** The executed call whose result memory holds under `label` (the last one of that label), and its index. */
export function ranCall(ctx: CompileContext, label: string): Ran | undefined {
  return runFacts(ctx).byLabel.get(label);
}

/** An executed call and its index among the executed calls. */
export interface Ran {
  readonly step: Step;
  readonly at: number;
}

/** Per compile (a context dies with it): the executed calls by label, the memory items by API, the views. */
interface RunFacts {
  readonly byLabel: ReadonlyMap<string, Ran>;
  readonly itemsByApi: ReadonlyMap<string, readonly string[]>;
  readonly views: Map<string, ApiSpec>;
}

const facts = new WeakMap<CompileContext, RunFacts>();

function runFacts(ctx: CompileContext): RunFacts {
  let known = facts.get(ctx);
  if (known) return known;
  const byLabel = new Map<string, Ran>();
  (ctx.options.executed ?? []).forEach((step, at) => {
    if (step.label !== undefined) byLabel.set(step.label, { step, at });
  });
  const itemsByApi = new Map<string, string[]>();
  for (const label of Object.keys(ctx.memory)) {
    const ran = byLabel.get(label);
    if (!ran) continue;
    const list = itemsByApi.get(ran.step.name);
    if (list) list.push(label);
    else itemsByApi.set(ran.step.name, [label]);
  }
  facts.set(ctx, (known = { byLabel, itemsByApi, views: new Map() }));
  return known;
}

function itemApi(ctx: CompileContext, label: string): ApiSpec {
  const value = ctx.memory[label] as Json;
  const ran = ranCall(ctx, label);
  const spec = ran ? ctx.index.byName.get(ran.step.name) : undefined;
  const declared = new Map((spec?.outputs ?? []).map((f) => [f.path, f]));
  const outputs: OutputField[] = memoryPaths(value).map((path) => {
    const field = declared.get(path);
    return field ?? { path, type: valueType(memoryValueAt(value, segments(path))) };
  });
  return {
    name: spec?.name ?? label,
    description: spec?.description ?? '',
    params: spec?.params ?? [],
    outputs,
  };
}

function valueType(value: Json | undefined): ValueType {
  if (value === undefined || value === null) return 'any';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean';
}

/**
 * Of two memory items of one API's calls (two account lookups run), the later run feeds `call` first, as
 * of two planned calls (`recency` in roles.ts): the runs and steps from it to `call`, over the plan's length
 * (`closeRecency`); 0 for an item no other item or earlier planned call shares its API with.
 */
export function itemRecency(ctx: CompileContext, call: Call, label: string): number {
  const own = ranCall(ctx, label);
  if (!own) return 0;
  const name = own.step.name;
  const twice =
    ranItems(ctx, name).length > 1 ||
    ctx.before(call.pos).some((k) => k.origin >= 0 && k.apis.some((c) => c.api?.name === name));
  const runs = (ctx.options.executed ?? []).length;
  return twice ? (call.pos + runs - own.at) / Math.max(ctx.steps.length, 1) : 0;
}

/** The memory items that hold results of executed calls of `api`. */
export function ranItems(ctx: CompileContext, api: string): readonly string[] {
  return runFacts(ctx).itemsByApi.get(api) ?? [];
}

/**
 * Where the item stands in the run, for parallel roles (`closeRoleOrder`, see `fillSources`): a planned call's
 * factor is 1 − its place over the plan's length; an item comes before every step, the earlier run the
 * larger (1 + the runs after it and itself over all runs, in (1, 2]); 1 for an item of no executed call.
 */
export function itemOrder(ctx: CompileContext, label: string): number {
  const own = ranCall(ctx, label);
  const runs = (ctx.options.executed ?? []).length;
  return own ? 1 + (runs - own.at) / runs : 1;
}
