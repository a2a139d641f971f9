/**
 * A memory item that holds nothing (`{"var2": {}}`: the call that should have produced it returned nothing)
 * does not stand in the way of its producer. When the plan reads fields of such an item, the APIs that could
 * stand for the step that made it are offered again, as restored steps are (restore.ts), but under a fresh
 * label (the item's label is taken), its readers re-pointed at it as part of the rerun (`restoreRerun`).
 */
import { normalisePath } from '../read/references.ts';
import { holdsNothing, memoryProvides } from '../validate/outputs.ts';
import type { CompileContext } from './context.ts';
import { apiChoice, labelChoices, labelRows, newCall } from './calls.ts';
import { BEFORE_READER, standIns, usesOf } from './restore.ts';
import type { Call, TokenOption } from './plan.ts';
import type { PathSegment } from '../model/types.ts';

/** Memory labels whose item holds nothing and whose fields the plan reads (no step of the plan defines them). */
export function emptiedLabels(ctx: CompileContext, produced: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const sites of ctx.refs) {
    for (const { ref } of sites) {
      const l = ref.label;
      if (out.includes(l) || produced.has(l) || ref.path.length === 0) continue;
      if (!ctx.inMemory(l)) continue;
      const item = ctx.memory[l];
      if (holdsNothing(item) && !memoryProvides(item, ref.path)) out.push(l);
    }
  }
  return out;
}

/** Rerun candidates for every emptied memory label: the APIs that could have made it, before its first reader. */
export function rerunCalls(ctx: CompileContext, emptied: readonly string[]): void {
  if (ctx.options.allowInsert === false) return;
  for (const label of emptied) {
    const uses = usesOf(ctx, label);
    if (uses.first === -1 || uses.paths.length === 0) continue;
    const apis = standIns(ctx, uses).slice(0, ctx.bounds.restoreCandidates);
    const need = uses.paths.map((p) => `${label}.${normalisePath(p)}`).join(', ');
    for (const { api, evidence, family } of apis) {
      const call = newCall(ctx, {
        kind: 'inserted',
        origin: -1,
        pos: uses.first - BEFORE_READER,
        depth: 1,
        apis: [
          apiChoice(ctx, api, {
            restoreStep: 1,
            restoreRerun: 1,
            perCall: 1,
            dissimilarity: 1 - evidence,
            restoreFamily: 1 - family,
          }),
        ],
        labels: labelChoices(ctx, undefined, [], true),
        need,
        reruns: label,
      });
      labelRows(ctx, call, true);
    }
  }
}

/**
 * The options of a reference into an emptied memory item: the same field of a rerun of its producer placed
 * before the reader (the re-point is priced with the rerun, `restoreRerun`).
 */
export function rerunOptions(
  ctx: CompileContext,
  label: string,
  path: readonly PathSegment[],
  earlier: readonly Call[],
): TokenOption[] {
  const options: TokenOption[] = [];
  for (const j of earlier) {
    if (j.reruns !== label) continue;
    const provides = ctx.provides(j, path);
    if (provides.length === 0) continue;
    const v = ctx.variable();
    ctx.builder.atMost([v], provides);
    ctx.builder.atMost([v], ctx.labelled(j));
    options.push({ kind: 'reassign', v, cost: 0, call: j.id, path });
  }
  return options;
}
