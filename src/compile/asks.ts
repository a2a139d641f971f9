/**
 * What asking costs, and asks shared by their consumers. Asking a person for a value is priced by what a
 * person can know: a value that some catalog API outputs (an opaque id, or anything the plan itself took
 * from an output) also costs what inserting that API with its inputs asked would cost, so the call goes in
 * rather than the question. A missing value that several references name is asked once, for all of them;
 * so is a parameter that calls of different APIs all lack (a loan's rate, asked once for the payment and
 * the interest).
 */
import type { ApiSpec, ParamSpec } from '../model/types.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { normalisePath } from '../read/references.ts';
import { namesAnId } from '../catalog/names.ts';
import type { CompileContext } from './context.ts';
import type { SlotAsk } from './plan.ts';
import { producers, requiredInputs } from './producers.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';

/**
 * The extra features of asking for `name` (none when no catalog API produces it): `askProduced`, valued at
 * the cheapest insertion of a producer with every required input asked.
 */
export function askPremium(ctx: CompileContext, name: string): Features {
  // Without inserted calls there is nothing cheaper to prefer to the question.
  if (ctx.options.allowInsert === false) return NO_FEATURES;
  let known = ctx.premiums.get(name);
  if (known === undefined) {
    known = insertionPremium(ctx, producers(ctx, name), name);
    ctx.premiums.set(name, known);
  }
  return known;
}

/**
 * `askProduced`, valued at the cheapest insertion of one of `apis` with every input asked (none: no API);
 * when only strangers produce it (APIs that share no content word with the plan or with `name`),
 * `askProducedStranger` instead: in a large catalog some API outputs nearly any name.
 */
function insertionPremium(ctx: CompileContext, apis: readonly ApiSpec[], name: string): Features {
  let related = Infinity;
  let strangers = Infinity;
  const needWords = ctx.contentWords(name);
  // The price of an insertion by how many inputs it requires (a large catalog has hundreds of producers).
  const prices = new Map<number, number>();
  // Whether an API the plan itself calls produces it (a second place search for a route's other end), or a
  // related API that could be a deleted step the plan reads it from (the provider search whose doctor the
  // booking reads under a lost label).
  let own = false;
  const lost = lostStandIns(ctx, name);
  for (const api of apis) {
    const inputs = requiredInputs(api);
    let price = prices.get(inputs);
    if (price === undefined)
      prices.set(inputs, (price = ctx.price({ insertCall: 1, perCall: 1, slotFill: inputs })));
    // An API the plan calls is related to it.
    const mine = ctx.callsApi(api.name);
    own ||= mine || (lost.has(api.name) && ctx.relatedTo(api, needWords));
    // An insertion no cheaper than both found so far changes neither: its relatedness need not be read.
    if (price >= related && price >= strangers) continue;
    if (mine || ctx.relatedTo(api, needWords)) related = Math.min(related, price);
    else strangers = Math.min(strangers, price);
  }
  if (related === Infinity && strangers === Infinity) return NO_FEATURES;
  // Only strangers produce it: their premium, in any plan.
  if (related === Infinity) return { askProducedStranger: strangers };
  // A plan that types other identifiers in may type this one in too.
  if (namesAnId(name) && ctx.givesIds(name)) return { askProducedGivenIds: Math.min(related, strangers) };
  // In a plan of unrelated requests the premium is its own feature: the evidence of a flow is weaker there.
  if (ctx.incoherent()) return { askProducedIncoherent: Math.min(related, strangers) };
  // A cheaper stranger is no evidence against a producer the plan itself calls.
  if (related <= strangers || own) return { askProduced: related };
  return { askProducedStranger: strangers };
}

/** The APIs that could stand for a deleted step whose output the plan reads under `name`. */
function lostStandIns(ctx: CompileContext, name: string): Set<string> {
  const out = new Set<string>();
  for (const step of ctx.deleted.values()) {
    const { paths, feeds } = step.uses;
    const reads =
      paths.some((path) => leafOf(normalisePath(path)) === name) || feeds.some((f) => f.param === name);
    if (reads) for (const standIn of step.standIns) out.add(standIn.api.name);
  }
  return out;
}

/**
 * The features of asking for declared parameter `p`: as `askCost`, or, when its description names the
 * entity it stands for and a call of the sequence is of an API that outputs that entity's identifier
 * ("Which stock (first)." next to `Search_Stock`), `slotFill` plus the premium of inserting that API: a
 * person names a company, not a stock's identifier.
 */
export function askParamCost(ctx: CompileContext, p: ParamSpec, fromOutputs: readonly string[]): Features {
  const cost = askCost(ctx, p.name, fromOutputs);
  if (ctx.options.allowInsert === false) return cost;
  // Only where the plan itself looks such identifiers up: a call of the plan (an executed one included) is
  // one of those APIs.
  const apis = ctx.describedProducers(p).filter((api) => ctx.callsApi(api.name));
  if (apis.length === 0) return cost;
  const key = `\u0000described\u0000${apis.map((a) => a.name).join('\u0000')}`;
  let premium = ctx.premiums.get(key);
  if (premium === undefined) {
    premium = insertionPremium(
      ctx,
      apis.filter((api) => !ctx.allowed || ctx.allowed(api)),
      p.name,
    );
    ctx.premiums.set(key, premium);
  }
  const described = plus({ slotFill: 1 }, premium);
  return ctx.price(described) > ctx.price(cost) ? described : cost;
}

/**
 * The features of asking for parameter `param`: `slotFill`, plus the premium when a person cannot know the
 * value: it names an id, or the plan took it from an output (the fields `fromOutputs` it referenced), and
 * some API produces it (or those fields): the dearest premium of those names.
 */
