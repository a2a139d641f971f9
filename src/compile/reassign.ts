/**
 * Where a broken reference can be re-pointed, and at what price. A field of another name costs by how
 * unlike the two are (`dissimilarity × (1 − match)`, the match judged against the broken field and against
 * the parameter: name, shared suffix such as `entityId` in `destinationEntityId`, mapping); a field whose
 * declared type cannot feed the parameter is no candidate. The same label first: when the label is right,
 * only the field is wrong. A label that no step defines and whose fields a catalog API outputs is a deleted
 * step, put back by a restored call: its references move only to the same field of another label (a
 * misspelt label), never to outputs of another name.
 */
import type { ApiSpec, Json, OutputField, ParamSpec, PathSegment, ValueType } from '../model/types.ts';
import {
  leafOf,
  leavesByWords,
  outputsByLeaf,
  pathDepth,
  terminalOutputs,
} from '../catalog/catalog-index.ts';
import { normalisePath, segments } from '../read/references.ts';
import { genericName, similarity, tieDistance, words } from '../catalog/names.ts';
import { reusedLabel } from './executed.ts';
import { memoryApi } from './memory.ts';
import { nameCoverage } from '../catalog/name-terms.ts';
import { nameTerms, textTerms, wordKeys } from '../catalog/text.ts';
import { fitsType, typesCanMatch, typesCompatible } from '../validate/literals.ts';
import { knownLabel, type CompileContext } from './context.ts';
import { callApis, type Call, type TokenOption } from './plan.ts';
import { affinity, MOVE_AFFINITY, siblingFeeds } from './roles.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';

import { family } from './unread.ts';
import { answerKeys, spells } from './answer-keys.ts';
import {
  countedBeforeCost,
  feedsNamedStep,
  itemCountedBeforeCost,
  namedDeleted,
  ofStandIn,
  ofStandInApi,
  restoredProvides,
  standsFor,
  unreadStep,
} from './deleted-references.ts';

const REASSIGN: Features = { reassign: 1 };
const MEMORY: Features = { fromMemory: 1 };
const REUSE: Features = { reuseExecuted: 1 };

/** The one terminal output field of `api` whose type can feed `param`, if there is exactly one. */
function soleField(api: ApiSpec, param: ParamSpec | undefined, generic: boolean): OutputField | undefined {
  const fitting = terminalOutputs(api).filter((f) => !param || typesCanMatch(f.type, param.type));
  if (fitting.length === 1) return fitting[0];
  // Among fields that could be written into the parameter, the one of its own kind (the day with peak
  // sales, text, for a meeting's date, beside two numbers).
  const wanted = param && family(param.type);
  const own = wanted ? fitting.filter((f) => family(f.type) === wanted) : [];
  if (own.length === 1) return own[0];
  // A generic name (`$var1.result$`) stands for the call's main result: its first top-level field of the
  // parameter's kind.
  return generic && wanted ? own.find((f) => !/[.[]/.test(f.path)) : undefined;
}

/**
 * The fields of `label` that other calls of other APIs read whole into a parameter named `arg`, as written
 * and resolving (`location = $var1.short_name$` on the news, for the stats' broken `$var1.result$`), or
 * resolving once `label`'s deleted step is back (`restoredProvides`): how the plan feeds that parameter from
 * that call.
 */
function alikeFeeds(ctx: CompileContext, call: Call, arg: string, label: string): Set<string> {
  const out = new Set<string>();
  const own = call.origin >= 0 ? ctx.steps[call.origin].name : undefined;
  for (const { step: k, site } of ctx.wholeFeeds.get(arg) ?? []) {
    if (k === call.origin || ctx.steps[k].name === own || site.ref.label !== label) continue;
    if (site.ref.path.length === 0) continue;
    if (!ctx.broken(k, site.ref) || restoredProvides(ctx, label, site.ref.path))
      out.add(normalisePath(site.ref.path));
  }
  return out;
}

/** `location.name` -> `location`, `news[].url` -> `news[]`, `skyId` -> ''. */
function parentOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? '' : path.slice(0, dot);
}

/** What a reference may be re-pointed at: an earlier call, or a memory item (seen as a call's output). */
interface Scanned {
  readonly apis: readonly ApiSpec[];
  readonly call: Call | null;
  readonly memoryLabel?: string;
}

