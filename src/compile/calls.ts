/**
 * The calls of a model: original steps (kept, renamed or deleted), moved copies of steps whose output is
 * used too early, and the answer pseudo-step; their label choices and rows (inserted candidates: inserted.ts).
 */
import type { ApiSpec, Json, ParamSpec, Step } from '../model/types.ts';
import { NO_FEATURES, plus, type Features } from '../model/features.ts';
import { canonicalJson } from '../model/canonical.ts';
import { leafOf } from '../catalog/catalog-index.ts';
import { similarity, tieDistance } from '../catalog/names.ts';
import type { CompileContext } from './context.ts';
import { countedEarlier, inCount, numberedBelow } from './numbering.ts';
import type { ApiChoice, Call, LabelChoice } from './plan.ts';

/** Labels referenced anywhere, labels produced by steps, and orphans (referenced, produced by nothing). */
export function labelFacts(ctx: CompileContext): { produced: Set<string>; orphans: string[] } {
  const produced = new Set<string>();
  ctx.steps.forEach((s) => s.label !== undefined && produced.add(s.label));
  const orphans: string[] = [];
  for (const refs of ctx.refs) {
    for (const site of refs) {
      const l = site.ref.label;
      if (!produced.has(l) && !ctx.inMemory(l) && !orphans.includes(l)) {
        orphans.push(l);
      }
    }
  }
  return { produced, orphans };
}

/**
 * API choices for an original step: itself when known, otherwise similar catalog names; `also` are features
 * every choice adds (a moved copy's `moveStep`).
 */
function apiChoices(ctx: CompileContext, step: Step, also: Features = NO_FEATURES): ApiChoice[] {
  const known = ctx.index.byName.get(step.name);
  if (known) return [apiChoice(ctx, known, plus({ perCall: 1 }, also))];
  const candidates = ctx.index
    .similarApis(step.name, ctx.cost.apiCandidates)
    .filter((c) => c.similarity >= ctx.cost.minSimilarity && (!ctx.allowed || ctx.allowed(c.api)));
  // A made-up name whose arguments an API takes, every one: that API is a candidate however unlike its name,
  // when no similar name takes them all already (a misspelt name keeps its arguments as it is).
  const named = new Set(candidates.map((c) => c.api));
  const takers = ctx.index.apisTaking(Object.keys(step.arguments));
  const covered = takers.length > ctx.bounds.argumentTakers || takers.some((api) => named.has(api));
  const fitting = (covered ? [] : takers)
    .filter((api) => !named.has(api) && (!ctx.allowed || ctx.allowed(api)))
    .map((api) => ({ api, similarity: similarity(step.name, api.name) }))
    .sort((a, b) => b.similarity - a.similarity || (a.api.name < b.api.name ? -1 : 1))
    .slice(0, ctx.bounds.apisTakingArguments);
  return [...candidates, ...fitting].map(({ api, similarity: s }) =>
    apiChoice(
      ctx,
      api,
      plus(
        {
          renameApi: 1,
          dissimilarity: 1 - s,
          renameApiSpelling: tieDistance(step.name, api.name),
          perCall: 1,
        },
        also,
      ),
    ),
  );
}

/**
 * A call's choice of `api`, with the features of making that call; `charged` are features its variable also
 * carries but its edit's cost does not show (refunded by other decisions of the call, as `carriedCharge`).
 */
export function apiChoice(
  ctx: CompileContext,
  api: ApiSpec,
  features: Features,
  charged: Features = NO_FEATURES,
): ApiChoice {
  return { api, v: ctx.variable(plus(features, charged)), cost: ctx.price(features) };
}

/** A call's choice of `label`, with the features of that choice (none: the label it had, or one that is free). */
export function labelChoice(ctx: CompileContext, label: string | null, features: Features): LabelChoice {
  return { label, v: ctx.variable(features), cost: ctx.price(features) };
}

