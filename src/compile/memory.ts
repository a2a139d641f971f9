/**
 * A memory item seen as the output of a call: the fields it holds, typed. Where an executed call carries the
 * item's label and its API is in the catalog, the item is that API's result, and each field it holds takes
 * the declared type and description (and the item the API's parameters); a field the catalog does not declare, or an item of no known call,
 * takes the type of the value stored. So a memory item is judged as a planned call's output is: a field
 * must be able to feed the parameter, the sole field that can is the one meant, a field may stand for a
 * parameter in context. Only the paths the item holds are offered.
 */
import type { ApiSpec, Json, OutputField, ValueType } from '../model/types.ts';
import { memoryPaths } from '../validate/outputs.ts';
import { segments } from '../read/references.ts';
import type { CompileContext } from './context.ts';
import type { Call } from './plan.ts';

/** The item under `label` as the output of a call (an API of no parameters whose outputs it holds). */
export function memoryApi(ctx: CompileContext, label: string): ApiSpec {
  let known = viewed.get(ctx);
  if (!known) viewed.set(ctx, (known = new Map()));
  let api = known.get(label);
  if (!api) known.set(label, (api = itemApi(ctx, label)));
  return api;
}

/** Per compile (a context dies with it): each memory item's view. */
const viewed = new WeakMap<CompileContext, Map<string, ApiSpec>>();

function itemApi(ctx: CompileContext, label: string): ApiSpec {
  const value = ctx.memory[label] as Json;
  const executed = (ctx.options.executed ?? []).filter((s) => s.label === label).pop();
  const spec = executed ? ctx.index.byName.get(executed.name) : undefined;
  const declared = new Map((spec?.outputs ?? []).map((f) => [f.path, f]));
  const outputs: OutputField[] = memoryPaths(value).map((path) => {
    const field = declared.get(path);
    return field ?? { path, type: valueType(valueAt(value, path)) };
  });
  return {
    name: spec?.name ?? label,
    description: spec?.description ?? '',
    params: spec?.params ?? [],
    outputs,
  };
}

/** The value at a normalised path (`author[].id`: the first element's). */
function valueAt(value: Json, path: string): Json | undefined {
  let v: Json | undefined = value;
  for (const seg of segments(path)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = Array.isArray(v) ? (v as readonly Json[])[seg as number] : (v as Record<string, Json>)[seg as string];
  }
  return v;
}

function valueType(value: Json | undefined): ValueType {
  if (value === undefined || value === null) return 'any';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean';
}

/** The executed call whose result memory holds under `label` (the last one of that label), and its index. */
function executedOf(
  ctx: CompileContext,
  label: string,
): { readonly name: string; readonly at: number } | undefined {
  const executed = ctx.options.executed ?? [];
  for (let i = executed.length - 1; i >= 0; i--)
    if (executed[i].label === label) return { name: executed[i].name, at: i };
  return undefined;
}

/**
 * Of two memory items of one API's calls (two account lookups run), the later run feeds `call` first, as
 * of two planned calls (`recency` in roles.ts): the runs and steps from it to `call`, over the plan's length
 * (`closeRecency`); 0 for an item no other item or earlier planned call shares its API with.
 */
export function itemRecency(ctx: CompileContext, call: Call, label: string): number {
  const own = executedOf(ctx, label);
  if (!own) return 0;
  const twice =
    ranItems(ctx, own.name).some((other) => other !== label) ||
    ctx.before(call.pos).some((k) => k.origin >= 0 && k.apis.some((c) => c.api?.name === own.name));
  const runs = (ctx.options.executed ?? []).length;
  return twice ? (call.pos + runs - own.at) / Math.max(ctx.steps.length, 1) : 0;
}

/** The memory items that hold results of executed calls of `api`. */
export function ranItems(ctx: CompileContext, api: string): string[] {
  return Object.keys(ctx.memory).filter((label) => executedOf(ctx, label)?.name === api);
}

/**
 * Where the item stands in the run, for parallel roles (`closeRoleOrder`, see `fillSources`): a planned call's
 * factor is 1 − its place over the plan's length; an item comes before every step, the earlier run the
 * larger (1 + the runs after it and itself over all runs, in (1, 2]); 1 for an item of no executed call.
 */
export function itemOrder(ctx: CompileContext, label: string): number {
  const own = executedOf(ctx, label);
  const runs = (ctx.options.executed ?? []).length;
  return own ? 1 + (runs - own.at) / runs : 1;
}
