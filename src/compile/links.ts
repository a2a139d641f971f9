/**
 * Links by evidence: the generous candidates of a required parameter that has no argument. Besides the
 * sources the rest of the model offers (an output of the parameter's own name, a mapping, a name in context,
 * an unread output, a literal passed under the same name, an ask), any field of an earlier call (not inside an array;
 * of any declared type, `linkLooseType` pricing a clash, except under strict types), and any literal the sequence
 * passes to a parameter of another name, may fill it: each priced by its evidence (`linkAny`/`copyAny` plus how
 * unlike the names are, whether they share a word, whether the descriptions do, how common the field is in the
 * catalog, whether the two calls share a content word), so that the weights, not a filter, decide. The cheapest
 * few per parameter are offered (`linksPerParameter`, `copiesPerParameter`). Their variables come after every
 * other one.
 */
import type { ApiSpec, Json, OutputField, ParamSpec } from '../model/types.ts';
import type { Features } from '../model/features.ts';
import { canonicalJson } from '../model/canonical.ts';
import { perObject } from '../model/memo.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import {
  linkEvidence,
  namedOrDescribed,
  otherThanDescribed,
  shareAWord,
  sharesWords,
  WEAK_TYPES,
} from '../catalog/evidence.ts';
import { contentName, payloadName, similarity } from '../catalog/names.ts';
import { typesCompatible, literalMismatch } from '../validate/literals.ts';
import { isLiteral } from '../validate/validate.ts';
import { segments } from '../read/references.ts';
import type { CompileContext } from './context.ts';
import { callApis, type Call, type Source } from './plan.ts';

/**
 * A link with no evidence at all: the names share no word and are not alike (`nameEvidenceSimilarity`), the
 * descriptions share no content word, the declared types are not one and the same type more telling than
 * text (a number from a number is evidence; an integer count written into a number rating, as the scorer's
 * `unsupportedWirings` judges it, is none), the parameter is not one for any content the call acts on (`text`, `message`:
 * a joke may well be a message) and the field is no content itself (`translated_text` may be a sentence to
 * check). `audience = $var2.status$`, `phone = $var2.sentiment$`, `full_name = $var2.converted_distance$`.
 */
function unsupported(
  ctx: CompileContext,
  e: ReturnType<typeof linkEvidence>,
  field: OutputField,
  param: ParamSpec,
): boolean {
  if (namedOrDescribed(e, ctx.evidence.nameEvidenceSimilarity)) return false;
  if (payloadName(param.name) || contentName(leafOf(field.path))) return false;
  return WEAK_TYPES.has(param.type) || field.type !== param.type;
}

/** A field's path as segments (once per field of the catalog). */
const fieldSegments = perObject((field: OutputField) => Object.freeze(segments(field.path)));

/** Per producer call, per consumer call: whether their APIs share a content word (calls die with their plan). */
const domains = new WeakMap<Call, WeakMap<Call, boolean>>();

/**
 * The two calls are of one domain when their APIs share a content word, the catalog's common ones left out
 * (once per pair of calls).
 */
function sameDomain(ctx: CompileContext, producer: Call, consumer: Call): boolean {
  let mine = domains.get(producer);
  if (!mine) domains.set(producer, (mine = new WeakMap()));
  let same = mine.get(consumer);
  if (same === undefined) mine.set(consumer, (same = ofDomain(ctx, callApis(producer), consumer)));
  return same;
}

/** Whether a call of one of `producers` (a call's APIs, or a memory item's: memory.ts) and `consumer` share a domain. */
function ofDomain(ctx: CompileContext, producers: readonly ApiSpec[], consumer: Call): boolean {
  return callApis(consumer).some((a) =>
    producers.some((b) => a.name === b.name || sharesWords(a, ctx.apiWords(b))),
  );
}

/** The evidence features of feeding `param` from `field` of a call of `producer` (also for unread outputs). */
export function linkFeatures(
  ctx: CompileContext,
  field: OutputField,
  param: ParamSpec,
  producer: Call | ApiSpec,
  consumer: Call,
): Features {
  const e = linkEvidence(ctx.index, field, param);
  return {
    linkUnsupported: unsupported(ctx, e, field, param) ? 1 : 0,
    linkNameDissimilarity: e.nameDissimilarity,
    linkNoSharedWord: e.noSharedWord,
    linkNoDescriptionWord: e.noDescriptionWord,
    linkCommonField: e.commonField,
    linkOtherDomain: (
      'apis' in producer ? sameDomain(ctx, producer, consumer) : ofDomain(ctx, [producer], consumer)
    )
      ? 0
      : 1,
    linkLooseType: typesCompatible(field.type, param.type) ? 0 : 1,
    feedOtherThanDescribed: otherThanDescribed(
      ctx.index,
      param,
      'apis' in producer ? callApis(producer) : [producer],
    )
      ? 1
      : 0,
  };
}

