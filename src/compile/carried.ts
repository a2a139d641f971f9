/**
 * The optional values a call put back in a deleted step's place writes out: the defaults a call written
 * alike spells out, and the settings its consumers pass under the same names. A plan writes a deleted step
 * much as it wrote its neighbours.
 */
import type { ApiSpec, Json, ParamSpec, Step } from '../model/types.ts';
import { canonicalJson } from '../model/canonical.ts';
import { isLiteral } from '../validate/validate.ts';
import { literalMismatch } from '../validate/literals.ts';
import type { CompileContext } from './context.ts';

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
 * of another API passes to a parameter of the same name (the first that does), when it fits the parameter.
 */
export function carriedValues(
  api: ApiSpec,
  alike: readonly { step: Step; i: number }[],
  consumers: readonly { step: Step; i: number }[],
): Map<string, { value: Json; step: number }> {
  const carried = new Map<string, { value: Json; step: number }>();
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
      carried.set(p.name, { value, step: i });
      break;
    }
  }
  return carried;
}
