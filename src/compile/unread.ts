/**
 * Unread outputs. A call whose output no other call reads (only the answer, or nothing) and that reads no
 * other call is evidence of a lost data flow: when a later call that reads no other call either has no
 * value for a required parameter, the plan most likely fed it from that output (`send_sms(message=...)`
 * after `get_random_joke()`), even under another name. Such a field may fill the parameter at
 * `unreadOutput`, below an ask, when its declared type is the parameter's (a number from a number, text from
 * text, or from the call's only number; undeclared types give no evidence). The evidence holds only while
 * the flow stays one: the producer is read by nothing else in the repair, and neither call reads another.
 */
import type { ApiSpec, Catalog, OutputField, ParamSpec, PathSegment, ValueType } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { tieDistance } from '../catalog/names.ts';
import { nameTerms, textTerms } from '../catalog/text.ts';
import { segments } from '../read/references.ts';
import { callApis, type Call } from './plan.ts';
import { knownLabel, type CompileContext } from './context.ts';
import { answerKeys, spells } from './answer-keys.ts';
import { genericName, namesAnId, payloadName } from '../catalog/names.ts';
import { nameCoverage, someOutputEndsWith } from '../catalog/name-terms.ts';
import { numberedBefore, ranBefore } from './numbering.ts';
import type { FeatureName, Features } from '../model/features.ts';
import { linkFeatures } from './links.ts';
import { memoryApi, ranCall } from './memory.ts';
import { stepReferences } from '../read/references.ts';

/** A field of an unread call that may fill a parameter, and what that costs. */
export interface UnreadFeed {
  /** The producer: a call, or null for the memory item `item`. */
  readonly call: Call | null;
  readonly item?: string;
  readonly field: OutputField;
  readonly path: readonly PathSegment[];
  readonly features: Features;
  /** The producer is the step right before the restored taker in the label count (see `chainedBefore`). */
  readonly chained: boolean;
}

/** The type family a declared type belongs to (undefined: nothing declared). */
export function family(type: ValueType): string | undefined {
  if (type === 'any') return undefined;
  return type === 'integer' ? 'number' : type;
}

/** The labels that calls read (the answer step aside), and the input steps whose label none reads. */
function readFacts(ctx: CompileContext): NonNullable<CompileContext['unread']> {
  if (ctx.unread) return ctx.unread;
  const read = new Set<string>();
  ctx.steps.forEach((step, i) => {
    if (ctx.isAnswer(i)) return;
    for (const site of ctx.refs[i]) read.add(site.ref.label);
  });
  const steps = new Set<number>();
  ctx.steps.forEach((step, i) => {
    if (step.label !== undefined && !read.has(step.label)) steps.add(i);
  });
  // A memory item that neither a step nor an executed call read: a result the run made and never used.
  const used = new Set(
    (ctx.options.executed ?? []).flatMap((s) => stepReferences(s.arguments)).map((x) => x.ref.label),
  );
  const items = Object.keys(ctx.memory).filter((label) => !read.has(label) && !used.has(label));
  ctx.unread = { read, steps, items };
  return ctx.unread;
}

/**
 * Whether values of this parameter's kind come out of calls in the catalog: some API outputs a field of its
 * name or one that ends in it (`translated_text` for `text`, `converted_amount` for `amount`). A phone
 * number or a tax rate that no API outputs is the user's.
 */
function outputKind(catalog: Catalog, name: string): boolean {
  const words = nameTerms(name);
  return words.length > 0 && someOutputEndsWith(catalog, words.join(' '));
}

/**
 * Whether `call` may take an unread output: a call of the input, or a restored step that only the answer
 * reads (the end of a chain whose link was lost). A restored step that feeds another call stands at the
 * start of that flow: its inputs are the user's values.
 */
export function takesUnread(ctx: CompileContext, call: Call): boolean {
  if (call.kind === 'result') return false;
  if (call.kind !== 'inserted') return true;
  return call.restores !== undefined && !readFacts(ctx).read.has(call.restores);
}

/**
 * Whether `j` is a call whose output no other call reads: an input step that no step reads (the answer
 * aside), or a restored step that only the answer reads (`joke: $var3$` with `get_random_joke` back under
 * var3): the lost flow may run from it.
 */
function unreadProducer(ctx: CompileContext, j: Call): boolean {
  const facts = readFacts(ctx);
  if (j.kind === 'inserted') return j.restores !== undefined && !facts.read.has(j.restores);
  return j.origin >= 0 && j.kind !== 'result' && facts.steps.has(j.origin);
}

