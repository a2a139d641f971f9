/**
 * The calls already executed. A planned call that repeats one of them (same API, same arguments, references
 * read as the calls they come from) whose result memory holds under its label may go: its readers read that
 * result instead (`reuseExecuted`). With `maxTries`, the repeats of a call beyond the limit must go where
 * they can; what cannot keep to the limit is reported by the repair (status `exhausted`).
 */
import { callKeys } from '../validate/tries.ts';
import type { CompileContext } from './context.ts';

/** The executed call's label whose result stands for the output of the step labelled `label` (one step). */
export function reusedLabel(ctx: CompileContext, label: string): string | undefined {
  const defining = ctx.steps.flatMap((s, i) => (s.label === label ? [i] : []));
  return defining.length === 1 ? ctx.repeats.get(defining[0]) : undefined;
}

/**
 * `maxTries`: among the planned calls that repeat a call, those that may go (a repeat of an earlier call or
 * of an executed one whose result memory holds) stay only as often as the limit leaves room for, after the
 * executed runs and the repeats that must stay. Renaming a call is no way round the limit, so the row counts
 * a call under its own API only; a limit that cannot be kept this way is left to the repair's final check.
 */
export function triesRows(ctx: CompileContext): void {
  const max = ctx.options.maxTries;
  if (max === undefined) return;
  const executed = ctx.options.executed ?? [];
  const keys = callKeys(executed, ctx.steps);
  const ran = new Map<string, number>();
  keys.slice(0, executed.length).forEach((k) => ran.set(k, (ran.get(k) ?? 0) + 1));
  const groups = new Map<string, number[]>();
  ctx.steps.forEach((_, i) => {
    if (ctx.isAnswer(i)) return;
    const key = keys[executed.length + i];
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(i);
  });
  for (const [key, members] of groups) {
    const room = max - (ran.get(key) ?? 0);
    if (members.length <= room) continue;
    const calls = members.map((i) => ctx.calls.find((c) => c.origin === i && c.kind === 'original')!);
    const optional = calls.filter((c) => c.deleteVar !== undefined);
    const left = room - (calls.length - optional.length);
    if (optional.length === 0 || left < 0) continue;
    const kept = optional.flatMap((c) => {
      const name = ctx.steps[c.origin].name;
      const own = c.apis.filter((choice) => choice.api?.name === name).map((choice) => choice.v);
      const moved = ctx.calls.filter((m) => m.kind === 'moved' && m.origin === c.origin);
      return [...own, ...moved.flatMap((m) => ctx.active(m))];
    });
    ctx.builder.atMost(kept, left);
  }
}
