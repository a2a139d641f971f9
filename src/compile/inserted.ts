/**
 * Inserted candidates: catalog APIs that output a field some call needs (a required parameter it lacks, the
 * field of a broken reference), placed just before the call; under the label the count skips there, when it
 * skips one, they stand for a deleted step.
 */
import type { ApiSpec, ParamSpec, Step } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import type { CompileContext } from './context.ts';
import { gapBefore } from './numbering.ts';
import { bareCall, lackingInputs, producers, requiredInputs } from './producers.ts';
import { carriedCharge, carriedValues, templates, inFullLookup } from './carried.ts';
import { apiChoice, labelChoice, labelChoices, labelRows, newCall } from './calls.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';
import { commonCount, commonness, namedAfter } from '../catalog/evidence.ts';
import type { Call } from './plan.ts';
import { planFamily } from './restore.ts';
import { parallelSteps } from './parallel.ts';

/** What a call needs that an inserted call could produce: (field leaf, position of the consumer). */
export interface Need {
  readonly leaf: string;
  readonly pos: number;
  readonly depth: number;
  /** A broken reference names its field: only producers of that very field serve it (no mappings). */
  readonly exact?: boolean;
  /** The input step that needs it. */
  readonly step?: number;
  /** The parameter that lacks it (its description may name the entity whose identifier it takes). */
  readonly param?: ParamSpec;
}

function needsOf(ctx: CompileContext, call: Call): Need[] {
  const needs: Need[] = [];
  const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
  for (const choice of call.apis) {
    for (const p of choice.api?.params ?? []) {
      if (p.required && !(step && Object.prototype.hasOwnProperty.call(step.arguments, p.name))) {
        needs.push({
          leaf: p.name,
          pos: call.pos,
          depth: call.depth,
          step: call.origin >= 0 ? call.origin : undefined,
          param: p,
        });
      }
    }
  }
  if (step) {
    for (const site of ctx.refs[call.origin]) {
      // A deleted step is put back under its own label (restore.ts), not inserted anew.
      if (ctx.restorable.has(site.ref.label) || !ctx.broken(call.origin, site.ref)) continue;
      const last = [...site.ref.path].reverse().find((s) => typeof s === 'string');
      if (typeof last === 'string')
        needs.push({ leaf: last, pos: call.pos, depth: call.depth, exact: true, step: call.origin });
    }
  }
  return needs;
}

/**
 * Whether the consumer already reads calls that produce the need (parallel roles: an origin's airport for a
 * destination's) and none of them is of `api`.
 */
function unlikeParallel(ctx: CompileContext, api: ApiSpec, consumer: number | undefined, need: string) {
  if (consumer === undefined) return false;
  const parallel = parallelSteps(ctx, consumer, need);
  return parallel.length > 0 && !parallel.some((k) => ctx.steps[k].name === api.name);
}

/**
 * How common a need is: as an output name (`commonness`), or by the APIs that produce it (`standIns`, its
 * producers through a mapping too), whichever is more: no API outputs a `recipient_user_id`, but the
 * hundred that output `user_id` all produce it, and one of them is a guess.
 */
function needCommonness(ctx: CompileContext, need: string, standIns: number | undefined): number {
  const named = commonness(ctx.index, leafOf(need));
  return standIns === undefined ? named : Math.max(named, commonCount(ctx.index, standIns));
}

/**
 * Adds an inserted candidate: `api` at `pos`, under a fresh label; or, given `gap`, under the label the count
 * skips right before its consumer (`var1` when the plan starts at var2): the deleted step whose uses all went
 * with it, priced as a restored step and written as one (the values it carries).
 */
