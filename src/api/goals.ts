/**
 * Goals checked as input: their shape by the request's `GoalsSchema`, and every API they name against the
 * catalog, so that a goal no catalog could meet (`goals.apis[0]: goal API "Nope" is not in the catalog`) is
 * an input error of the request (CLI exit 2, HTTP 400), not a failed repair.
 */
import type { Catalog } from '../model/types.ts';
import type { Goals } from '../model/options.ts';
import { InputError, parseAt } from '../model/errors.ts';
import { paramsByName } from '../catalog/catalog-index.ts';
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
