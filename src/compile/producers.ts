/**
 * The catalog APIs that produce a value: an output leaf of its name, or (unless only the very field will do)
 * of a name mapped onto it, or a field that stands for it in context (the `id` of search_artist for
 * `artist_id`). An API that takes the value itself echoes its input and produces nothing new.
 */
import type { ApiSpec } from '../model/types.ts';
import type { CompileContext } from './context.ts';
import { NO_FEATURES, type Features } from '../model/features.ts';
import { perObject } from '../model/memo.ts';
import { describesAnId } from '../catalog/context-match.ts';

/** How many inputs an API requires (counted once per API). */
export const requiredInputs = perObject(
  (api: ApiSpec): number => api.params.filter((p) => p.required).length,
);

/**
 * What a call the repair puts in for a value another call needs pays for being bare (`bareCall`): its API
 * takes parameters but requires none, so nothing says which value it gives
 * (Real-Time_Product_Search_Product_Details() for the product an order needs). The optional settings it
 * carries from its reader (carried.ts: `country="us"`, `page=1`) do not say it either: they shape any
 * result, not which one.
 */
export function bareCall(api: ApiSpec): Features {
  return api.params.length > 0 && requiredInputs(api) === 0 ? { bareCall: 1 } : NO_FEATURES;
}

/**
 * What a candidate pays for the inputs it lacks against a likelier one (a better-named stand-in, a related
 * producer): one `slotFill` each, as if asked, and `restorePad`. Needing fewer inputs is no evidence.
 */
export function lackingInputs(lacks: number): Features {
  return lacks > 0 ? { slotFill: lacks, restorePad: 1 } : NO_FEATURES;
}

/**
 * Which producers of a name: any (its own name, a name mapped onto it, a field standing for it in context),
 * `exact` (a broken reference names its field, so only producers of that very field serve it), or
 * `identifier` (those that output it as an identifier under another name: askProducedUnnamed).
 */
export type ProducerKind = 'any' | 'exact' | 'identifier';

/** The producers of `name` in catalog-name order. */
export function producers(ctx: CompileContext, name: string, kind: ProducerKind = 'any'): readonly ApiSpec[] {
  const known = answersFor(ctx);
  const key = `${kind[0]}${name}`;
  let out = known.get(key);
  if (!out) {
    if (known.size >= PER_CATALOG) known.clear();
    known.set(key, (out = Object.freeze(producersOf(ctx, name, kind))));
  }
  return out;
}

/**
 * Where the producers of names are remembered: across compiles of one catalog (dropped with its index), by
 * the catalog-mappings setting, when a compile adds nothing of its own; else for the compile alone (a
 * context dies with it). A catalog of 10,000 APIs asks about the same common names record after record, and
 * sorting their hundreds of producers was a tenth of a compile.
 */
function answersFor(ctx: CompileContext): Map<string, readonly ApiSpec[]> {
  const shared = ctx.catalogAnswersKey();
  const [owner, setting] = shared === null ? [ctx, ''] : [ctx.index, shared];
  let bySetting = found.get(owner);
  if (!bySetting) found.set(owner, (bySetting = new Map()));
  let known = bySetting.get(setting);
  if (!known) bySetting.set(setting, (known = new Map()));
  return known;
}

const found = new WeakMap<object, Map<string, Map<string, readonly ApiSpec[]>>>();
/** Names remembered per catalog and setting (or per compile); the memo starts over beyond this. */
const PER_CATALOG = 20_000;

function producersOf(ctx: CompileContext, name: string, kind: ProducerKind): ApiSpec[] {
  const mapped = kind === 'exact' ? [] : ctx.mappedFrom(name).map((m) => m.from);
  const names = [name, ...mapped];
  const identifier = kind === 'identifier';
  const candidates = [
    ...(identifier ? mapped : names).flatMap((leaf) =>
      ctx.index.producersOf(leaf).flatMap((p) => (!identifier || describesAnId(p.field) ? [p.api] : [])),
    ),
    ...(kind === 'exact'
      ? []
      : ctx
          .contextProducers(name)
          .filter((api) => !identifier || ctx.contextFields(name, api).some((c) => describesAnId(c.field)))),
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
