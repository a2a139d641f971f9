/**
 * Parallel roles: the calls a consumer already reads that produce what an inserted call was put in for. A
 * flight search fed its origin airport by `search_airport` and missing its destination's: the lost lookup
 * is of the same kind, most likely the same API, and takes a value of its own (not the origin's city again).
 */
import { leafOf, outputsByLeaf } from '../catalog/catalog-index.ts';
import { normalisePath } from '../read/references.ts';
import type { CompileContext } from './context.ts';
import type { Call } from './plan.ts';

/**
 * The input steps that `consumer` reads (by label) whose API produces `need`: by its name, a name mapped onto
 * it, or a field that stands for it in context.
 */
export function parallelSteps(ctx: CompileContext, consumer: number, need: string): readonly number[] {
  let known = asked.get(ctx);
  if (!known) asked.set(ctx, (known = new Map()));
  const key = `${consumer}\u0000${need}`;
  let out = known.get(key);
  if (!out) known.set(key, (out = stepsFeeding(ctx, consumer, need)));
  return out;
}

/** Per compile (a context dies with it): the parallel steps of each consumer and need asked about. */
const asked = new WeakMap<CompileContext, Map<string, readonly number[]>>();

function stepsFeeding(ctx: CompileContext, consumer: number, need: string): number[] {
  const labels = new Set(ctx.refs[consumer].map((site) => site.ref.label));
  const out: number[] = [];
  ctx.steps.forEach((step, k) => {
    if (k >= consumer || step.label === undefined || !labels.has(step.label)) return;
    if (stepProduces(ctx, k, need)) out.push(k);
  });
  return out;
}

/**
 * Whether input step `k`'s API produces `need`: by its name, a name mapped onto it, or a field that stands
 * for it in context. Such a step is a lookup of the kind an inserted call for `need` makes.
 */
export function stepProduces(ctx: CompileContext, k: number, need: string): boolean {
  const api = ctx.index.byName.get(ctx.steps[k].name);
  if (!api) return false;
  const leaf = leafOf(need);
  const outputs = outputsByLeaf(api);
  if (outputs.has(leaf) || ctx.mappedFrom(leaf).some((m) => outputs.has(m.from))) return true;
  return ctx.contextProducers(leaf).includes(api);
}

/**
 * Whether an inserted lookup's input read from the output under `label` (an input step's, or a memory item's)
 * at `path` (catalog form) reads another field of a sibling lookup: the call that lacks what `call` was
 * inserted for already reads `label` (for another of its inputs), and reads none of it at `path`. Two lookups
 * that feed one call are each the user's: the doctor's name does not find the patient. (Where the consumer
 * reads that very field, it is context both share: a hotel search's city.) Not for a call put back in a
 * label's place.
 */
export function readsSibling(
  ctx: CompileContext,
  call: Call,
  label: string | undefined,
  path: string,
): boolean {
  if (label === undefined || call.kind !== 'inserted' || call.consumer === undefined) return false;
  if (call.restores !== undefined || call.reruns !== undefined || call.fills !== undefined) return false;
  const read = ctx.refs[call.consumer].filter((site) => site.ref.label === label);
  return read.length > 0 && read.every((site) => normalisePath(site.ref.path) !== path);
}
