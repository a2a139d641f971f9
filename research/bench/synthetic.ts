/**
 * Synthetic inputs for the scaling benchmarks: long sequences made by concatenating gold sequences with
 * relabelling, large catalogs made by cloning a catalog under new API and field names, and random mapping
 * tables. All seeded.
 */
import type { NestfulStep } from '../../src/read/sequence.ts';
import type { ApiSpec, Catalog, Json, Mapping } from '../../src/model/types.ts';
import { mapReferences } from '../../src/read/references.ts';
import { DEFAULT_RESULT_NAME } from '../../src/model/constants.ts';
import type { Gold } from './data.ts';
import { choose, type Rng } from '../../src/model/prng.ts';

/**
 * A valid sequence of `length` calls: gold sequences drawn at random, labels renumbered `var1…`, the
 * answer steps merged into one final answer step (its arguments suffixed by piece number).
 */
export function concatenateGold(rng: Rng, golds: readonly Gold[], length: number): NestfulStep[] {
  const calls: NestfulStep[] = [];
  const answer: Record<string, Json> = {};
  for (let piece = 1; calls.length < length; piece++) {
    const gold = choose(rng, golds).steps;
    const rename = new Map<string, string>();
    const relabel = (value: Json) =>
      mapReferences(value, (ref) => {
        const to = rename.get(ref.label);
        return to === undefined ? ref.raw : `$${to}${ref.raw.slice(1 + ref.label.length)}`;
      });
    for (const step of gold) {
      const args = Object.fromEntries(Object.entries(step.arguments).map(([k, v]) => [k, relabel(v)]));
      if (step.name === DEFAULT_RESULT_NAME) {
        for (const [k, v] of Object.entries(args)) answer[`${k}_${piece}`] = v;
        continue;
      }
      if (calls.length === length) break;
      const label = step.label === undefined ? undefined : `var${calls.length + 1}`;
      if (step.label !== undefined) rename.set(step.label, label!);
      calls.push(
        label === undefined
          ? { name: step.name, arguments: args }
          : { name: step.name, arguments: args, label },
      );
    }
  }
  // Keep only the answers whose references all point at calls that were kept.
  const kept = new Set(calls.flatMap((s) => (s.label ? [s.label] : [])));
  const valid = Object.entries(answer).filter(([, v]) => {
    let ok = true;
    mapReferences(v, (ref) => {
      if (!kept.has(ref.label)) ok = false;
      return ref.raw;
    });
    return ok;
  });
  return [...calls, { name: DEFAULT_RESULT_NAME, arguments: Object.fromEntries(valid) }];
}

function renamePath(path: string, suffix: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/^([^[]+)/, `$1${suffix}`))
    .join('.');
}

function cloneApi(api: ApiSpec, k: number): ApiSpec {
  const suffix = `_c${k}`;
  return {
    ...api,
    name: `${api.name}${suffix}`,
    params: api.params.map((p) => ({ ...p, name: `${p.name}${suffix}` })),
    outputs:
      api.outputs === null ? null : api.outputs.map((o) => ({ ...o, path: renamePath(o.path, suffix) })),
  };
}

/** The catalog itself plus clones under new API and field names, `size` APIs in all. */
export function cloneCatalog(catalog: Catalog, size: number): Catalog {
  const apis: ApiSpec[] = [...catalog.apis];
  for (let k = 1; apis.length < size; k++) {
    for (const api of catalog.apis) {
      if (apis.length === size) break;
      apis.push(cloneApi(api, k));
    }
  }
  return { apis };
}

/** `count` random mappings from output field leaves to parameter names of the catalog. */
export function randomMappings(rng: Rng, catalog: Catalog, count: number): Mapping[] {
  const fields = [
    ...new Set(
      catalog.apis.flatMap((a) =>
        (a.outputs ?? []).map((o) => o.path.split('.').pop()!.replace(/\[\]/g, '')),
      ),
    ),
  ];
  const params = [...new Set(catalog.apis.flatMap((a) => a.params.map((p) => p.name)))];
  const out: Mapping[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      from: choose(rng, fields),
      to: choose(rng, params),
      score: Math.round((0.3 + 0.7 * rng()) * 100) / 100,
    });
  }
  return out;
}