/** Output fields of earlier calls that may fill `p` by evidence alone: those `useful` at their cost, cheapest first. */
function outputLinks(
  ctx: CompileContext,
  call: Call,
  p: ParamSpec,
  taken: ReadonlySet<string>,
  useful: (cost: number) => boolean,
) {
  const out: { j: Call; field: OutputField; features: Features; cost: number }[] = [];
  // Weights and these features are never negative: no link costs less than `linkAny` alone. Near-banned by
  // default, a link is then weighed only for the gold-constrained solve (a long plan has tens of thousands).
  if (!useful(ctx.weights.linkAny)) return out;
  const steps = Math.max(ctx.steps.length, 1);
  for (const j of ctx.before(call.pos)) {
    const seen = new Set<string>();
    for (const choice of j.apis) {
      for (const field of choice.api?.outputs ?? []) {
        if (field.path.includes('[') || seen.has(field.path) || leafOf(field.path) === p.name) continue;
        seen.add(field.path);
        if (taken.has(`${j.id}\u0000${field.path}`)) continue;
        if (ctx.options.strictTypes && !typesCompatible(field.type, p.type)) continue;
        const features: Features = {
          linkAny: 1,
          ...linkFeatures(ctx, field, p, j, call),
          closeDistance: Math.max(0, call.pos - j.pos) / steps,
          closeDepth: fieldSegments(field).length - 1,
        };
        const cost = ctx.price(features);
        if (useful(cost)) out.push({ j, field, features, cost });
      }
    }
  }
  return out.sort((a, b) => a.cost - b.cost || a.j.id - b.j.id || (a.field.path < b.field.path ? -1 : 1));
}

/** Literals the sequence passes to parameters of other names that may fill `p`: those `useful`, cheapest first. */
function literalCopies(
  ctx: CompileContext,
  call: Call,
  p: ParamSpec,
  taken: ReadonlySet<string>,
  useful: (cost: number) => boolean,
) {
  const out: { value: Json; step: number; param: string; features: Features; cost: number }[] = [];
  if (!useful(ctx.weights.copyAny)) return out; // no copy costs less than `copyAny` alone, as above
  const seen = new Set<string>();
  const steps = Math.max(ctx.steps.length, 1);
  ctx.steps.forEach((step, k) => {
    if (k === call.origin || ctx.isAnswer(k)) return;
    for (const [q, value] of Object.entries(step.arguments)) {
      if (q === p.name || !isLiteral(value)) continue;
      const key = canonicalJson(value);
      if (seen.has(key) || taken.has(key)) continue;
      seen.add(key);
      const features: Features = {
        copyAny: 1,
        copyNameDissimilarity: 1 - similarity(q, p.name),
        copyNoSharedWord: shareAWord(q, p.name) ? 0 : 1,
        copyMisfit: literalMismatch(value, p) === null ? 0 : 1,
        closeDistance: Math.abs(call.pos - k) / steps,
      };
      const cost = ctx.price(features);
      if (useful(cost)) out.push({ value, step: k, param: q, features, cost });
    }
  });
  return out.sort((a, b) => a.cost - b.cost || a.step - b.step);
}

/** Adds the link and copy candidates of every required parameter without an argument. */
export function linkSources(ctx: CompileContext): void {
  for (const { call, param, sources } of ctx.pendingFills) {
    ctx.checkBudget();
    // A link dearer than asking can never be in an optimum (the ask is always there and frees every row the
    // link is in): it is left out, unless the model must hold every candidate (the gold-constrained solve).
    const ask = sources.find((s) => s.kind === 'ask');
    const everyOne = ctx.options.keepDominated === true;
    const useful = (cost: number) => everyOne || ask === undefined || cost < ask.cost;
    // The bounds keep a repair's model small; the gold-constrained solve holds every link and copy, so that
    // the gold is not missed for a link the weights in force rank below the first few.
    const maxLinks = everyOne ? Infinity : ctx.bounds.linksPerParameter;
    const maxCopies = everyOne ? Infinity : ctx.bounds.copiesPerParameter;
    // The fields other sources already offer, unless only as an unread output: that one holds only where
    // nothing else reads its call (unread.ts), and the link by evidence is how the field feeds the parameter
    // where something does.
    const taken = new Set<string>();
    for (const s of sources) {
      if (s.kind === 'output' && s.unread !== true) taken.add(`${s.call}\u0000${s.path.join('.')}`);
      if (s.kind === 'literal') taken.add(canonicalJson(s.value));
    }
    const links = outputLinks(ctx, call, param, taken, useful).slice(0, maxLinks);
    for (const { j, field, features, cost } of links) {
      const path = fieldSegments(field);
      const v = ctx.variable(features);
      ctx.builder.atMost([v], ctx.provides(j, path));
      ctx.builder.atMost([v], ctx.labelled(j));
      const source: Source = { kind: 'output', v, cost, call: j.id, path, mapped: true, linked: true };
      sources.push(source);
    }
    const copies = literalCopies(ctx, call, param, taken, useful).slice(0, maxCopies);
    for (const { value, step, param: from, features, cost } of copies) {
      sources.push({
        kind: 'literal',
        v: ctx.variable(features),
        cost,
        value,
        fromStep: step,
        copiedFrom: from,
      });
    }
  }
}
