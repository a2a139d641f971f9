/**
 * Large-catalog worlds: the union of every shipped catalog (the three NESTFUL sets, then the four synthetic
 * ones; an API name two catalogs share keeps its first spec) plus seeded distractor APIs up to the world's
 * size, and their records: the shipped records of both corruption recipes, checked against the world's
 * catalog (a record whose gold does not validate there, or whose corruption does, is left out, and so is one
 * whose gold calls an API the world holds in another catalog's spec: synthetic-ids' get_stock_quote is
 * synthetic-snake's there, whose `stock_id` says it comes from search_stock, so an ids gold that feeds it from
 * find_stock_id is not this world's intended plan), and flat plans of independent calls with their
 * corruptions. Pure: the same inputs give byte-identical output.
 */
import type { ApiSpec, Catalog, Json } from '../../../src/model/types.ts';
import { parseCatalog } from '../../../src/read/catalog.ts';
import { validate } from '../../../src/validate/validate.ts';
import type { BenchRecord, Recipe } from '../scored.ts';
import { distractorSpecs } from './distractors.ts';
import { COMMON_NAMES } from './distractor-vocabulary.ts';
import { flatRecords } from './flat.ts';

export const LARGE_SEED = 20261202;
export const LARGE_SIZES = [1000, 5000, 10000] as const;
/** Flat plans per world. */
export const FLAT_PLANS = 300;
/** A shipped name used by this many APIs or more joins the names distractors reuse. */
const SHARED_BY = 3;

export type LargeRecipe = Recipe | 'flat';
export const LARGE_RECIPES: readonly LargeRecipe[] = ['first', 'second', 'flat'];

export interface LargeRecord extends BenchRecord {
  readonly recipe: LargeRecipe;
  /** The shipped set a first- or second-recipe record comes from; `flat` for flat plans. */
  readonly from: string;
}

export interface LargeWorld {
  readonly name: string;
  /** The NESTFUL spec array: shipped APIs first, then the distractors. */
  readonly spec: Json[];
  readonly catalog: Catalog;
  /** Names of the shipped APIs (the rest are distractors). */
  readonly shipped: ReadonlySet<string>;
  /** The names every distractor domain reuses, `name:type`: `COMMON_NAMES` and the shipped ones. */
  readonly commonNames: readonly string[];
  /** Per shipped set, the API names the world holds in another set's (different) spec. */
  readonly shadowed: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface ShippedCatalog {
  readonly set: string;
  readonly spec: readonly Json[];
}

export const largeWorldName = (size: number): string => `large-${size}`;

/** Spec entries of the shipped catalogs, the first of each name. */
export function unionSpec(catalogs: readonly ShippedCatalog[]): Json[] {
  const seen = new Set<string>();
  const out: Json[] = [];
  for (const { spec } of catalogs) {
    for (const entry of spec) {
      const name = (entry as { name: string }).name;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(entry);
    }
  }
  return out;
}

/**
 * Per set, the API names whose spec in `union` (`unionSpec` of the catalogs: the first of each name) is another
 * set's and differs from the set's own.
 */
export function shadowedNames(
  catalogs: readonly ShippedCatalog[],
  union: readonly Json[],
): Map<string, Set<string>> {
  const kept = new Map(union.map((entry) => [(entry as { name: string }).name, entry]));
  const out = new Map<string, Set<string>>();
  for (const { set, spec } of catalogs) {
    for (const entry of spec) {
      const name = (entry as { name: string }).name;
      const first = kept.get(name);
      if (first !== entry && JSON.stringify(first) !== JSON.stringify(entry))
        out.set(set, (out.get(set) ?? new Set()).add(name));
    }
  }
  return out;
}

/** Parameter and output leaf names that `SHARED_BY` shipped APIs or more use, `name:type`. */
function shippedCommonNames(apis: readonly ApiSpec[]): string[] {
  const users = new Map<string, { apis: Set<string>; type: string }>();
  const note = (name: string, type: string, api: string) => {
    const u = users.get(name) ?? { apis: new Set(), type: SCALAR_TYPES.has(type) ? type : 'string' };
    u.apis.add(api);
    users.set(name, u);
  };
  for (const api of apis) {
    for (const p of api.params) note(p.name, p.type, api.name);
    for (const f of api.outputs ?? []) if (!/[.[]/.test(f.path)) note(f.path, f.type, api.name);
  }
  return [...users]
    .filter(([name, u]) => u.apis.size >= SHARED_BY && /^[A-Za-z][A-Za-z0-9_]*$/.test(name))
    .map(([name, u]) => `${name}:${u.type}`)
    .sort();
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/** The world of `size` APIs over the shipped catalogs. */
export function largeWorld(size: number, catalogs: readonly ShippedCatalog[], seed = LARGE_SEED): LargeWorld {
  const union = unionSpec(catalogs);
  const shippedCatalog = parseCatalog(union);
  const shipped = new Set(shippedCatalog.apis.map((a) => a.name));
  if (size < union.length) throw new RangeError(`a world needs at least ${union.length} APIs`);
  const commonNames = [...new Set([...COMMON_NAMES, ...shippedCommonNames(shippedCatalog.apis)])];
  const distractors = distractorSpecs(size - union.length, seed, shipped, commonNames);
  const spec = [...union, ...distractors];
  const shadowed = shadowedNames(catalogs, union);
  return { name: largeWorldName(size), spec, catalog: parseCatalog(spec), shipped, commonNames, shadowed };
}

/** The shipped records of one recipe that still make sense against the world's catalog. */
export function checkedRecords(
  world: LargeWorld,
  recipe: Recipe,
  from: string,
  records: readonly BenchRecord[],
): LargeRecord[] {
  const goldValid = new Map<string, boolean>();
  const shadowed = world.shadowed.get(from);
  return records.flatMap((r) => {
    if (shadowed && r.gold.some((step) => shadowed.has(step.name))) return [];
    const key = JSON.stringify(r.gold);
    let ok = goldValid.get(key);
    if (ok === undefined) goldValid.set(key, (ok = validate(r.gold, world.catalog).valid));
    if (!ok || validate(r.sequence, world.catalog).valid) return [];
    return [{ id: r.id, kind: r.kind, set: world.name, recipe, from, gold: r.gold, sequence: r.sequence }];
  });
}

/** Every record of a world: shipped first-recipe sets, shipped second-recipe sets, then flat plans. */
export function largeRecords(
  world: LargeWorld,
  shippedRecords: readonly { recipe: Recipe; set: string; records: readonly BenchRecord[] }[],
  plans = FLAT_PLANS,
  seed = LARGE_SEED,
): LargeRecord[] {
  const out = shippedRecords.flatMap((s) => checkedRecords(world, s.recipe, s.set, s.records));
  for (const r of flatRecords(world.catalog, world.shipped, plans, seed)) {
    out.push({ ...r, set: world.name, recipe: 'flat', from: 'flat' });
  }
  return out;
}

/** One JSON record per line, keys in a fixed order. */
export function largeJsonl(records: readonly LargeRecord[]): string {
  return records
    .map(
      (r) =>
        JSON.stringify({
          id: r.id,
          kind: r.kind,
          set: r.set,
          recipe: r.recipe,
          from: r.from,
          gold: r.gold,
          sequence: r.sequence,
        }) + '\n',
    )
    .join('');
}