/** The calls that stand for the same producer as `j`: its moved copy, or the other stand-ins of its label. */
function sameProducer(j: Call): (c: Call) => boolean {
  return j.kind === 'inserted' ? (c) => c.restores === j.restores : (c) => c.origin === j.origin;
}

/**
 * Fields of earlier unread calls that may fill `p` of `call` (which has no argument for it): of the
 * parameter's declared type, named otherwise (a field of its own name is a `reassign` already), nearest
 * call first. Not for ids: an identifier comes from the API that outputs it.
 */
export function unreadFeeds(ctx: CompileContext, call: Call, p: ParamSpec): UnreadFeed[] {
  // Asked twice per parameter (by its literal sources, then by `unreadSources`), with the calls laid out.
  let memo = feedMemos.get(ctx);
  if (!memo) feedMemos.set(ctx, (memo = new Map()));
  const key = `${call.id}\u0000${p.name}`;
  let feeds = memo.get(key);
  if (!feeds) memo.set(key, (feeds = computeFeeds(ctx, call, p)));
  return feeds;
}

/** The feeds of one model, by call and parameter. */
const feedMemos = new WeakMap<CompileContext, Map<string, UnreadFeed[]>>();

/**
 * For a restored step that only the answer reads: the input step numbered right before it (`var2` for a
 * deleted `var3`), when only the answer reads that one either; else the executed call so numbered, when
 * nothing reads its result in memory (its label). The chain ran from it into the lost step,
 * whatever else it reads and whatever the kind of value.
 */
function chainedBefore(ctx: CompileContext, call: Call): Chain | undefined {
  if (call.kind !== 'inserted' || call.restores === undefined) return undefined;
  const facts = readFacts(ctx);
  const i = numberedBefore(ctx, call.restores);
  if (i !== undefined) {
    if (!facts.steps.has(i)) return undefined;
    // A step that repeats an executed call whose result memory holds may go: the chain runs from either.
    const item = ctx.repeats.get(i);
    return { step: i, ...(item !== undefined && facts.items.includes(item) ? { item } : {}) };
  }
  // Or the executed call numbered right before it, whose result in memory nothing reads (its label).
  const item = ranBefore(ctx, call.restores);
  return item !== undefined && facts.items.includes(item) ? { item } : undefined;
}

/** Where a lost step's chain runs from: an input step, a memory item, or both (a repeat and its result). */
interface Chain {
  readonly step?: number;
  readonly item?: string;
}

/**
 * Where `p` stands among `api`'s parameters as the object of what it does: parameters whose head word the
 * API's name and description mention come first, in the order mentioned (`Send an SMS message to a phone
 * number`: the message, then the number), then the rest in declared order. The chain into a restored step
 * feeds its first such parameter of the field's type.
 */
function objectRank(api: ApiSpec, p: ParamSpec): number {
  const terms = [...nameTerms(api.name), ...textTerms(api.description)];
  const at = (q: ParamSpec) => {
    const head = nameTerms(q.name).at(-1);
    const k = head === undefined ? -1 : terms.indexOf(head);
    return k < 0 ? terms.length : k;
  };
  const own = at(p);
  const index = api.params.indexOf(p);
  return api.params.filter((q, k) => {
    const other = at(q);
    return other < own || (other === own && k < index);
  }).length;
}

/** The classes of an unread feed in a plan of unrelated requests, each a feature of its own. */
export type IncoherentFeed =
  | 'unreadIncoherent'
  | 'unreadIncoherentPayload'
  | 'unreadIncoherentHeadline'
  | 'unreadIncoherentKeyed'
  | 'unreadIncoherentGeneric';

/**
 * How an unread field feeds parameter `param` in a plan of unrelated requests (none in any other plan): the
 * evidence of a flow it has, the first that holds of: the parameter takes content to act on (`text`,
 * `message`), the field is its API's headline result (the API's name covers `headlineCoverage` of its words:
 * `gross_salary` of calculate_gross_salary), an answer key names it (`keyed`), the field's name is a generic
 * one (`data`, `result`); `unreadIncoherent` when none does: a plan of independent calls lost a value the
 * user gives. Each class is a feature of its own, so the weights say how much each evidence is worth.
 */
function incoherentFeed(
  ctx: CompileContext,
  api: ApiSpec | null,
  field: string,
  param: string,
  keyed: boolean,
): IncoherentFeed | undefined {
  if (!ctx.incoherent()) return undefined;
  if (payloadName(param)) return 'unreadIncoherentPayload';
  if (api && headlineResult(ctx, field, api)) return 'unreadIncoherentHeadline';
  if (keyed) return 'unreadIncoherentKeyed';
  if (genericName(field)) return 'unreadIncoherentGeneric';
  return 'unreadIncoherent';
}