export function newInsertedCall(
  ctx: CompileContext,
  api: ApiSpec,
  pos: number,
  depth: number,
  need: string,
  {
    gap,
    standIns,
    consumer,
    related = ctx.relatedTo(api, leafOf(need)),
    lacks = 0,
    habit = NO_FEATURES,
  }: {
    /** A put-back call for the label the count skips before `consumer` (`restoreStep`). */
    readonly gap?: { readonly label: string; readonly consumer: { step: Step; i: number } };
    /** How many catalog APIs could be this call (the producers of its need). */
    readonly standIns?: number;
    /** The input step that lacks the need. */
    readonly consumer?: number;
    /** Whether the API is related to the plan or its need (`relatedTo`; worked out when not given). */
    readonly related?: boolean;
    /** A stranger's inputs fewer than the related producer that needs fewest (see producerKin). */
    readonly lacks?: number;
    /** Its departures from the plan's naming habits, where another producer of the need keeps them (see producerKin). */
    readonly habit?: Features;
  } = {},
): Call {
  const kind = gap ? 'restoreStep' : 'insertCall';
  const common = needCommonness(ctx, need, standIns);
  // A put-back call, and a producer inserted for an input step's need, take the optional values the step
  // that reads them passes under the same names (carried.ts).
  const reader = gap
    ? gap.consumer
    : consumer !== undefined
      ? { step: ctx.steps[consumer], i: consumer }
      : undefined;
  const carried = reader
    ? carriedValues(api, templates(ctx, api, pos), [reader], inFullLookup(ctx))
    : undefined;
  const call = newCall(ctx, {
    kind: 'inserted',
    origin: -1,
    pos,
    depth,
    apis: [
      apiChoice(
        ctx,
        api,
        plus(lackingInputs(lacks), {
          [kind]: 1,
          perCall: 1,
          // Of the plan's family or not: of two lookups alike, the plan's own (as for a restored step).
          restoreFamily: 1 - planFamily(ctx, api),
          ...habit,
          insertUnlikeParallel: unlikeParallel(ctx, api, consumer, need) ? 1 : 0,
          // A stranger (an API that shares no content word with the plan or its need) weighs as much as its
          // need is common: the one API that outputs a rare field is evidence, one of many that output `status`
          // a guess.
          insertUnrelated: related ? 0 : common,
          insertCommonNeed: common,
          insertIncoherent: ctx.incoherent() ? 1 : 0,
          ...bareCall(api),
        }),
        carried ? carriedCharge(carried) : undefined,
      ),
    ],
    // A fresh label: a label the sequence references but nothing defines is a deleted step's, taken back
    // by a restored call (restore.ts) or by an original call relabelled, never by a guess.
    labels: gap ? [labelChoice(ctx, gap.label, NO_FEATURES)] : labelChoices(ctx, undefined, [], true),
    need,
    consumer,
    standIns,
    ...(gap && { fills: gap.label }),
    ...(carried && { carried }),
  });
  labelRows(ctx, call, true);
  return call;
}

/** A producer of a need: whether it is related to the plan or the need, and the inputs it lacks (producerKin). */
interface Producer {
  readonly api: ApiSpec;
  readonly related: boolean;
  readonly lacks: number;
  readonly habit: Features;
}

/**
 * The producers of a need in catalog order, each with its kinship (`relatedTo`: a stranger pays
 * `insertUnrelated` under the weights; insertedCalls takes the related ones of every need first) and how many
 * inputs it lacks against a likelier producer that needs fewest: a stranger against the related ones, a
 * related producer that outputs the need only under another name against the related ones that output its
 * very name. One is not the likelier for asking less: LocalBusinessData(), which outputs a `place_id`, for
 * the second place of a route whose first the plan looks up by address; lookup_property, whose `name` maps
 * onto a lost `property_name`, for Homes.FindApartment, which outputs it. None lacks any against no one.
 */
function producerKin(ctx: CompileContext, apis: readonly ApiSpec[], need: string): Producer[] {
  const needWords = ctx.contentWords(leafOf(need));
  const kin = apis.map((api) => ({ api, related: ctx.relatedTo(api, needWords) }));
  const fewestOf = (some: readonly { api: ApiSpec }[]) => Math.min(...some.map((p) => requiredInputs(p.api)));
  const related = kin.filter((p) => p.related);
  const fewest = fewestOf(related);
  const exact = new Set(producers(ctx, leafOf(need), 'exact'));
  const fewestExact = fewestOf(related.filter((p) => exact.has(p.api)));
  const lacks = (api: ApiSpec, isRelated: boolean) => {
    const likelier = !isRelated ? fewest : exact.has(api) ? Infinity : fewestExact;
    return Number.isFinite(likelier) ? Math.max(0, likelier - requiredInputs(api)) : 0;
  };
  // Lookups alike: an API named after the need (find_city, Find_City for a `city`) departs from the plan's
  // habit only if another one named so keeps it; a review API that happens to output a city, named like the
  // plan's calls, does not make the plan's own lookup foreign. Any other API is judged among all producers.
  const named = new Set(apis.filter((api) => namedAfter(api, needWords)));
  const habitOfNamed = ctx.outOfHabit([...named]);
  const habitOfAll = ctx.outOfHabit(apis);
  const habit = (api: ApiSpec) => (named.has(api) ? habitOfNamed(api) : habitOfAll(api));
  return kin.map(({ api, related }) => ({
    api,
    related,
    lacks: lacks(api, related),
    habit: habit(api),
  }));
}

/**
 * The producers of a need in catalog-name order: those of its name (`producers`), and for a parameter whose
 * description names an entity, the APIs that output that entity's identifier (`city` from Find_City's
 * `the_unique_identifier_of_the_city`, which in a catalog of thousands no computed mapping ties to `city`).
 */