export function labelChoices(
  ctx: CompileContext,
  original: string | undefined,
  orphans: readonly string[],
  free: boolean,
  step?: number,
  api?: ApiSpec,
): LabelChoice[] {
  const kind = original === undefined ? 'addLabel' : 'relabel';
  const change: Features = free ? NO_FEATURES : { [kind]: 1 };
  const choices: LabelChoice[] = [];
  if (original !== undefined && (!ctx.held.has(original) || (step !== undefined && ctx.restated.has(step))))
    choices.push(labelChoice(ctx, original, NO_FEATURES));
  for (const l of orphans) {
    if (l === original || (step !== undefined && !fitsDeleted(ctx, step, l, api))) continue;
    choices.push(labelChoice(ctx, l, change));
  }
  choices.push(labelChoice(ctx, null, change));
  return choices;
}

/**
 * Whether a call of `api` may take label `l`: any call may take a made-up label, but one that reads as a
 * deleted step (`ctx.deleted`) only goes to a call of an API that could stand for that step. An order
 * placed does not become the shipment `$var4.id$` was read from: the shipment's tracking comes back.
 */
function fitsDeleted(ctx: CompileContext, i: number, l: string, api: ApiSpec | undefined): boolean {
  const deleted = ctx.deleted.get(l);
  if (!deleted || !api) return true;
  // A step numbered below the label ran before the deleted step (`var1` is not the lost `var2`).
  if (numberedBelow(ctx, i, l)) return false;
  if (deleted.standIns.some((s) => s.api === api)) return true;
  // Named only by the answer's key, the evidence is weaker: a step whose own label is out of place in the
  // count (`var4` between var1 and var3) may still be the one the answer's `$var2$` meant, unless its API
  // could be another deleted step (then that is the label it lost, not this one).
  if (deleted.uses.paths.length > 0 || inCount(ctx, i)) return false;
  for (const [other, d] of ctx.deleted)
    if (other !== l && d.standIns.some((s) => s.api === api)) return false;
  return true;
}

export function newCall(ctx: CompileContext, call: Omit<Call, 'id' | 'params' | 'tokens'>): Call {
  // Every call gets the same keys in the same order: one object shape for the code that reads them all.
  const full: Call = {
    id: ctx.calls.length,
    kind: call.kind,
    origin: call.origin,
    pos: call.pos,
    depth: call.depth,
    apis: call.apis,
    deleteVar: call.deleteVar,
    labels: call.labels,
    params: [],
    tokens: [],
    need: call.need,
    consumer: call.consumer,
    restores: call.restores,
    reruns: call.reruns,
    fills: call.fills,
    carried: call.carried,
    standIns: call.standIns,
    moveCost: call.moveCost,
  };
  ctx.calls.push(full);
  return full;
}

/** The first step that reads each of `labels` (absent: none reads it). */
function firstReads(ctx: CompileContext, labels: readonly string[]): Map<string, number> {
  const wanted = new Set(labels);
  const out = new Map<string, number>();
  ctx.refs.forEach((sites, k) => {
    for (const { ref } of sites) if (wanted.has(ref.label) && !out.has(ref.label)) out.set(ref.label, k);
  });
  return out;
}

/** Creates the original, moved and result calls, with their existence and label rows. */
export function originalCalls(ctx: CompileContext, orphans: readonly string[]): void {
  const b = ctx.builder;
  const orphanReads = firstReads(ctx, orphans);
  ctx.steps.forEach((step, i) => {
    if (ctx.isAnswer(i)) {
      const v = ctx.variable();
      b.equal([v], 1);
      newCall(ctx, {
        kind: 'result',
        origin: i,
        pos: i,
        depth: 0,
        apis: [{ api: null, v, cost: 0 }],
        labels: [],
      });
      return;
    }
    const call = newCall(ctx, {
      kind: 'original',
      origin: i,
      pos: i,
      depth: 0,
      apis: apiChoices(ctx, step),
      labels: labelChoices(ctx, step.label, orphans, false, i, ctx.index.byName.get(step.name)),
    });
    // The user's calls stay: in sound and valid modes a call goes only as a duplicate of an earlier one or
    // of an executed one whose result memory holds, or when no catalog API is close to its name (the result
    // is then partial), unless the cost model lets the weights decide. In optimal mode deleting is free: the arguments are refunded with it.
    call.repeat = duplicates(ctx, i) || ctx.repeats.has(i);
    if (ctx.optimal || !ctx.cost.keepCalls || call.apis.length === 0 || call.repeat) {
      const refund = ctx.optimal ? Object.keys(step.arguments).length : 0;
      call.deleteVar = ctx.variable(refund > 0 ? { deleteStep: 1, dropParam: -refund } : { deleteStep: 1 });
    }
    const copy = movedCopy(ctx, step, i, orphanReads);
    const existence = [
      ...ctx.active(call),
      ...(call.deleteVar === undefined ? [] : [call.deleteVar]),
      ...(copy ? ctx.active(copy) : []),
    ];
    b.equal(existence, 1);
    labelRows(ctx, call, step.label !== undefined);
  });
}

