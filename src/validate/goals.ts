/**
 * Which goals a sequence already meets, read the way the compiler enforces them: an API goal needs a call
 * of that API; a field goal a call (not the answer step) whose API outputs the field, or a field mapped
 * onto it, or a memory item holding it; a step goal a call of that API passing the given literal values.
 * A sequence that misses a goal is not what was asked for, whatever its executability.
 */
import type { Catalog, Json, Mapping, Memory, Sequence } from '../model/types.ts';
import { heldResults } from './tries.ts';
import type { Goals } from '../model/options.ts';
import { canonicalJson } from '../model/canonical.ts';
import { memoryPaths } from './outputs.ts';
import { mappingsInForce, mappingsInto } from '../catalog/computed-mappings.ts';
import { apiByName } from './validate.ts';

export interface GoalContext {
  readonly memory?: Memory;
  /** Given mappings: an output named `from` meets a field goal `to`. */
  readonly mappings?: readonly Mapping[];
  /** Also the mappings computed from the catalog, as repairs use them (default true). */
  readonly catalogMappings?: boolean;
  /** The calls already executed: an API goal is met by one of that API whose result memory holds. */
  readonly executed?: Sequence;
}

/** Last key of a normalised path (`navigation.entityId` -> `entityId`, `author[].id` -> `id`). */
function leaf(path: string): string {
  const cleaned = path.replace(/\[\]/g, '');
  return cleaned.slice(cleaned.lastIndexOf('.') + 1);
}

/** One line per goal the sequence does not meet (empty: every goal is met). */
export function unmetGoals(
  sequence: Sequence,
  catalog: Catalog,
  goals: Goals,
  context: GoalContext = {},
): string[] {
  const apis = apiByName(catalog);
  const unmet: string[] = [];
  for (const name of goals.apis ?? []) {
    const called = (s: { readonly name: string }) => s.name === name;
    const held = heldResults(context.executed ?? [], context.memory ?? {});
    if (!sequence.some(called) && !held.some(called)) unmet.push(`no call of ${name}`);
  }
  for (const field of goals.fields ?? []) {
    const given = (context.mappings ?? []).filter((m) => m.to === field);
    const computed = context.catalogMappings === false ? [] : mappingsInto(catalog, field);
    const names = new Set([field, ...mappingsInForce(given, computed).map((m) => m.from)]);
    const meets = (path: string) => path === field || names.has(leaf(path));
    const produced = sequence.some((s) => (apis.get(s.name)?.outputs ?? []).some((f) => meets(f.path)));
    const held = Object.values(context.memory ?? {}).some((v) => memoryPaths(v as Json).some(meets));
    if (!produced && !held) unmet.push(`nothing outputs ${field}`);
  }
  for (const goal of goals.steps ?? []) {
    const met = sequence.some(
      (s) =>
        s.name === goal.name &&
        Object.entries(goal.arguments).every(
          ([k, v]) =>
            Object.prototype.hasOwnProperty.call(s.arguments, k) &&
            canonicalJson(s.arguments[k]) === canonicalJson(v),
        ),
    );
    if (!met) unmet.push(`no call of ${goal.name} with the given values`);
  }
  return unmet;
}
