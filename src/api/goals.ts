/**
 * Goals checked as input: their shape by the request's `GoalsSchema`, and every API they name against the
 * catalog, so that a goal no catalog could meet (`goals.apis[0]: goal API "Nope" is not in the catalog`) is
 * an input error of the request (CLI exit 2, HTTP 400), not a failed repair.
 */
import type { Catalog, Json } from '../model/types.ts';
import type { Goals, RepairOptions } from '../model/options.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { indexCatalog, leafOf, paramsByName } from '../catalog/catalog-index.ts';
import { mappingsInto } from '../catalog/computed-mappings.ts';
import { memoryPaths } from '../validate/outputs.ts';
import { apiByName } from '../validate/validate.ts';
import { GoalsSchema } from './request.ts';

/** `goals` checked against the schema and `catalog`; errors name the field under `root` (`goals.apis[0]`). */
export function checkGoals(goals: unknown, catalog: Catalog, root = 'goals'): Goals {
  const checked = parseAt(GoalsSchema, goals, [root]) as Goals;
  const apis = apiByName(catalog);
  checked.apis?.forEach((name, i) => {
    if (!apis.has(name))
      throw new InputError(`${root}.apis[${i}]`, `goal API ${JSON.stringify(name)} is not in the catalog`);
  });
  checked.steps?.forEach((step, i) => {
    const api = apis.get(step.name);
    if (!api)
      throw new InputError(
        `${root}.steps[${i}].name`,
        `goal API ${JSON.stringify(step.name)} is not in the catalog`,
      );
    const params = paramsByName(api);
    for (const param of Object.keys(step.arguments)) {
      if (!params.has(param))
        throw new InputError(
          `${root}.steps[${i}].arguments.${param}`,
          `${api.name} has no parameter ${JSON.stringify(param)}`,
        );
    }
  });
  return checked;
}

/**
 * The field goals of a request's (or a library call's) options, each checked against what could meet it: a
 * field some API of the catalog outputs (by path or last key), one a mapping in force feeds it from, or one
 * the options' memory holds. A field none of them has is an input error (`goals.fields[0]: no API of the
 * catalog outputs "x", no mapping feeds it and memory does not hold it`), not a failed repair. A record's
 * own goals are judged by its repair (an `error` result), since its memory may differ from the request's.
 */
export function checkGoalFields(options: RepairOptions, catalog: Catalog, root = 'goals'): void {
  const fields = options.goals?.fields;
  if (!fields || fields.length === 0) return;
  // The catalog's index (built once per catalog) knows the producers of a last key: no pass over every API.
  const index = indexCatalog(catalog);
  const output = (name: string) =>
    index.producersOf(leafOf(name)).some((p) => p.field.path === name || leafOf(p.field.path) === name);
  const held = new Set<string>();
  for (const value of Object.values(options.memory ?? {}))
    for (const path of memoryPaths(value as Json)) held.add(path).add(leafOf(path));
  const scoring = options.cost?.mappings;
  fields.forEach((field, i) => {
    if (output(field) || held.has(field)) return;
    const mapped = [
      ...(options.mappings ?? []).filter((m) => m.to === field),
      ...(options.catalogMappings === false ? [] : mappingsInto(catalog, field, scoring ? { scoring } : {})),
    ];
    if (mapped.some((m) => output(m.from) || held.has(m.from))) return;
    throw new InputError(
      `${root}.fields[${i}]`,
      `no API of the catalog outputs ${JSON.stringify(field)}, no mapping feeds it and memory does not hold it`,
    );
  });
}