function needProducers(ctx: CompileContext, need: Need): readonly ApiSpec[] {
  const named = producers(ctx, leafOf(need.leaf), need.exact ? 'exact' : 'any');
  if (need.exact || need.param === undefined) return named;
  const entity = ctx.describedProducers(need.param);
  if (entity.length === 0) return named;
  const known = new Set(named);
  const described = entity.filter((api) => !known.has(api) && (!ctx.allowed || ctx.allowed(api)));
  if (described.length === 0) return named;
  // Both in catalog-name order, merged (a common name has hundreds of producers: no sort of them all).
  const rank = (api: ApiSpec) => ctx.index.nameRank(api);
  const extra = described.sort((a, b) => rank(a) - rank(b));
  const out: ApiSpec[] = [];
  let k = 0;
  for (const api of named) {
    while (k < extra.length && rank(extra[k]) < rank(api)) out.push(extra[k++]);
    out.push(api);
  }
  return out.concat(extra.slice(k));
}

/**
 * The producers of need `k` that also produce another need of the same call (at its depth): of the hundreds
 * of APIs that output a pace's `distance`, the route calculator that outputs its `time` too. They go in first
 * among the related producers, and among the strangers. None for a need without a call (a goal's need stands
 * alone).
 */
function coverage(queue: readonly Need[], k: number, kin: (k: number) => Producer[]): Set<string> {
  const need = queue[k];
  const out = new Set<string>();
  if (need.step === undefined) return out;
  const mine = new Set(kin(k).map((p) => p.api.name));
  queue.forEach((other, j) => {
    if (j === k || other.step !== need.step || other.depth !== need.depth || other.leaf === need.leaf) return;
    for (const p of kin(j)) if (mine.has(p.api.name)) out.add(p.api.name);
  });
  return out;
}

/** The passes over the needs: related producers before strangers; of each, those of several needs first. */
const PASSES = [
  [true, false],
  [false, false],
  [true, true],
  [false, true],
] as const;

/**
 * Inserted candidates: for every need of every call (and every extra `seeds` need, from goals), the
 * catalog APIs that output the needed field, placed just before the first consumer; their own needs recurse
 * up to `insertDepth`. The related producers of every need come first, then the strangers, so that
 * `insertLimit` is not spent on the twenty strangers that output a bus ticket's `origin` before the
 * `departure_time` its own search outputs is looked at.
 */
export function insertedCalls(ctx: CompileContext, seeds: readonly Need[] = []): void {
  if (ctx.options.allowInsert === false && seeds.length === 0) return;
  const placed = new Map<string, number>(); // api name -> position
  const queue = [
    ...seeds,
    ...(ctx.options.allowInsert === false ? [] : ctx.calls.flatMap((c) => needsOf(ctx, c))),
  ];
  let count = 0;
  const full = () => count >= ctx.cost.insertLimit;
  // One producer for one need: just before its consumer, and in the label the count skips there as well.
  const insert = (need: Need, producer: Producer, standIns: number) => {
    const { api, related, lacks, habit } = producer;
    const prior = placed.get(api.name);
    if (prior !== undefined && prior <= need.pos) return;
    const pos = need.pos - 0.1 * (need.depth + 1);
    placed.set(api.name, pos);
    const options = { standIns, consumer: need.step, related, lacks, habit };
    const call = newInsertedCall(ctx, api, pos, need.depth + 1, need.leaf, options);
    count++;
    if (ctx.options.allowInsert === false) return;
    queue.push(...needsOf(ctx, call));
    const gap = need.step === undefined ? undefined : gapBefore(ctx, need.step);
    if (gap === undefined || full()) return;
    const consumer = { step: ctx.steps[need.step!], i: need.step! };
    const restored = newInsertedCall(ctx, api, pos, need.depth + 1, need.leaf, {
      ...options,
      gap: { label: gap, consumer },
    });
    queue.push(...needsOf(ctx, restored));
    count++;
  };
  const kinOf: Producer[][] = [];
  const kin = (k: number) => (kinOf[k] ??= producerKin(ctx, needProducers(ctx, queue[k]), queue[k].leaf));
  // Per need, the producers of several of its call's needs: the needs of a call are all queued at the start.
  const covers: Set<string>[] = [];
  // Read by index: a long sequence has a need per broken reference, and shifting the queue each time would
  // take time quadratic in their number. Related producers of every need first, then the strangers, those
  // that produce more of the same call's needs first.
  for (const [several, strangers] of PASSES)
    for (let next = 0; next < queue.length && !full(); next++) {
      const need = queue[next];
      ctx.checkBudget();
      if (need.depth >= ctx.cost.insertDepth) continue;
      const found = kin(next);
      const covering = several ? (covers[next] ??= coverage(queue, next, kin)) : undefined;
      for (const producer of found) {
        if (full()) break;
        if (producer.related === strangers) continue;
        if (covering && !covering.has(producer.api.name)) continue;
        insert(need, producer, found.length);
      }
    }
}
