/**
 * The answer's keys as evidence of fields: a key under which the answer shows a call's whole output often
 * names the field of it that matters (`total_sales = $var1$`, `average_sales_per_day_in_euros = $var2$`).
 */
import { nameTerms } from '../catalog/text.ts';
import type { CompileContext } from './context.ts';

/** The answer's keys that read one of `labels` whole (`total_sales` for `total_sales = $var1$`). */
export function answerKeys(ctx: CompileContext, labels: readonly string[]): string[] {
  const last = ctx.steps.length - 1;
  if (last < 0 || !ctx.isAnswer(last)) return [];
  return ctx.refs[last]
    .filter((site) => site.whole && site.ref.path.length === 0 && labels.includes(site.ref.label))
    .map((site) => site.param);
}

/** The key's words hold the field's words in a row (`average_sales_per_day_in_euros`: average_sales_per_day). */
export function spells(key: string, field: string): boolean {
  const k = nameTerms(key);
  const f = nameTerms(field);
  if (f.length === 0) return false;
  for (let i = 0; i + f.length <= k.length; i++) if (f.every((w, n) => k[i + n] === w)) return true;
  return false;
}