interface Found {
  readonly features: Features;
  readonly cost: number;
  readonly call: number | null;
  readonly memoryLabel?: string;
  readonly path: string;
  /** The label choice the call must take for this option (it reads the call under the broken label). */
  readonly via?: number;
  /** The option keeps the reference's own label, one an input step has (another field of the call it names). */
  readonly own?: boolean;
}

/**
 * The options a reference keeps: the cheapest `reassignPerReference`, with the cheapest `reassignOwnLabel` of
 * its own label among them when an input step has it (the label is more often right than the field), in cost
 * order. A label no step has is a deleted step's or a misspelt one: its options are judged by cost alone.
 */
function boundOptions(found: readonly Found[], perReference: number, ownLabel: number): Found[] {
  const sorted = [...found].sort((a, b) => a.cost - b.cost);
  const own = sorted.filter((f) => f.own).slice(0, Math.min(ownLabel, perReference));
  const kept = new Set(own);
  for (const f of sorted) if (kept.size < perReference && !kept.has(f)) kept.add(f);
  return sorted.filter((f) => kept.has(f));
}

export function reassignments(
  ctx: CompileContext,
  call: Call,
  arg: string,
  label: string,
  refPath: readonly PathSegment[],
  earlier: readonly Call[],
  param: ParamSpec | undefined,
): TokenOption[] {
  const e = ctx.evidence;
  const min = ctx.cost.minSimilarity;
  const norm = normalisePath(refPath);
  const leaf = leafOf(norm);
  // Indexes after the last key (`$var1.movies[0]$`) carry over to the field that replaces it.
  let cut = refPath.length;
  while (cut > 0 && typeof refPath[cut - 1] === 'number') cut--;
  const trailing = refPath.slice(cut);
  const mapped = new Map(ctx.mappedFrom(arg).map((m) => [m.from, m.score]));
  // How well a field stands for the broken one: as a spelling of it (its leaf, or its path under the same
  // parent: `location.mae` -> `location.name`), or as a source of the parameter (same name, shared suffix,
  // mapping). A different path with the same leaf ranks just below the same path.
  // An answer step's keys are names of results, not parameters: only the broken field is matched there.
  const answer = call.kind === 'result';
  const toParam = (other: string): number =>
    answer
      ? 0
      : Math.max(
          other === arg ? 1 : Math.min(e.mappingCap, mapped.get(other) ?? 0),
          e.paramSimilarity * similarity(other, arg),
        );
  // A shortened name: the broken field's words end the field's (`rating` for `averageRating`).
  const brokenWords = words(leaf);
  const shortened = (other: string): number => {
    const w = words(other);
    return brokenWords.length > 0 &&
      brokenWords.length < w.length &&
      brokenWords.every((x, i) => x === w[w.length - brokenWords.length + i])
      ? e.shortenedField
      : 0;
  };
  const parent = parentOf(norm);
  const generic = genericName(leaf);
  // The parameter's description uses a field's name (`q`: "… city name e.g.: q=Paris …" for `location.name`):
  // among the fields beside the broken one, that is likelier the one it takes (a noisy-or with the names').
  const told = answer || !param?.description ? undefined : new Set(textTerms(param.description));
  const described = (path: string): number => {
    if (!told || parentOf(path) !== parent) return 0;
    const terms = nameTerms(leafOf(path));
    return terms.length > 0 && terms.every((t) => told.has(t)) ? e.describedField : 0;
  };
  const fedAlike = answer ? new Set<string>() : alikeFeeds(ctx, call, arg, label);
  // The answer's keys for the producer or for this call may spell one of the producer's fields
  // (`total_sales = $var1$`): that is the field meant among others matched alike.
  // Top-level fields only, for a top-level broken one (a key names a result, not a part of one).
  const keys = answer || /[.[]/.test(norm) ? [] : answerKeys(ctx, [label, knownLabel(ctx, call)]);
  // In the answer step the key itself names the result it shows (`names = $var2.result$` on the related
  // artists: their `name`), among the fields beside the broken one.
  const ownKey = (path: string) =>
    answer && parentOf(path) === parent && spells(arg, leafOf(path)) ? e.keyedField : 0;
  const keyed = (path: string) =>
    Math.max(!/[.[]/.test(path) && keys.some((key) => spells(key, path)) ? e.keyedField : 0, ownKey(path));
  // Calls of one API offer the same fields again: each path is judged once per reference.
  const judged = new Map<string, { m: number; spelling: number }>();
  const match = (path: string): { m: number; spelling: number } => {
    let known = judged.get(path);
    if (!known) judged.set(path, (known = judge(path)));
    return known;
  };
  // Paths of the same words in another spelling count as one; each path's words are split once.
  const keyOf = wordKeys();
  const judge = (path: string): { m: number; spelling: number } => {
    if (path === norm) return { m: 1, spelling: 1 };
    // The broken field's words as a path (`company.name` for `company_name`): a spelling of it.
    if (keyOf(path) === keyOf(norm)) return { m: e.sameLeaf, spelling: e.sameLeaf };
    if (fedAlike.has(path)) return { m: e.alikeFeed, spelling: e.alikeFeed };
    const depth = e.depthPenalty * pathDepth(path);
    const other = leafOf(path);
    const sibling = parent !== '' && parentOf(path) === parent ? similarity(path, norm) : 0;
    // A generic name (`result`) is no spelling of another (`results` is a list, not the result meant).
    const spelt =
      other === leaf ? (generic ? e.genericLeaf : e.sameLeaf) : generic ? 0 : similarity(other, leaf);
    const spelling = Math.max(spelt, shortened(other), sibling) - depth;
    const m = Math.max(spelling, toParam(other) - depth, keyed(path));
    // Described or not, the names still count: of two fields the description uses, the one named alike.
    return { m: 1 - (1 - m) * (1 - described(path)), spelling };
  };
  // A field of another name must be able to feed the parameter (a misspelt field is judged by name alone,
  // unless types are strict: the repair would not validate).
  const fits = (type: ValueType, spelling: number) =>
    !param ||
    (ctx.options.strictTypes
      ? typesCompatible(type, param.type)
      : spelling >= min || typesCanMatch(type, param.type));
  // A memory item's label is no made-up one: its item exists.
  const orphan = !ctx.steps.some((s) => s.label === label) && !ctx.inMemory(label);
  // A label only strangers can stand for moves as an orphan's may (see `strangeDeleted`).
  const restorable = ctx.restorable.has(label) && !ctx.strangeDeleted.has(label);
  const feeds = siblingFeeds(ctx, call.origin);
  // Moving to another label: free for a label no step defines (a misspelt one) or for a reference that
  // resolves as written (it moves only because its producer goes, in optimal mode); half a unit of
  // dissimilarity when the label exists and the field is broken (the label was right, the field wrong).
  const broken = call.origin < 0 || ctx.broken(call.origin, { label, path: refPath, raw: '' });
  // In the answer step a key names a result of that very call: moving it elsewhere costs more.
  const labelCost: Features =
    orphan || !broken ? NO_FEATURES : answer ? { reassignOtherLabelInAnswer: 1 } : { reassignOtherLabel: 1 };
  const otherTie = (to: string): Features => ({
    ...MOVE_AFFINITY[affinity(arg, to, feeds)],
    moveLabel: 1,
    moveLabelName: tieDistance(label, to),
  });
  // A whole output (`$var3$`) is re-pointed only when its label is made up, and never at an output the
  // same step already uses whole (an answer would list it twice).
  const usedWhole = new Set(
    call.origin >= 0
      ? ctx.refs[call.origin].filter((r) => r.ref.path.length === 0).map((r) => r.ref.label)
      : [],
  );
  const found: Found[] = [];
  // An answer that reads a made-up field of a right call keeps reading that call (dropping it costs
  // `dropResult`): any of its fields will do, the likelier first. A field some API does output names
  // that API's call instead (it may be inserted), unless the answer's key names the call it reads
  // (`related_artists = $var2.result$` on the related-artists list: no balance sheet for its `result`).
  const madeUp = ctx.index.producersOf(leaf).length === 0;
  const named = (j: Call) => j.apis.some((c) => c.api && nameCoverage(arg, c.api) >= e.keyNamesCall);
  // The label exists: a step of the input has it, or it is the deleted step put back (not another call
  // that would take it).
  const restores = (j?: Call) => j !== undefined && j.kind === 'inserted' && j.restores === label;
  const floor = (sameLabel: boolean, j?: Call) =>
    sameLabel && broken && (answer ? madeUp || (j !== undefined && named(j)) : !orphan || restores(j))
      ? 0
      : min;
  const consider = (
    at: Found & { m: number; spelling: number; sameLabel: boolean; type: ValueType; via?: number },
    j?: Call,
  ) => {
    if (at.m < floor(at.sameLabel, j) || !fits(at.type, at.spelling)) return;
    if (restorable && !at.sameLabel && at.path !== norm && keyOf(at.path) !== keyOf(norm)) return;
    // A reference that resolves as written moves only with its producer (optimal mode, a label taken by
    // another call): to the same field elsewhere, never to another field.
    if (!broken && leafOf(at.path) !== leaf) return;
    found.push({
      features: at.features,
      cost: at.cost,
      call: at.call,
      memoryLabel: at.memoryLabel,
      path: at.path,
      via: at.via,
      own: at.sameLabel && !orphan,
    });
  };
  // The fields of `from` (an earlier call, or a memory item seen as one) that may stand for the broken one:
  // read under the label `from` is known by, or (`via`) under the broken label itself, on condition that the
  // call takes it (a slipped label put back).
  const scan = (from: Scanned, other: string, sameLabel: boolean, via: number | undefined) => {
    const j = from.call;
    // Any field of the same label, or of a label close to a made-up one (`var20` ~ `var2`) unless the
    // made-up label stands for a deleted step; elsewhere only the broken leaf, the parameter's name and
    // the names mapped onto it are looked up: a wider search stays cheap.
    // A deleted step's reference moves only to a call that could have been that step: the same field of an
    // order placed is no shipment's id.
    const standsIn = j ? ofStandIn(ctx, label, j) : from.apis.some((a) => ofStandInApi(ctx, label, a));
    if (restorable && !sameLabel && !standsIn) return;
    const counted =
      !restorable || sameLabel
        ? NO_FEATURES
        : j
          ? countedBeforeCost(ctx, label, j, call)
          : itemCountedBeforeCost(ctx, label, from.memoryLabel!, call);
    const fuzzy = sameLabel || (orphan && !restorable && tieDistance(label, other) <= ctx.bounds.labelFuzz);
    const base = j ? REASSIGN : MEMORY;
    const seen = new Set<string>();
    for (const api of from.apis) {
      const fields = outputsByLeaf(api);
      const names = fuzzy ? [...fields.keys()] : [leaf, arg, ...mapped.keys()];
      const inContext = ctx.contextFields(param ?? arg, api);
      const contextScore = new Map(inContext.map((c) => [c.field.path, c.score]));
      // Elsewhere a field of the same words counts as the broken one (`invoiceNumber` for `invoice_number`).
      const spelledAlike =
        fuzzy || fields.has(leaf)
          ? []
          : (leavesByWords(api).get(keyOf(leaf)) ?? []).filter((n) => n !== leaf);
      const candidates = [
        ...names.flatMap((name) => fields.get(name) ?? []),
        ...spelledAlike.flatMap((name) => fields.get(name) ?? []),
        ...(fuzzy ? [] : inContext.map((c) => c.field)),
      ];
      // The label is right and only the field is wrong: when the producer has one field that can feed the
      // parameter, that is the field meant, whatever the name written (`$var1.result$`).
      const sole = sameLabel && broken ? soleField(api, param, generic) : undefined;
      for (const f of candidates) {
        if (seen.has(f.path) || (sameLabel && f.path === norm)) continue; // that is a keep
        seen.add(f.path);
        const { m: byName, spelling } = match(f.path);
        const depth = e.depthPenalty * pathDepth(f.path);
        // Among fields that match alike, one that stands for the parameter in context comes first.
        const context = contextScore.get(f.path) ?? 0;
        const m = Math.max(byName, context - depth, f === sole ? e.soleField : 0) + e.contextBonus * context;
        // A planned call that repeats an executed one: its result in memory is the very output referenced.
        const features = sameLabel
          ? plus(base, { dissimilarity: 1 - m, closeMatch: 1 - m })
          : from.memoryLabel !== undefined && from.memoryLabel === reused && f.path === norm
            ? REUSE
            : plus(plus(plus(plus(base, labelCost), { dissimilarity: 1 - m }), otherTie(other)), counted);
        const cost = ctx.price(features);
        const path =
          trailing.length > 0 && f.type === 'array' ? `${f.path}${'[]'.repeat(trailing.length)}` : f.path;
        const type = path === f.path ? f.type : 'any';
        const at = { features, cost, call: j?.id ?? null, memoryLabel: from.memoryLabel, path, via };
        consider({ ...at, m, spelling: f === sole ? 1 : spelling, sameLabel, type }, j ?? undefined);
      }
    }
  };
  const reused = reusedLabel(ctx, label);
  for (const j of earlier) {
    const other = knownLabel(ctx, j);
    if (norm === '') {
      // Never the whole output of a call inserted only to produce a value (a guess on a guess); a deleted step
      // put back on its fields' evidence may take it, at `reassignRestoredWhole`.
      if (!orphan || other === label || usedWhole.has(other)) continue;
      if (j.kind === 'inserted' && j.restores === undefined) continue;
      // An answer key that an API's name covers whole (`flights`) names the deleted step: its `$var5$`
      // does not move to an airport search. Unless the key names the call too and its output is one nothing
      // reads, nor the named step would (`ticket_details = $var8$` beside a bought ticket nobody reads: the
      // answer's label mistyped, where in a large catalog some API's name covers any key), at
      // `reassignNamedDeletedUnread`.
      const otherKind = namedDeleted(ctx, label) && !standsFor(ctx, label, j);
      const mistyped = answer && named(j) && unreadStep(ctx, j) && !feedsNamedStep(ctx, label, j);
      if (otherKind && !mistyped) continue;
      const features = plus(
        plus(REASSIGN, otherTie(other)),
        j.kind === 'inserted'
          ? { reassignRestoredWhole: 1 }
          : otherKind
            ? { reassignNamedDeletedUnread: 1 }
            : NO_FEATURES,
      );
      found.push({ features, cost: ctx.price(features), call: j.id, path: '' });
      continue;
    }
    scan({ apis: callApis(j), call: j }, other, other === label, undefined);
    // The answer may show the call's whole output where it named a field the call does not have
    // (`cancel_ab_test = $var2.data$`): the call was right, the field a guess.
    if (answer && other === label && broken) {
      const features: Features = { reassign: 1, answerWhole: 1, answerWholeSpecific: generic ? 0 : 1 };
      found.push({ features, cost: ctx.price(features), call: j.id, path: '', own: !orphan });
    }
    const via = other === label ? undefined : j.labels.find((l) => l.label === label)?.v;
    if (via !== undefined) scan({ apis: callApis(j), call: j }, other, true, via);
  }
  for (const [item, value] of Object.entries(ctx.memory)) {
    if (norm === '') {
      // A whole item stands for a value only when it can be one (no `{skyId: …}` object for a date).
      const fits = !param || value === null || fitsType(value as Json, param.type);
      if (!(item !== label && orphan && fits) || usedWhole.has(item)) continue;
      // As for a call: a deleted step that the answer's key names is not an item of another API.
      if (namedDeleted(ctx, label) && !ofStandInApi(ctx, label, memoryApi(ctx, item))) continue;
      const features = plus(MEMORY, otherTie(item));
      found.push({ features, cost: ctx.price(features), call: null, memoryLabel: item, path: '' });
      continue;
    }
    scan({ apis: [memoryApi(ctx, item)], call: null, memoryLabel: item }, item, item === label, undefined);
  }
  const bounds = ctx.bounds;
  return boundOptions(found, bounds.reassignPerReference, bounds.reassignOwnLabel).map((f) => {
    // `[]` in a normalised path reads the first element (`movies[]` -> `movies[0]`).
    const path = segments(f.path);
    const v = ctx.variable(f.features);
    if (f.call !== null) {
      const j = ctx.calls[f.call];
      ctx.builder.atMost([v], ctx.provides(j, path));
      ctx.builder.atMost([v], f.via === undefined ? ctx.labelled(j) : [f.via]);
    } else ctx.unshadowed(v, f.memoryLabel!, call.pos);
    return { kind: 'reassign', v, cost: f.cost, call: f.call, memoryLabel: f.memoryLabel, path, via: f.via };
  });
}