export function askCost(ctx: CompileContext, param: string, fromOutputs: readonly string[] = []): Features {
  if (fromOutputs.length === 0 && !namesAnId(param)) return plus(ASK, unnamedPremium(ctx, param));
  return plus(ASK, dearest(ctx, [param, ...fromOutputs]));
}

/**
 * `askProducedUnnamed` for a value whose name names no id: the premium of asking for it, where APIs output
 * it as an identifier under another name (`ref`, "The unique identifier of the city.", for `city_ref`) and
 * one related to the plan (or the value's name) is among them; none where only strangers do. A value made
 * under a name that is no identifier (`name` for `city_name`) is an attribute a person may know.
 */
function unnamedPremium(ctx: CompileContext, param: string): Features {
  const key = `\u0000unnamed\u0000${param}`;
  let known = ctx.premiums.get(key);
  if (known === undefined) {
    const makers = producers(ctx, param, 'identifier');
    const premium = makers.length === 0 ? NO_FEATURES : insertionPremium(ctx, makers, param);
    // The name names no id, so the premium is never askProducedGivenIds.
    const related = premium.askProduced ?? premium.askProducedIncoherent;
    known = related === undefined ? NO_FEATURES : { askProducedUnnamed: related };
    ctx.premiums.set(key, known);
  }
  return known;
}

const ASK: Features = { slotFill: 1 };

/** The dearest premium of asking for any of `names` (none when no API produces any). */
function dearest(ctx: CompileContext, names: readonly string[]): Features {
  let best: Features = NO_FEATURES;
  let price = 0;
  for (const name of names) {
    const premium = askPremium(ctx, name);
    const p = ctx.price(premium);
    if (p > price) [best, price] = [premium, p];
  }
  return best;
}

/** A slot name usable as a label: identifier characters only (`Exchange Rate` -> `Exchange_Rate`). */
function slotName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * The shared ask for the value a reference names (`key`: its label and path), created on first use with
 * the slot name of its first consumer; returns its index in `ctx.asks`. The plan took the value from an
 * output, so the premium applies when an API produces the field or the parameter (`names`).
 */
export function sharedAsk(
  ctx: CompileContext,
  key: string,
  slot: string,
  names: readonly string[],
  label?: string,
): number {
  const known = ctx.askIndex.get(key);
  if (known !== undefined) return known;
  // A placeholder label (`label`) stands for a value a person gives, priced as asking for the parameter.
  const features = label === undefined ? plus(ASK, dearest(ctx, names)) : askCost(ctx, slot);
  const v = ctx.variable(features);
  ctx.asks.push({
    v,
    cost: ctx.price(features),
    slot: slotName(slot),
    uses: [],
    ...(label ? { label } : {}),
  });
  ctx.askIndex.set(key, ctx.asks.length - 1);
  return ctx.asks.length - 1;
}

/** Each shared ask is on exactly when some reference uses it. */
export function askRows(ctx: CompileContext): void {
  for (const ask of ctx.asks) {
    for (const u of ask.uses) ctx.builder.atMost([u], [ask.v]);
    ctx.builder.atMost([ask.v], ask.uses);
  }
}

export function registerSlotAsk(ctx: CompileContext, ask: SlotAsk): void {
  const list = ctx.slotAsks.get(ask.param);
  if (list) list.push(ask);
  else ctx.slotAsks.set(ask.param, [ask]);
}

/**
 * A call may read the answer to an earlier call's ask for a parameter of the same name, when the two call
 * different APIs: one question instead of two. Two such parameters usually hold one value (a loan's rate
 * for its payment and its interest), but not surely, so reading the answer is priced as asking again less
 * a tie-break: it turns two questions into one and never beats a source the sequence has (an output, a
 * mapping, a passed literal). A call that reads another's answer asks nothing itself, so its ask is read by
 * no one (no chains: a chain could hand one value to two calls of the same API), and each reader reads one
 * answer, the nearest earlier one first.
 */
export function slotShareRows(ctx: CompileContext): void {
  // At most this many earlier asks a reader may read (the nearest): the model stays linear in the asks.
  const askers = ctx.bounds.askersPerReader;
  const n = Math.max(ctx.steps.length, 1);
  const readsBy = new Map<number, number[]>(); // reader ask variable -> its share variables
  const pairs: [SlotAsk, SlotAsk][] = [];
  for (const list of ctx.slotAsks.values()) {
    const byPos = [...list].sort((a, b) => a.call.pos - b.call.pos || a.v - b.v);
    byPos.forEach((reader, i) => {
      ctx.checkBudget();
      let found = 0;
      for (let j = i - 1; j >= 0 && found < askers; j--) {
        const asker = byPos[j];
        if (asker.call.pos >= reader.call.pos || asker.api === reader.api) continue;
        pairs.push([asker, reader]);
        found++;
      }
    });
  }
  for (const [asker, reader] of pairs) {
    const features: Features = { askSharedRebate: -(1 - (reader.call.pos - asker.call.pos) / (2 * n)) };
    const rebate = -ctx.price(features);
    if (rebate <= 0 || rebate >= reader.cost) continue;
    const v = ctx.variable(features);
    ctx.slotShares.push({ v, asker: asker.v, reader: reader.v, rebate });
    readsBy.set(reader.v, [...(readsBy.get(reader.v) ?? []), v]);
  }
  for (const [reader, shares] of readsBy) ctx.builder.atMost(shares, [reader]);
  for (const share of ctx.slotShares) {
    ctx.builder.atMost([share.v, ...(readsBy.get(share.asker) ?? [])], [share.asker]);
  }
}
