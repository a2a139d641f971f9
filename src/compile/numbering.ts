/**
 * Labels that count up. Plans name their steps var1, var2, var3 in the order they run; where the input's
 * labels keep that order, a label's number says where a deleted step stood, and a step whose label breaks
 * the count is the one mislabelled.
 */
import type { CompileContext } from './context.ts';

/** A label's prefix and number (`var` and 3 for `var3`). */
const NUMBERED = /^(.*?)(\d+)$/;

function numbered(label: string): { prefix: string; n: number } | undefined {
  const m = NUMBERED.exec(label);
  return m ? { prefix: m[1], n: Number(m[2]) } : undefined;
}

/** A step in the count (`i` its index), or an executed call (`i` -1, with its label). */
interface Counted {
  readonly i: number;
  readonly n: number;
  readonly label?: string;
}

/**
 * The labelled input steps' numbers in order, when all share one prefix and count up (`skip`: a step left
 * out); undefined otherwise. The calls already executed under that prefix come first (index -1): the run
 * so far is the count's start (var1 executed, the plan's first step var3: var2 is skipped), when their
 * numbers count up and stay below the steps'. A step repeating an executed call counts as that call.
 */
function count(ctx: CompileContext, prefix: string, skip = -1, slips = false): Counted[] | undefined {
  const out: Counted[] = [];
  for (const [i, step] of ctx.steps.entries()) {
    // A repeat of an executed call is counted as that call, where the run is (below).
    if (i === skip || step.label === undefined || ctx.repeats.has(i)) continue;
    const m = numbered(step.label);
    // With `slips`, a label under another prefix that no step reads is left out (`result3` among var2, var1).
    if (slips && (!m || m.prefix !== prefix) && !readLabel(ctx, step.label)) continue;
    if (!m || m.prefix !== prefix || (out.length > 0 && m.n <= out[out.length - 1].n)) return undefined;
    out.push({ i, n: m.n });
  }
  const ran: Counted[] = [];
  for (const step of ctx.options.executed ?? []) {
    const m = step.label === undefined ? undefined : numbered(step.label);
    if (!m || m.prefix !== prefix) continue;
    if (ran.length > 0 && m.n <= ran[ran.length - 1].n) return out;
    ran.push({ i: -1, n: m.n, label: step.label });
  }
  return ran.length > 0 && (out.length === 0 || ran[ran.length - 1].n < out[0].n) ? [...ran, ...out] : out;
}

/**
 * Where a deleted step stood, when the input's labels count up along the sequence under one prefix (var1,
 * var2, var4): the index of the first step numbered above the label, so that `var3` comes back between var2
 * and var4 and may feed what follows it. Undefined when the labels do not count up.
 */
export function numberedPlace(ctx: CompileContext, label: string): number | undefined {
  const own = numbered(label);
  const steps = own && count(ctx, own.prefix);
  return steps?.find((s) => s.i >= 0 && s.n > own!.n)?.i;
}

/**
 * Whether step `i`'s label is in its place in the count: the other steps' labels count up under its prefix
 * and its number falls between its neighbours' (`var3` after var2 and before var5). A label out of place
 * (`var4` between var1 and var3) may be a slip; one in place names its own step.
 */
export function inCount(ctx: CompileContext, i: number): boolean {
  const label = ctx.steps[i].label;
  const own = label === undefined ? undefined : numbered(label);
  const steps = own && count(ctx, own.prefix, i);
  if (!own || !steps) return false;
  // Alone under its prefix while the calls that ran count under another (`result2` after var1 ran).
  if (steps.length === 0 && (ctx.options.executed ?? []).some((s) => s.label !== undefined)) return false;
  const before = steps.filter((s) => s.i < i);
  const after = steps.filter((s) => s.i > i);
  return (
    (before.length === 0 || before[before.length - 1].n < own.n) && (after.length === 0 || own.n < after[0].n)
  );
}

/** Whether some step reads `label`. */
export function readLabel(ctx: CompileContext, label: string): boolean {
  return ctx.refs.some((sites) => sites.some((s) => s.ref.label === label));
}

/**
 * Where the count puts step `i` when it was written too late: the first earlier step numbered above its
 * label, the other steps' labels counting up under its prefix (`var2` written after var3: var3's index).
 * A label under another prefix that no step reads is a slip, left out of the count (`result3` among var2, var1).
 * Undefined when they do not count up, or no earlier step is numbered above it.
 */
