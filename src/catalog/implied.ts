/**
 * A catalog as the repair model reads it: parameters that their catalog entry's own convention makes required
 * (`impliedRequired`: left unmarked where the others say `optional: true`) are required. Validation keeps the
 * catalog as written; the model, which puts calls back and fills their inputs, follows the convention, so a
 * restored Instagram call takes its `username_or_id_or_url`. One view per catalog object.
 */
import type { ApiSpec, Catalog } from '../model/types.ts';

const views = new WeakMap<Catalog, Catalog>();

export function impliedCatalog(catalog: Catalog): Catalog {
  let view = views.get(catalog);
  if (!view) {
    const implied = (api: ApiSpec) => api.params.some((p) => p.impliedRequired && !p.required);
    view = catalog.apis.some(implied)
      ? {
          apis: catalog.apis.map((api) =>
            implied(api)
              ? { ...api, params: api.params.map((p) => (p.impliedRequired ? { ...p, required: true } : p)) }
              : api,
          ),
        }
      : catalog;
    views.set(catalog, view);
  }
  return view;
}
