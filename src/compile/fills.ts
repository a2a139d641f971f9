/**
 * The sources of a required parameter beyond the call's own arguments: an earlier output of its name
 * (`reassign`) or of a name mapped onto it (`newMap`), a memory item, a literal the sequence passes to a
 * parameter of the same name (`reuseLiteral`, never one a sibling call of the same API already passes: two
 * identical calls are a guess, not a repair), or `ask`, priced by what a person can know (and whose answer
 * a later call of another API may read: see `slotShareRows`).
 */
import type { ApiSpec, Json, OutputField, ParamSpec, PathSegment, Step } from '../model/types.ts';
import { leafOf, outputsByLeaf } from '../catalog/catalog-index.ts';
import { tieDistance } from '../catalog/names.ts';
import { canonicalJson } from '../model/canonical.ts';
import { isLiteral } from '../validate/validate.ts';
import { fitsType, literalMismatch, typesCanMatch } from '../validate/literals.ts';
import { memoryProvides } from '../validate/outputs.ts';
import { itemOrder, itemRecency, memoryApi } from './memory.ts';
import { normalisePath, referenceSites, segments, stepReferences } from '../read/references.ts';
import { knownLabel, type CompileContext } from './context.ts';
import { callApis, type Call, type Source } from './plan.ts';
import { affinity, FILL_AFFINITY, recency, roleRank, siblingFeeds } from './roles.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';
import { otherThanDescribed } from '../catalog/evidence.ts';

/** How a field can feed a parameter: its own name (`reassign`) or a mapping of `score` (`newMap`). */
interface FieldCost {
  readonly features: Features;
  readonly score: number;
  readonly mapped: boolean;
}

const REASSIGN: Features = { reassign: 1 };
const MEMORY: Features = { fromMemory: 1 };
const REUSE: Features = { reuseLiteral: 1 };
import { askParamCost, registerSlotAsk } from './asks.ts';
import { gapBefore } from './numbering.ts';
import { parallelSteps, readsSibling, stepProduces } from './parallel.ts';
import { headlineResult, unreadFeeds } from './unread.ts';

interface Candidate {
  readonly features: Features;
  readonly cost: number;
  /**
   * Set when read from a call the repair would insert (offered after what the sequence itself has): what
   * putting that call in costs, which the bound on sources also ranks it by (`boundedFills`).
   */
  readonly insertCost?: number;
  readonly kind: 'reassign' | 'newMap' | 'fromMemory' | 'reuseLiteral';
  readonly make: (v: number) => Source;
  readonly rows?: (v: number) => void;
}