/** True when an earlier step makes the same call (same API, same arguments). */
function duplicates(ctx: CompileContext, i: number): boolean {
  const step = ctx.steps[i];
  const args = canonicalJson(step.arguments as Json);
  return ctx.steps.some(
    (s, k) => k < i && s.name === step.name && canonicalJson(s.arguments as Json) === args,
  );
}

/**
 * A copy of step i placed just before the first earlier step that reads a label it may end with: its own, or
 * one that no step defines (`orphanReads`: the step lost its label, or was given another), so that a step written
 * too late can be moved instead of deleted and re-inserted; or, with its own label, where the count of labels
 * puts it when nothing earlier reads it (`latePlace`). The copy has the step's API choices (a misspelt
 * name is renamed as the step itself would be) and those labels; each costs as on the step, plus `moveStep`.
 */
function movedCopy(
  ctx: CompileContext,
  step: Step,
  i: number,
  orphanReads: ReadonlyMap<string, number>,
): Call | null {
  const api = ctx.index.byName.get(step.name);
  const own = step.label;
  // In optimal mode a call may also move before an earlier step that consumes a field it outputs, so that
  // a call made only to produce that field can go.
  const outputs =
    ctx.optimal && api ? new Set((api.outputs ?? []).map((f) => leafOf(f.path))) : new Set<string>();
  const reads = (k: number, labels: ReadonlySet<string>) =>
    ctx.refs[k].some((r) => {
      if (labels.has(r.ref.label)) return true;
      const leaf = [...r.ref.path].reverse().find((x) => typeof x === 'string');
      return typeof leaf === 'string' && outputs.has(leaf);
    });
  // An own label some step before i already ends with is not this step's to lend.
  const ownFirst = own === undefined ? -1 : ctx.steps.findIndex((_, k) => k < i && reads(k, new Set([own])));
  // A label the run holds already (memory, an executed call) is no call's to keep.
  const ownable = own !== undefined && (!ctx.held.has(own) || ctx.restated.has(i));
  const keepOwn = ownable && ownFirst >= 0 && !ctx.steps.slice(0, ownFirst).some((s) => s.label === own);
  const lendable = [...orphanReads].flatMap(([l, k]) =>
    l !== own && k < i && fitsDeleted(ctx, i, l, api) ? [l] : [],
  );
  // Written too late where nothing earlier reads it, the step keeps its own label where the count puts it.
  const late = latePlace(ctx, i);
  const mine = keepOwn || (ownFirst < 0 && lendable.length === 0 && ownable && late !== undefined);
  const labels = new Set([...(mine ? [own!] : []), ...lendable]);
  if (labels.size === 0) return null;
  const reader = ctx.steps.findIndex((_, k) => k < i && reads(k, labels));
  const first = reader < 0 ? late! : Math.min(reader, firstLacking(ctx, i, api, reader), late ?? reader);
  // Variables are made only for a copy that is laid out.
  const apis = apiChoices(ctx, step, { moveStep: 1 });
  if (apis.length === 0) return null;
  // A label in its place in the count names its own step (`var5` between var4 and var6): taking a lost one
  // (`var2`) to move there is evidence against the move (`moveCounted`).
  const change: Features = {
    [own === undefined ? 'addLabel' : 'relabel']: 1,
    ...(own !== undefined && inCount(ctx, i) ? { moveCounted: 1 } : {}),
  };
  const choices = [
    ...(mine ? [labelChoice(ctx, own!, NO_FEATURES)] : []),
    ...lendable.map((l) => labelChoice(ctx, l, change)),
  ];
  const copy = newCall(ctx, {
    kind: 'moved',
    origin: i,
    pos: first - 0.5,
    depth: 0,
    apis,
    labels: choices,
    moveCost: ctx.price({ moveStep: 1 }),
  });
  labelRows(ctx, copy, true);
  return copy;
}