/**
 * Whether `field` (a leaf) is `api`'s headline result, what the call is made for: the API's name covers
 * `headlineCoverage` of its words (`gross_salary` of calculate_gross_salary, `distance` of calculate_distance).
 */
export function headlineResult(ctx: CompileContext, field: string, api: ApiSpec): boolean {
  return nameCoverage(field, api) >= ctx.evidence.headlineCoverage;
}

/** A call or memory item whose output nothing reads, with what `computeFeeds` asks of it. */
interface Producer {
  readonly call: Call | null;
  readonly item?: string;
  readonly label: string;
  readonly apis: readonly ApiSpec[];
  /** The producer was given a value for the parameter (see `computeFeeds`). */
  readonly given: boolean;
  /** Steps from the producer to the taker, over the plan's length. */
  readonly distance: number;
}

function computeFeeds(ctx: CompileContext, call: Call, p: ParamSpec): UnreadFeed[] {
  const wanted = family(p.type);
  // A choice among fixed values (an enum) is the user's, not a flow.
  if (wanted === undefined || namesAnId(p.name) || (p.enum?.length ?? 0) > 0 || !takesUnread(ctx, call))
    return [];
  const chain = chainedBefore(ctx, call);
  // A restored call's inputs are the user's values unless values of their kind come out of calls, or the
  // step it ran after is unread.
  const ofCalls = call.kind !== 'inserted' || outputKind(ctx.catalog, p.name);
  const own = call.apis.find((c) => c.api?.params.includes(p))?.api;
  const rank = chain !== undefined && own ? objectRank(own, p) : 0;
  const out: UnreadFeed[] = [];
  const steps = Math.max(ctx.steps.length, 1);
  const producers: Producer[] = ctx.before(call.pos).flatMap((j) =>
    unreadProducer(ctx, j)
      ? [
          {
            call: j,
            label: knownLabel(ctx, j),
            apis: callApis(j),
            given:
              j.origin >= 0 && Object.prototype.hasOwnProperty.call(ctx.steps[j.origin].arguments, p.name),
            distance: (call.pos - j.pos) / steps,
          },
        ]
      : [],
  );
  // Memory items are results of calls made before any step (memory.ts: each seen as its call's output).
  for (const item of readFacts(ctx).items)
    producers.push({
      call: null,
      item,
      label: item,
      apis: [memoryApi(ctx, item)],
      given: Object.prototype.hasOwnProperty.call(ranCall(ctx, item)?.step.arguments ?? {}, p.name),
      distance: (call.pos + 1) / steps,
    });
  for (const { call: j, item, label, apis, given, distance } of producers) {
    // The answer's keys for either call may name one of the producer's fields (`total_sales = $var1$`):
    // that one before its others.
    const keys = answerKeys(ctx, [label, knownLabel(ctx, call)]);
    const chained = chain !== undefined && (j !== null ? j.origin === chain.step : item === chain.item);
    if (!ofCalls && !chained) continue;
    const seen = new Set<string>();
    // A call that takes a value of the parameter's name but was given none lacks the same value: the two
    // share the user's answer, no flow runs between them (a loan's rate does not come out of the loan's
    // payment). One given that value may have turned it into the output the later call lost (the
    // sentiment of a text, for a translation's text).
    for (const api of apis) {
      if (!given && api.params.some((q) => q.name === p.name)) continue;
      const fields = (api.outputs ?? []).filter(
        (f) => !/[.[]/.test(f.path) && leafOf(f.path) !== p.name && !namesAnId(f.path),
      );
      const same = fields.filter((f) => family(f.type) === wanted);
      // Text may also be written from a call's only number (`data` from a BMI) or its only list (the
      // headlines, for a sentiment's text) when it outputs no text.
      const numbers = fields.filter((f) => family(f.type) === 'number');
      const lists = fields.filter((f) => f.type === 'array');
      const loose = numbers.length === 1 ? numbers : numbers.length === 0 && lists.length === 1 ? lists : [];
      // Never from a call of the same API (one search's results are not the next search's query).
      const sameApi = call.apis.some((c) => c.api !== null && c.api.name === api.name);
      const fits =
        same.length > 0 || wanted !== 'string' || call.kind === 'inserted' || sameApi ? same : loose;
      // Top-level fields only (an item of a list, a part of an object, is a guess), no ids (an id feeds the
      // parameters that name it), and among many fields of the type, which one was the source is a guess.
      if (fits.length > ctx.bounds.unreadFieldsPerCall) continue;
      const named = fits.filter((f) => keys.some((key) => spells(key, leafOf(f.path))));
      for (const field of fits) {
        const leaf = leafOf(field.path);
        if (seen.has(field.path)) continue;
        seen.add(field.path);
        const path = segments(field.path);
        const features: Partial<Record<FeatureName, number>> = {
          unreadOutput: 1,
          closeDistance: distance,
          closeDepth: path.length - 1,
          unreadFieldName: tieDistance(p.name, leaf),
          unreadObjectRank: chained ? rank : 0,
          unreadUnkeyed: named.length > 0 && !named.includes(field) ? 1 : 0,
          ...linkFeatures(ctx, field, p, j ?? api, call),
        };
        const incoherent = incoherentFeed(ctx, api, leaf, p.name, named.includes(field));
        if (incoherent) features[incoherent] = 1;
        out.push({ call: j, ...(item !== undefined ? { item } : {}), field, path, features, chained });
      }
    }
  }
  return out;
}

/**
 * Adds the unread-output sources of every required parameter without an argument, then the rows that make
 * each such parameter take exactly one source. Their variables come after every other one, so that the
 * rest of the model (and its last tie-break, by variable index) is the same with or without them.
 */
export function unreadSources(ctx: CompileContext): void {
  for (const { call, choice, param, sources } of ctx.pendingFills) {
    const stranger = intoStranger(ctx, call, choice);
    for (const feed of unreadFeeds(ctx, call, param)) {
      const { call: j, item, path, chained } = feed;
      const features = stranger ? { ...feed.features, unreadIntoStranger: 1 } : feed.features;
      const v = ctx.variable(features);
      const cost = ctx.price(features);
      if (j === null) {
        ctx.unshadowed(v, item!, call.pos);
        ctx.unreadFeeds.push({ v, from: () => false, item, by: -1, to: call.id, chained });
        sources.push({ kind: 'memory', v, cost, label: item!, path, mapped: true, unread: true });
        continue;
      }
      ctx.builder.atMost([v], ctx.provides(j, path));
      ctx.builder.atMost([v], ctx.labelled(j));
      ctx.unreadFeeds.push({ v, from: sameProducer(j), by: j.id, to: call.id, chained });
      sources.push({ kind: 'output', v, cost, call: j.id, path, mapped: true, unread: true });
    }
  }
}

/**
 * Whether `call` is a deleted step put back as an API unrelated to the plan and to what its uses read: the
 * `insertUnrelated` its API choice pays (restore.ts) is not 0. The end of a lost chain is the plan's own call,
 * and a stranger's input fed from an unread output is a guess on a guess.
 */
function intoStranger(ctx: CompileContext, call: Call, choice: number): boolean {
  return call.restores !== undefined && (ctx.features[choice].insertUnrelated ?? 0) > 0;
}

/** Each required parameter without an argument takes exactly one source, and the unread-output rows. */
export function pendingRows(ctx: CompileContext): void {
  for (const { choice, sources } of ctx.pendingFills)
    ctx.builder.equal(
      sources.map((s) => s.v),
      [choice],
    );
  unreadRows(ctx);
}

/**
 * The variables under which `call` reads an output (of any call, or of the calls `from` accepts only), and
 * memory item `item`.
 */
function readers(call: Call, calls: readonly Call[], from?: (c: Call) => boolean, item?: string): number[] {
  const of = (id: number | null) => id !== null && (from === undefined || from(calls[id]));
  const out: number[] = [];
  for (const p of call.params)
    for (const s of p.sources)
      if ((s.kind === 'output' && of(s.call)) || (s.kind === 'memory' && s.label === item)) out.push(s.v);
  for (const t of call.tokens)
    for (const o of t.options)
      if (
        ((o.kind === 'keep' || o.kind === 'reassign') && of(o.call)) ||
        (o.kind === 'reassign' && item !== undefined && o.memoryLabel === item)
      )
        out.push(o.v);
  return out;
}

/**
 * An unread output is the lost source of one value: the call that gives it that way is read by nothing
 * else in the repair (the answer aside), and neither it nor the call that takes it reads another call.
 */
function unreadRows(ctx: CompileContext): void {
  for (const { v, from, item, by, to, chained } of ctx.unreadFeeds) {
    for (const call of ctx.calls) {
      if (call.kind === 'result') continue;
      for (const r of readers(call, ctx.calls, from, item)) if (r !== v) ctx.builder.atMost([v, r], 1);
    }
    for (const r of readers(ctx.calls[to], ctx.calls)) if (r !== v) ctx.builder.atMost([v, r], 1);
    // A memory item reads nothing.
    if (!chained && by >= 0) for (const r of readers(ctx.calls[by], ctx.calls)) ctx.builder.atMost([v, r], 1);
  }
}
