/**
 * The optional values a call put back in a deleted step's place, or inserted for what an input step lacks,
 * writes out: the defaults a call written alike spells out, and the settings the step that reads it passes
 * under the same names. A plan writes a lost step much as it wrote its neighbours.
 */
import type { ApiSpec, Json, ParamSpec, Step } from '../model/types.ts';
import { canonicalJson } from '../model/canonical.ts';
import { isLiteral } from '../validate/validate.ts';
import { literalMismatch } from '../validate/literals.ts';
import type { CompileContext } from './context.ts';
import type { Carried } from './plan.ts';
import { NO_FEATURES, type Features } from '../model/features.ts';
import { perObject } from '../model/memo.ts';

/**
 * What leaving out the values a put-back call carries costs: its API choice is charged `omitCarried` once per
 * carried value, and carrying one refunds it (sources.ts), so the call costs what its edit says when it
 * carries them all and `omitCarried` more for each it leaves out.
 */
export function carriedCharge(carried: ReadonlyMap<string, Carried>): Features {
  return carried.size > 0 ? { omitCarried: carried.size } : NO_FEATURES;
}

/** The refund of a carried value taken. */
export const CARRY_REFUND: Features = { omitCarried: -1 };

/**
 * Steps of another API that pass a literal to every required parameter of `api` under its name (a product's
 * details called with the query, country and language its deleted search took): the restored call was
 * written alike, nearest first.
 */
export function templates(ctx: CompileContext, api: ApiSpec, pos: number): { step: Step; i: number }[] {
  const required = api.params.filter((p) => p.required);
  if (required.length === 0) return [];
  return ctx.steps
    .flatMap((step, i) =>
      step.name !== api.name &&
      required.every(
        (p) =>
          Object.prototype.hasOwnProperty.call(step.arguments, p.name) && isLiteral(step.arguments[p.name]),
      )
        ? [{ step, i }]
        : [],
    )
    .sort((a, b) => Math.abs(a.i - pos) - Math.abs(b.i - pos) || a.i - b.i);
}

/**
 * The optional values a restored call takes: the defaults a step written alike spells out (see `templates`:
 * `limit=30` where 30 is the API's own default; the plan wrote its calls in full), else a literal a consumer
 * of another API passes to a parameter of the same name (the first that does), when it fits the parameter;
 * in a plan written in full (`inFull` looks APIs up, see `writtenInFull`), else the API's own default, and a
 * consumer's value that is only its own API's default is not carried; and an input its consumers read back
 * from its output of the same name (`readBack`) takes its declared default.
 */
export function carriedValues(
  api: ApiSpec,
  alike: readonly { step: Step; i: number }[],
  consumers: readonly { step: Step; i: number }[],
  inFull?: (name: string) => ApiSpec | undefined,
  readBack?: (param: string) => boolean,
): Map<string, Carried> {
  const carried = new Map<string, Carried>();
  const spelt = (p: ParamSpec, value: Json) =>
    p.default !== undefined && canonicalJson(value) === canonicalJson(p.default);
  for (const p of api.params) {
    if (p.required) continue;
    const from = [
      ...alike.map((s) => ({ ...s, defaults: true })),
      ...consumers.map((s) => ({ ...s, defaults: false })),
    ];
    for (const { step, i, defaults } of from) {
      if (step.name === api.name || !Object.prototype.hasOwnProperty.call(step.arguments, p.name)) continue;
      const value = step.arguments[p.name];
      if (!isLiteral(value) || literalMismatch(value, p) || (defaults && !spelt(p, value))) continue;
      // Written in full, a consumer passes its own API's default: no setting of the restored call's, which
      // spells its own default instead (a review list's `limit=10` is not the search's).
      if (inFull && !defaults && p.default !== undefined && ownDefault(inFull(step.name), p.name, value))
        continue;
      carried.set(p.name, { value, step: i });
      break;
    }
    // A consumer that reads the value back from the restored call's output (`type = $var1.type$`) had it
    // set: where its API declares a default, that is the value.
    if (readBack !== undefined && !carried.has(p.name) && p.default !== undefined && readBack(p.name))
      carried.set(p.name, { value: p.default, step: -1, defaulted: true });
    // A plan that writes its calls in full writes the restored one in full: its own defaults spelt out.
    if (
      inFull !== undefined &&
      !carried.has(p.name) &&
      p.default !== undefined &&
      !literalMismatch(p.default, p)
    )
      carried.set(p.name, { value: p.default, step: -1, defaulted: true });
  }
  return carried;
}

/** Whether `value` is `api`'s own default for its parameter `name`. */
function ownDefault(api: ApiSpec | undefined, name: string, value: Json): boolean {
  const q = api?.params.find((x) => x.name === name);
  return q?.default !== undefined && canonicalJson(q.default) === canonicalJson(value);
}

/**
 * Whether the plan writes its calls in full: every input call (and executed call) whose API declares
 * defaults passes each of them (at any value), and some call has at least two to pass. Plans written so
 * spell out a restored step's defaults too (`zoom="13"`, `sort_by="BEST_MATCH"`); most plans leave them out,
 * and so does the restored step.
 */
const writtenInFull = perObject((ctx: CompileContext): boolean => {
  let some = false;
  // The calls already executed were written by the same plan: its first steps.
  for (const step of [...(ctx.options.executed ?? []), ...ctx.steps]) {
    const api = ctx.index.byName.get(step.name);
    const defaults = api?.params.filter((p) => p.default !== undefined) ?? [];
    if (defaults.length === 0) continue;
    if (!defaults.every((p) => Object.prototype.hasOwnProperty.call(step.arguments, p.name))) return false;
    some ||= defaults.length >= 2;
  }
  return some;
});

/**
 * How `carriedValues` reads a plan written in full (`writtenInFull`): the catalog's APIs by name, or undefined
 * for a plan that leaves its defaults out (worked out once per model).
 */
export function inFullLookup(ctx: CompileContext): ((name: string) => ApiSpec | undefined) | undefined {
  return writtenInFull(ctx) ? (name) => ctx.index.byName.get(name) : undefined;
}