/** Non-argument sources of required parameter `p` of `api` at `call`. */
export function fillSources(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Source[] {
  const feeds = siblingFeeds(ctx, call.origin);
  const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
  // The step passed `p` a reference: the plan takes the value from an output. When that reference names a
  // deleted step, refilling `p` from an output of another name would re-point it in disguise.
  const own =
    step && Object.prototype.hasOwnProperty.call(step.arguments, p.name) ? step.arguments[p.name] : undefined;
  const fromOutput = own !== undefined && !isLiteral(own);
  const lostStep =
    fromOutput && stepReferences({ [p.name]: own }).some((site) => ctx.restorable.has(site.ref.label));
  const candidates: Candidate[] = [];
  const mapped = lostStep
    ? new Map<string, number>()
    : new Map(ctx.mappedFrom(p.name).map((m) => [m.from, m.score]));
  const fieldCost = (leaf: string): FieldCost | null => {
    if (leaf === p.name) return { features: REASSIGN, score: 1, mapped: false };
    const score = mapped.get(leaf);
    return score === undefined ? null : { features: { newMap: 2 - score }, score, mapped: true };
  };
  const names = [p.name, ...mapped.keys()];
  const rank = roleRank(api, p);
  // A parallel role (origin, destination) read elsewhere in the plan is another trip's: only a sibling of the
  // same role, then the plan's order, says where it comes from.
  const roles = rank !== undefined;
  const near = (label: string): Features => {
    const a = affinity(p.name, label, feeds);
    return FILL_AFFINITY[roles && a === 'plan' ? 'other' : a];
  };
  const earlier = ctx.before(call.pos);
  for (const j of earlier) {
    const label = knownLabel(ctx, j);
    const best = feedingFields(ctx, callApis(j), p, names, fieldCost, !lostStep);
    // Parallel roles take their sources in the order the plan made them: the earlier airport search is the
    // origin, the later one the destination (sources that are not the input's calls all count as earliest).
    const order = (rank ?? 0) * (j.origin >= 0 ? 1 - j.pos / Math.max(ctx.steps.length, 1) : 1);
    const insertCost = j.kind === 'inserted' ? Math.min(...j.apis.map((a) => a.cost)) : undefined;
    const described = otherThanDescribed(ctx.index, p, callApis(j)) ? 1 : 0;
    for (const { field, fc } of best.values()) {
      const path = segments(field.path);
      const features = plus(plus(fc.features, near(label)), {
        // A mapping between two calls of a plan of unrelated requests is a coincidence of names, not a flow
        // (a doctor's name for a student's full_name); a put-back call's inputs are the chain it restores.
        ...incoherentLink(
          ctx,
          fc,
          field.path,
          callApis(j),
          j.kind !== 'inserted' && call.kind !== 'inserted',
        ),
        feedOtherThanDescribed: described,
        closeDepth: path.length - 1,
        closeLabelName: tieDistance(p.name, label),
        closeRoleOrder: order,
        closeRecency: recency(ctx, call, j, earlier),
        closeEcho: passesOn(ctx, j, field) ? 1 : 0,
        insertReadsSibling: j.origin >= 0 && readsSibling(ctx, call, label, field.path) ? 1 : 0,
      });
      const cost = ctx.price(features);
      candidates.push({
        features,
        cost,
        ...(insertCost !== undefined && { insertCost }),
        kind: fc.mapped ? 'newMap' : 'reassign',
        make: (v) => ({ kind: 'output', v, cost, call: j.id, path, mapped: fc.mapped }),
        rows: (v) => {
          ctx.builder.atMost([v], ctx.provides(j, path));
          ctx.builder.atMost([v], ctx.labelled(j));
        },
      });
    }
  }
  for (const [label, value] of Object.entries(ctx.memory)) {
    // The item's fields as a call's output (memory.ts), each by the cheapest way it can feed `p`.
    const best = new Map<string, FieldCost>();
    // A whole item is a value under its label's name, as an ask's answer is (`query: "London"` for `query`).
    const whole =
      value !== null && typeof value !== 'object' && fitsType(value, p.type) ? fieldCost(label) : null;
    if (whole) best.set('', whole);
    for (const [path, { fc }] of feedingFields(ctx, [memoryApi(ctx, label)], p, names, fieldCost, !lostStep))
      best.set(path, fc);
    for (const [mp, fc] of best) {
      const path = mp === '' ? [] : segments(mp);
      // Priced as the same field of a planned call's output: `fromMemory` where that is a `reassign`, the
      // mapping's `newMap` where it is mapped.
      const features = plus(fc.mapped ? fc.features : MEMORY, {
        // As for a planned call: a parallel role fed elsewhere is another trip's (`near`).
        ...near(label),
        // As between two planned calls: in a plan of unrelated requests a mapping is a coincidence of names.
        ...incoherentLink(ctx, fc, mp, [memoryApi(ctx, label)], call.kind !== 'inserted'),
        closeDepth: path.length - 1,
        closeLabelName: tieDistance(p.name, label),
        closeRoleOrder: (rank ?? 0) * itemOrder(ctx, label),
        closeRecency: itemRecency(ctx, call, label),
        // As for a planned call: a sibling lookup's other field does not feed an inserted lookup.
        insertReadsSibling: readsSibling(ctx, call, label, mp) ? 1 : 0,
      });
      const cost = ctx.price(features);
      candidates.push({
        features,
        cost,
        kind: 'fromMemory',
        make: (v) => ({ kind: 'memory', v, cost, label, path, mapped: fc.mapped }),
        rows: (v) => ctx.unshadowed(v, label, call.pos),
      });
    }
  }
  // A value the plan took from an output is not replaced by a copy of some other call's input.
  if (!fromOutput) {
    const reused = references(ctx, call, api, p);
    // Where another call reads the value from an output, that is the plan's way of getting it: the
    // literal it was computed from comes second.
    const after: Features = reused.length > 0 ? { literalAfterReference: 1 } : NO_FEATURES;
    candidates.push(...reused, ...literals(ctx, call, api, p, after));
  }
  const sources: Source[] = boundedFills(candidates, ctx.bounds.fillsPerParameter).map((c) => {
    const v = ctx.variable(c.features);
    c.rows?.(v);
    return c.make(v);
  });
  // Right after a label the count skips (a deleted step none of whose uses is left), a missing value that
  // calls produce is likelier that step's output than the user's: asking for it pays the premium.
  const skipped = call.origin >= 0 && own === undefined && gapBefore(ctx, call.origin) !== undefined;
  const fields = own === undefined ? (skipped ? [p.name] : []) : referencedFields(own);
  const ask = askParamCost(ctx, p, fields);
  const v = ctx.variable(ask);
  const cost = ctx.price(ask);
  sources.push({ kind: 'ask', v, cost });
  registerSlotAsk(ctx, { call, api: api.name, param: p.name, v, cost });
  return sources;
}

/**
 * A link between two calls of a plan of unrelated requests (neither put in by the repair) is a coincidence of
 * names, not a flow: `mapIncoherent` for a mapped field (a doctor's `name` for a student's `full_name`),
 * `reassignIncoherent` for one of the parameter's own name (in a large catalog, a book search's `title` for an
 * assignment check's `title`) unless it is its API's headline result (the `distance` of calculate_distance,
 * `headlineResult`), which is what the call is made for.
 */
function incoherentLink(
  ctx: CompileContext,
  fc: FieldCost,
  path: string,
  producers: readonly ApiSpec[],
  between: boolean,
): Features {
  if (!between || !ctx.incoherent()) return NO_FEATURES;
  if (fc.mapped) return { mapIncoherent: 1 };
  const headline = producers.some((api) => headlineResult(ctx, leafOf(path), api));
  return headline ? NO_FEATURES : { reassignIncoherent: 1 };
}

/**
 * Whether input call `j` passes on a value under the name of `field`: its API takes and outputs it, and the
 * step reads it from another output or lacks it while it is required, so the repair gives it one (a movie's
 * show times take and return its `movie_name`). Read from `j`, the value is passed on; where the plan has its
 * source too, that is where it reads it.
 */
function passesOn(ctx: CompileContext, j: Call, field: OutputField): boolean {
  if (j.origin < 0 || j.kind === 'result') return false;
  const step = ctx.steps[j.origin];
  const leaf = leafOf(field.path);
  const q = ctx.index.byName.get(step.name)?.params.find((x) => x.name === leaf);
  if (!q) return false;
  const own = Object.prototype.hasOwnProperty.call(step.arguments, leaf) ? step.arguments[leaf] : undefined;
  return own === undefined ? q.required : !isLiteral(own);
}

/**
 * The sources a parameter's model holds, `max` at most twice over: what the sequence has first (its calls,
 * memory, its literals), then outputs of calls to insert; the `max` cheapest that way, and the `max` cheapest
 * counting what putting their call in costs (of twenty APIs that output `artist_id` in a large catalog, the
 * plan's own lookup, read through its `id`, is kept besides the strangers whose output is named alike).
 */
function boundedFills(candidates: readonly Candidate[], max: number): Candidate[] {
  const inserted = (c: Candidate) => Number(c.insertCost !== undefined);
  const total = (c: Candidate) => c.cost + (c.insertCost ?? 0);
  const byCost = [...candidates].sort((a, b) => inserted(a) - inserted(b) || a.cost - b.cost);
  if (byCost.length <= max) return byCost;
  const kept = byCost.slice(0, max);
  const held = new Set(kept);
  const byTotal = [...candidates].sort((a, b) => inserted(a) - inserted(b) || total(a) - total(b));
  return [...kept, ...byTotal.slice(0, max).filter((c) => !held.has(c))];
}

/**
 * The cheapest way each field of `apis` (a call's, or a memory item's: memory.ts) can feed `p`, by path: its
 * own name or a name mapped onto it (`names`, priced by `fieldCost`), or (`inContext`) a field the parameter's
 * name ends with whose producer names the rest (`id` of search_artist for `artist_id`), priced as a map of
 * that score. Only fields whose type can feed `p`.
 */
function feedingFields(
  ctx: CompileContext,
  apis: readonly ApiSpec[],
  p: ParamSpec,
  names: readonly string[],
  fieldCost: (leaf: string) => FieldCost | null,
  inContext: boolean,
): Map<string, { field: OutputField; fc: FieldCost; cost: number }> {
  const best = new Map<string, { field: OutputField; fc: FieldCost; cost: number }>();
  const offer = (field: OutputField, fc: FieldCost) => {
    const known = best.get(field.path);
    const cost = ctx.price(fc.features);
    if (typesCanMatch(field.type, p.type) && (!known || cost < known.cost))
      best.set(field.path, { field, fc, cost });
  };
  for (const api of apis) {
    const byLeaf = outputsByLeaf(api);
    for (const name of names) for (const f of byLeaf.get(name) ?? []) offer(f, fieldCost(name)!);
    if (!inContext) continue;
    for (const { field, score } of ctx.contextFields(p, api))
      offer(field, { features: { newMap: 2 - score }, score, mapped: true });
  }
  return best;
}

/**
 * Literals the sequence passes to another parameter named `p`, nearest step first; never a value that a
 * call of the same API already passes for `p` (a copy of a sibling call), nor one an earlier call takes
 * and outputs again (its output is the source).
 */
function literals(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec, extra: Features): Candidate[] {
  const siblings = siblingValues(ctx, call, api, p);
  // A labelled call that takes `p` and also outputs it: the plan reads the value from its output (an
  // earlier output of the parameter's own name is a source already), not from a copy of its input.
  const echoes = (step: Step) => {
    const producer = ctx.index.byName.get(step.name);
    return step.label !== undefined && producer !== undefined && outputsByLeaf(producer).has(p.name);
  };
  // A call whose output no other call reads and could feed `p` is the lost source: its output, not a copy of
  // its input (`get_translation(text)` after `analyze_sentiment(text="I love it")` translates the sentiment);
  // the same for a call that ran, whose result no call reads (a memory item).
  const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
  const feeds = !(step && Object.prototype.hasOwnProperty.call(step.arguments, p.name))
    ? unreadFeeds(ctx, call, p)
    : [];
  const lost = new Set(feeds.flatMap((f) => (f.call ? [f.call.origin] : [])));
  const lostItems = new Set(feeds.flatMap((f) => (f.item !== undefined ? [f.item] : [])));
  const seen = new Set<string>();
  const out: Candidate[] = [];
  // One candidate per value, from the first call that passed it (`from`), priced with its closeness.
  const offer = (value: Json, closeness: Features, from: { fromStep: number; fromExecuted?: number }) => {
    const key = canonicalJson(value);
    if (!isLiteral(value) || seen.has(key) || siblings.has(key)) return;
    if (ctx.options.strictTypes && literalMismatch(value, p)) return;
    seen.add(key);
    const features = plus(plus(REUSE, extra), closeness);
    const cost = ctx.price(features);
    out.push({
      features,
      cost,
      kind: 'reuseLiteral',
      make: (v) => ({ kind: 'literal', v, cost, value, ...from }),
      // Calls put in (restored, inserted) of one API never take one copied value between them.
      rows:
        call.kind === 'inserted'
          ? (v) => twinCopy(ctx, `${api.name}\u0000${p.name}\u0000${key}`, v)
          : undefined,
    });
  };
  const passes = (other: Step) => Object.prototype.hasOwnProperty.call(other.arguments, p.name);
  // An earlier call that outputs what it took is the value's source: a copy of its input is offered last,
  // priced (`reuseEchoed`), for a value no other step passes.
  const echoed: { k: number; value: Json; distance: number }[] = [];
  ctx.steps.forEach((other, k) => {
    if (k === call.origin || lost.has(k) || !passes(other)) return;
    const distance = Math.abs(call.pos - k) / Math.max(ctx.steps.length, 1);
    if (k < call.pos && echoes(other)) {
      echoed.push({ k, value: other.arguments[p.name], distance });
      return;
    }
    const parallel: Features = parallelLookup(ctx, call, k)
      ? { reuseParallel: 1 }
      : twinLookup(ctx, call, k)
        ? { reuseTwinLookup: 1 }
        : NO_FEATURES;
    offer(other.arguments[p.name], plus(parallel, { closeDistance: distance }), { fromStep: k });
  });
  for (const { k, value, distance } of echoed)
    offer(value, { reuseEchoed: 1, closeDistance: distance }, { fromStep: k });
  // The calls already executed passed values too, as the plan's first steps: priced as a step's literal
  // that far back. Not one a call of the same API passed (the copy would repeat that call), unless this call
  // runs again the very call whose result came back without what is read: it takes that call's arguments.
  const executed = ctx.options.executed ?? [];
  const all = Math.max(ctx.steps.length + executed.length, 1);
  executed.forEach((other, e) => {
    const again = call.reruns !== undefined && other.label === call.reruns && other.name === api.name;
    if (!passes(other) || (!again && (other.name === api.name || echoes(other)))) return;
    if (!again && other.label !== undefined && lostItems.has(other.label)) return;
    const distance = again ? 0 : (call.pos + executed.length - e) / all;
    offer(other.arguments[p.name], { closeDistance: distance }, { fromStep: -1, fromExecuted: e });
  });
  return out;
}

/**
 * Whether step `k` is a lookup parallel to inserted `call`: its API produces what `call` was inserted for,
 * and the call that lacks it already reads `k`'s output. A value copied from `k` then feeds two roles of
 * that call (a route from Harbor Bridge to Harbor Bridge, a message from chenwei to chenwei).
 */
function parallelLookup(ctx: CompileContext, call: Call, k: number): boolean {
  if (call.kind !== 'inserted' || call.consumer === undefined || call.need === undefined) return false;
  return parallelSteps(ctx, call.consumer, call.need).includes(k);
}

/**
 * Whether step `k` is a lookup of the kind inserted `call` makes, its consumer aside: its API produces what
 * `call` was inserted for. A value copied from `k` repeats a lookup the plan already makes with it (the
 * team `k` looks up, looked up again by another API that finds a team): the plan would read `k` instead.
 * Not for a call put back in a label's place (restored, rerun, filling a skipped label).
 */
function twinLookup(ctx: CompileContext, call: Call, k: number): boolean {
  if (call.kind !== 'inserted' || call.need === undefined || k === call.consumer) return false;
  // A deleted step put back takes the values its consumers pass (theirs are the plan's own).
  if (call.restores !== undefined || call.reruns !== undefined || call.fills !== undefined) return false;
  return stepProduces(ctx, k, call.need);
}

/** The values (canonical JSON) that other calls of `api` pass for `p`: copying one makes a twin call. */
function siblingValues(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Set<string> {
  const siblings = new Set<string>();
  ctx.steps.forEach((other, k) => {
    if (k === call.origin || other.name !== api.name) return;
    if (Object.prototype.hasOwnProperty.call(other.arguments, p.name))
      siblings.add(canonicalJson(other.arguments[p.name]));
  });
  return siblings;
}

/**
 * References another call passes whole to a parameter named `p` (`q = $var1.location.name$` on the
 * forecast, for the time zone's `q`), read from the same output: the plan's way of feeding that kind of
 * value, priced as `reuseLiteral`. Never one a call of the same API passes (a twin call).
 */
function references(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Candidate[] {
  const siblings = siblingValues(ctx, call, api, p);
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const { step: k, site } of ctx.wholeFeeds.get(p.name) ?? []) {
    const other = ctx.steps[k];
    // The answer's keys name what it shows, not parameters.
    if (k === call.origin || ctx.isAnswer(k)) continue;
    const value = other.arguments[p.name];
    const key = canonicalJson(value);
    if (seen.has(key) || siblings.has(key)) continue;
    seen.add(key);
    const path = site.ref.path;
    const distance = Math.abs(call.pos - k) / Math.max(ctx.steps.length, 1);
    const features = plus(REUSE, { closeDistance: distance });
    const cost = ctx.price(features);
    // The reference reads a memory item: the copy reads it too (unless a call in between takes its label).
    const label = site.ref.label;
    if (ctx.inMemory(label) && memoryProvides(ctx.memory[label], path))
      out.push(memoryCopy(ctx, call, features, label, path, { fromStep: k }));
    for (const j of ctx.before(call.pos)) {
      if (j.kind === 'result' || knownLabel(ctx, j) !== label) continue;
      out.push({
        features,
        cost,
        kind: 'reuseLiteral',
        make: (v) => ({ kind: 'output', v, cost, call: j.id, path, mapped: false, fromStep: k }),
        rows: (v) => {
          ctx.builder.atMost([v], ctx.provides(j, path));
          ctx.builder.atMost([v], ctx.labelled(j));
        },
      });
    }
  }
  // The calls already executed pass values too: one that read a memory item for a parameter of this name
  // is how the run got that value (never a copy of a call of the same API: that would repeat it).
  const steps = Math.max(ctx.steps.length, 1);
  (ctx.options.executed ?? []).forEach((done, i) => {
    if (done.name === api.name || !Object.prototype.hasOwnProperty.call(done.arguments, p.name)) return;
    const value = done.arguments[p.name];
    const key = canonicalJson(value);
    if (seen.has(key) || siblings.has(key)) return;
    seen.add(key);
    for (const site of referenceSites(p.name, value)) {
      const { label, path } = site.ref;
      if (!site.whole || !ctx.inMemory(label) || !memoryProvides(ctx.memory[label], path)) continue;
      const features = plus(REUSE, { closeDistance: (call.pos + 1) / steps });
      out.push(memoryCopy(ctx, call, features, label, path, { fromExecuted: i }));
    }
  });
  return out;
}

/** A copy of a reference to memory item `label` that a step (`fromStep`) or an executed call passes. */
function memoryCopy(
  ctx: CompileContext,
  call: Call,
  features: Features,
  label: string,
  path: readonly PathSegment[],
  from: { readonly fromStep: number } | { readonly fromExecuted: number },
): Candidate {
  const cost = ctx.price(features);
  return {
    features,
    cost,
    kind: 'reuseLiteral',
    make: (v) => ({ kind: 'memory', v, cost, label, path, mapped: false, ...from }),
    rows: (v) => ctx.unshadowed(v, label, call.pos),
  };
}

/** The fields a value references (their leaves), for pricing a question about it. */
export function referencedFields(value: Json): string[] {
  return referenceSites('', value)
    .map((site) => leafOf(normalisePath(site.ref.path)))
    .filter((f) => f !== '');
}

function twinCopy(ctx: CompileContext, key: string, v: number): void {
  const list = ctx.twinCopies.get(key);
  if (list) list.push(v);
  else ctx.twinCopies.set(key, [v]);
}

/** At most one call put in per API takes a given copied value for a parameter (no twins: two "Paris"). */
export function twinRows(ctx: CompileContext): void {
  for (const vars of ctx.twinCopies.values()) if (vars.length > 1) ctx.builder.atMost(vars, 1);
}
