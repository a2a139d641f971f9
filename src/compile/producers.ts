/**
 * The catalog APIs that produce a value: an output leaf of its name, or (unless only the very field will do)
 * of a name mapped onto it, or a field that stands for it in context (the `id` of search_artist for
 * `artist_id`). An API that takes the value itself echoes its input and produces nothing new.
 */
import type { ApiSpec } from '../model/types.ts';
import type { CompileContext } from './context.ts';
import { NO_FEATURES, type Features } from '../model/features.ts';

/** How many inputs an API requires. */
export const requiredInputs = (api: ApiSpec): number => api.params.filter((p) => p.required).length;

/**
 * What a candidate pays for the inputs it lacks against a likelier one (a better-named stand-in, a related
 * producer): one `slotFill` each, as if asked, and `restorePad`. Needing fewer inputs is no evidence.
 */
export function lackingInputs(lacks: number): Features {
  return lacks > 0 ? { slotFill: lacks, restorePad: 1 } : NO_FEATURES;
}

/**
 * The producers of `name` in catalog-name order. `exact`: a broken reference names its field, so only
 * producers of that very field serve it (no mappings, no context).
 */
export function producers(ctx: CompileContext, name: string, exact = false): readonly ApiSpec[] {
  let known = found.get(ctx);
  if (!known) found.set(ctx, (known = new Map()));
  const key = `${exact ? 1 : 0}${name}`;
  let out = known.get(key);
  if (!out) known.set(key, (out = Object.freeze(producersOf(ctx, name, exact))));
  return out;
}

/** Per compile (a context dies with it): the producers of each name asked about. */
const found = new WeakMap<CompileContext, Map<string, readonly ApiSpec[]>>();

function producersOf(ctx: CompileContext, name: string, exact: boolean): ApiSpec[] {
  const names = exact ? [name] : [name, ...ctx.mappedFrom(name).map((m) => m.from)];
  const candidates = [
    ...names.flatMap((leaf) => ctx.index.producersOf(leaf).map((p) => p.api)),
    ...(exact ? [] : ctx.contextProducers(name)),
  ];
  const own = new Set(names);
  const out = new Set<ApiSpec>();
  for (const api of candidates) {
    if (out.has(api) || (ctx.allowed && !ctx.allowed(api))) continue;
    if (api.params.some((q) => own.has(q.name))) continue;
    out.add(api);
  }
  const { index } = ctx;
  return [...out].sort((a, b) => index.nameRank(a) - index.nameRank(b));
}
