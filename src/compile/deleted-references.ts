/**
 * A deleted step's references, as re-pointing reads them (reassign.ts): whether a call could have been the
 * step, whether the count puts it before the step, what re-pointing the step's reference to it costs beyond the
 * move, and whether a reference to the step resolves once it is back.
 */
import type { ApiSpec, PathSegment } from '../model/types.ts';
import { outputsByLeaf } from '../catalog/catalog-index.ts';
import { apiProvides } from '../validate/outputs.ts';
import { NO_FEATURES, type Features } from '../model/features.ts';
import type { CompileContext } from './context.ts';
import { callApis, type Call, type StandIn } from './plan.ts';
import { numberedBelow, numberedPlace, ranBelow, readLabel } from './numbering.ts';

/**
 * A deleted step's reference that resolves once the step is back: some API that can stand for it outputs
 * the path (`q = $var1.location.name$` on the time zone, var1 the lost forecast).
 */
export function restoredProvides(ctx: CompileContext, label: string, path: readonly PathSegment[]): boolean {
  return ctx.deleted.get(label)?.standIns.some((s) => apiProvides(s.api, path) === 'yes') ?? false;
}

/**
 * Whether the count puts input call `j` before the deleted step under `label` (var1 for a lost var5): it ran
 * before that step, so it is hardly that step. Not where the label may be a misspelt one: read by a step
 * numbered below it (var4 reading `$var5.emi$` cannot read a later step), or read whole next after the
 * count (`reddit_posts = $var3$` after var2).
 */
function countedBefore(ctx: CompileContext, label: string, j: Call, reader?: Call): boolean {
  if (!ctx.deleted.has(label)) return false;
  return j.origin >= 0 && !misspeltLabel(ctx, label, reader) && numberedBelow(ctx, j.origin, label);
}

/**
 * The same for a memory item: the result of a call that ran before the deleted step (the count says so) is
 * hardly that step (`reassignCountedBefore`).
 */
export function itemCountedBeforeCost(
  ctx: CompileContext,
  label: string,
  item: string,
  reader: Call,
): Features {
  const before = ctx.deleted.has(label) && !misspeltLabel(ctx, label, reader) && ranBelow(ctx, item, label);
  return before ? { reassignCountedBefore: 1 } : NO_FEATURES;
}

/** Whether `label` may be a misspelt one rather than a deleted step's place (see `countedBefore`). */
function misspeltLabel(ctx: CompileContext, label: string, reader?: Call): boolean {
  return reader === undefined
    ? numberedPlace(ctx, label) === undefined
    : reader.origin >= 0 && reader.kind !== 'result' && numberedBelow(ctx, reader.origin, label);
}

/** Whether call `j` is of an API that could stand for the deleted step under `label`. */
export function ofStandIn(ctx: CompileContext, label: string, j: Call): boolean {
  return !ctx.deleted.has(label) || j.apis.some((c) => c.api && ofStandInApi(ctx, label, c.api));
}

/** Whether `api` (a call's, or a memory item's: memory.ts) could stand for the deleted step under `label`. */
export function ofStandInApi(ctx: CompileContext, label: string, api: ApiSpec): boolean {
  const deleted = ctx.deleted.get(label);
  return !deleted || deleted.standIns.some((s) => s.api.name === api.name);
}

/** Whether call `j` could have been the deleted step under `label` (see countedBefore and ofStandIn). */
export function standsFor(ctx: CompileContext, label: string, j: Call, reader?: Call): boolean {
  return !countedBefore(ctx, label, j, reader) && ofStandIn(ctx, label, j);
}

/**
 * What re-pointing a deleted step's reference to input call `j` that the count puts before it costs beyond
 * the move: `reassignCountedBeforeUnread` for the answer's reference when no reference reads `j`'s output (a
 * result the plan made and never shows: the answer's label is mistyped), else `reassignCountedBefore`. A
 * call's reference does not count so: an output nothing reads may have lost its reader's argument instead.
 */
export function countedBeforeCost(ctx: CompileContext, label: string, j: Call, reader: Call): Features {
  if (!countedBefore(ctx, label, j, reader)) return NO_FEATURES;
  if (reader.kind !== 'result') return { reassignCountedBefore: 1 };
  return unreadStep(ctx, j) ? { reassignCountedBeforeUnread: 1 } : { reassignCountedBefore: 1 };
}

/**
 * Whether the deleted step under `label`, as the answer's key names it (its first stand-in), takes a
 * parameter that input call `j` outputs by name: `j`'s output is then unread because its reader was deleted
 * (the hotel search whose hotel the lost reservation took), not because the answer's label is mistyped.
 */
export function feedsNamedStep(ctx: CompileContext, label: string, j: Call): boolean {
  const named = firstStandIn(ctx, label)?.api;
  if (!named) return false;
  return callApis(j).some((api) => {
    const outputs = outputsByLeaf(api);
    return named.params.some((p) => outputs.has(p.name));
  });
}

/** Whether `j` is an input call whose output no reference reads: a result the plan made and never shows. */
export function unreadStep(ctx: CompileContext, j: Call): boolean {
  if (j.origin < 0) return false;
  const own = ctx.steps[j.origin].label;
  return own === undefined || !readLabel(ctx, own);
}

/** The likeliest API for the deleted step under `label` (its stand-ins come best first), if it is one. */
function firstStandIn(ctx: CompileContext, label: string): StandIn | undefined {
  return ctx.deleted.get(label)?.standIns[0];
}

/** Whether the deleted step under `label` is named whole by the key its output is shown under. */
export function namedDeleted(ctx: CompileContext, label: string): boolean {
  return (firstStandIn(ctx, label)?.evidence ?? 0) >= 1;
}