export function countedEarlier(ctx: CompileContext, i: number): number | undefined {
  const label = ctx.steps[i].label;
  const own = label === undefined ? undefined : numbered(label);
  const steps = own && count(ctx, own.prefix, i, true);
  return steps?.find((s) => s.i >= 0 && s.i < i && s.n > own!.n)?.i;
}

/**
 * The input step numbered right below a deleted step's label (`var2` for `var3`), when the input's labels
 * count up under its prefix: the step the deleted one ran after.
 */
export function numberedBefore(ctx: CompileContext, label: string): number | undefined {
  const own = numbered(label);
  const steps = own && count(ctx, own.prefix);
  const before = steps?.find((s) => s.n === own!.n - 1)?.i;
  return before !== undefined && before >= 0 ? before : undefined;
}

/**
 * The executed call numbered right below a deleted step's label (`var1` executed, for a `var2` the plan
 * lost), when the count holds: the run the deleted step came after. Its label.
 */
export function ranBefore(ctx: CompileContext, label: string): string | undefined {
  const own = numbered(label);
  const steps = own && count(ctx, own.prefix);
  return steps?.find((s) => s.i < 0 && s.n === own!.n - 1)?.label;
}

/**
 * Whether executed call `item` (its label) is numbered below a deleted step's `label` in a count that holds,
 * the label inside the count or next after it (var1 executed, var2 lost, the plan's steps from var3): it ran
 * before that step, so it is not that step.
 */
export function ranBelow(ctx: CompileContext, item: string, label: string): boolean {
  const own = numbered(label);
  const steps = own && count(ctx, own.prefix);
  if (!steps) return false;
  // Within the count or right after it, as in `numberedBelow`: a label far beyond is made up, not a place.
  const top = Math.max(0, ...steps.map((s) => s.n));
  return own!.n <= top + 1 && steps.some((s) => s.i < 0 && s.label === item && s.n < own!.n);
}

/**
 * Whether step `i` is numbered below `label` in a count that holds (`var1` for a deleted `var2`, the input's
 * labels counting up under their prefix, the label inside the count or next after it): it ran before that
 * step, so it is not that step.
 */
export function numberedBelow(ctx: CompileContext, i: number, label: string): boolean {
  const own = ctx.steps[i].label;
  const a = own === undefined ? undefined : numbered(own);
  const b = numbered(label);
  if (a === undefined || b === undefined || a.prefix !== b.prefix || a.n >= b.n) return false;
  // Within the count or right after it: a label far beyond (`var9` after var4) is made up, not a place.
  const steps = count(ctx, a.prefix);
  return steps !== undefined && b.n <= Math.max(0, ...steps.map((s) => s.n)) + 1;
}

/**
 * The label the count skips right before step `i` (`var1` when the first step is `var2`, `var3` between
 * var2 and var4), when no step references it: a deleted step whose every use went with it. Undefined when
 * the labels do not count up, or the count does not skip there.
 */
export function gapBefore(ctx: CompileContext, i: number): string | undefined {
  const label = ctx.steps[i].label;
  const own = label === undefined ? undefined : numbered(label);
  const steps = own && count(ctx, own.prefix);
  if (!own || !steps || own.n < 2) return undefined;
  const k = steps.findIndex((s) => s.i === i);
  const below = k > 0 ? steps[k - 1].n : 0;
  if (below !== own.n - 2) return undefined;
  const gap = `${own.prefix}${own.n - 1}`;
  return readLabel(ctx, gap) ? undefined : gap;
}

/**
 * Whether step `i`'s label slipped: it has none, or no step reads it and it breaks the count the other
 * steps' labels keep (`result1` or `var1_out` among var2, var4; `var7` between var1 and var3).
 */
export function slippedLabel(ctx: CompileContext, i: number): boolean {
  const label = ctx.steps[i].label;
  if (label === undefined) return true;
  if (readLabel(ctx, label)) return false;
  // A repeat of an executed call goes under that call's label: the run, not a slip, numbered it.
  if (ctx.repeats.has(i)) return false;
  // The prefix of the count: another step's label, else an executed call's (the run is the count's start).
  const other =
    ctx.steps.find((s, k) => k !== i && s.label !== undefined) ??
    (ctx.options.executed ?? []).find((s) => s.label !== undefined);
  const prefix = other?.label === undefined ? undefined : numbered(other.label)?.prefix;
  return prefix !== undefined && count(ctx, prefix, i) !== undefined && !inCount(ctx, i);
}