/**
 * Where the count of the other steps' labels puts step i (`countedEarlier`: var2 written after var3), when a
 * step from there on lacks a required argument and step i reads nothing defined from there on: written too
 * late, its output could not feed that step (`generate_barcode(data=…)` written before the `calculate_pace`
 * whose unread pace it takes). Undefined otherwise.
 */
function latePlace(ctx: CompileContext, i: number): number | undefined {
  const place = countedEarlier(ctx, i);
  if (place === undefined) return undefined;
  const between = ctx.steps.slice(place, i);
  const lacks = between.some((_, k) => lacksRequired(ctx, place + k));
  const later = new Set(between.flatMap((s) => (s.label === undefined ? [] : [s.label])));
  return lacks && !ctx.refs[i].some((site) => later.has(site.ref.label)) ? place : undefined;
}

/**
 * The first step before `reader` that lacks a required parameter the moved step's API outputs, under its name or
 * a mapped one (`product_id` missing at a product-offers call written before the search that outputs it), where the
 * step reads nothing defined from there on: the copy may go before it too, so the gap can be filled from it.
 * `reader` itself when there is none.
 */
function firstLacking(ctx: CompileContext, i: number, api: ApiSpec | undefined, reader: number): number {
  if (!api || reader <= 0) return reader;
  const outputs = new Set((api.outputs ?? []).map((f) => leafOf(f.path)));
  const read = new Set(ctx.refs[i].map((r) => r.ref.label));
  let best = reader;
  for (let k = reader - 1; k >= 0; k--) {
    // The copy cannot go before a step whose label it reads.
    const label = ctx.steps[k].label;
    if (label !== undefined && read.has(label)) break;
    const lacks = lacksRequired(
      ctx,
      k,
      (p) => outputs.has(p.name) || ctx.mappedFrom(p.name).some((m) => outputs.has(m.from)),
    );
    if (lacks) best = k;
  }
  return best;
}

/** Whether input step k lacks a required argument of its API (one `which` picks, by default any). */
function lacksRequired(
  ctx: CompileContext,
  k: number,
  which: (p: ParamSpec) => boolean = () => true,
): boolean {
  const step = ctx.steps[k];
  return (
    ctx.index.byName
      .get(step.name)
      ?.params.some(
        (p) => p.required && !Object.prototype.hasOwnProperty.call(step.arguments, p.name) && which(p),
      ) ?? false
  );
}

/** A call has one label when it must (labelled input, inserted, moved), at most one otherwise. */
export function labelRows(ctx: CompileContext, call: Call, mustLabel: boolean): void {
  const labels = ctx.labelled(call);
  if (mustLabel) ctx.builder.equal(labels, ctx.active(call));
  else ctx.builder.atMost(labels, ctx.active(call));
}

/** No two calls end with the same (non-fresh) label. */
export function labelUniqueness(ctx: CompileContext): void {
  const byLabel = new Map<string, number[]>();
  for (const c of ctx.calls) {
    for (const l of c.labels) {
      if (l.label === null) continue;
      let list = byLabel.get(l.label);
      if (!list) byLabel.set(l.label, (list = []));
      list.push(l.v);
    }
  }
  for (const vars of byLabel.values()) if (vars.length > 1) ctx.builder.atMost(vars, 1);
}
