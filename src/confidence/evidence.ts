/**
 * The evidence of one repair's confidence (src/model/calibration.ts names each): what the second solve
 * found, the edits by kind, and the repair's feature total (the features of every chosen variable and of
 * the objective's constant part: what its cost is the price of).
 */
import { leafOf } from '../catalog/catalog-index.ts';
import { shareAWord } from '../catalog/evidence.ts';
import { textTerms } from '../catalog/text.ts';
import type { Plan } from '../compile/plan.ts';
import { normalisePath, stepReferences } from '../read/references.ts';
import { FEATURE_PREFIX, FORM_ONLY, KIND_PREFIX, type EvidenceName } from '../model/calibration.ts';
import { FEATURES, type FeatureName } from '../model/features.ts';
import { perObject } from '../model/memo.ts';
import { FORM_KINDS, type ApiSpec, type Edit } from '../model/types.ts';

/** What the solve under the cut of the chosen decisions (alternative.ts) gave. */
export type Alternative =
  | { readonly found: 'none' }
  | { readonly found: 'unknown' }
  | { readonly found: 'repair'; readonly values: readonly number[] };

export type EvidenceVector = Readonly<Record<string, number>>;

/** The cost of a point without its tie-breaks: the plan's constant plus each chosen variable's edit cost. */
export function pointCost(plan: Plan, values: readonly number[]): number {
  let cost = plan.offset;
  for (let v = 0; v < plan.costs.length; v++) if (values[v] > 0.5) cost += plan.costs[v];
  return cost;
}

/** Whether a call the point puts back (or inserts) could have been more than one catalog API. */
function guessesAnApi(plan: Plan, values: readonly number[]): boolean {
  return plan.calls.some(
    (call) =>
      call.standIns !== undefined && call.standIns > 1 && call.apis.some((choice) => values[choice.v] > 0.5),
  );
}

/** ln(1 + |x|) with x's sign. */
const signedLog = (x: number) => Math.sign(x) * Math.log1p(Math.abs(x));

/**
 * What the alternative pays more than the repair, split by feature group (edit, evidence, closeness): the
 * priced features of the variables one point chooses and the other does not (the rest cancels).
 */
function gapByGroup(
  plan: Plan,
  values: readonly number[],
  alternative: Alternative,
  weights: Readonly<Record<string, number>>,
): { gapEdit: number; gapEvidence: number; gapCloseness: number } {
  const split = { edit: 0, evidence: 0, closeness: 0 };
  if (alternative.found === 'repair') {
    for (let v = 0; v < plan.features.length; v++) {
      const mine = values[v] > 0.5;
      if (mine === alternative.values[v] > 0.5) continue;
      const features = plan.features[v];
      for (const name in features)
        split[FEATURES[name as FeatureName].group] +=
          (mine ? -1 : 1) * (weights[name] ?? 0) * features[name as FeatureName]!;
    }
  }
  return {
    gapEdit: signedLog(split.edit),
    gapEvidence: signedLog(split.evidence),
    gapCloseness: signedLog(split.closeness),
  };
}

/**
 * The distinct terms of an API's description, counted once per API: a long description is past the term memo's
 * bounds and would be split again on every repair.
 */
const describedTermCount = perObject((api: ApiSpec): number => new Set(textTerms(api.description)).size);

/**
 * How the input writes its data flow and what its APIs are like: its references per step, the share of them
 * whose field shares a word with the parameter (or answer key) it feeds, ln(1 + the mean output fields of
 * its steps' catalog APIs) and the mean distinct terms of their descriptions. Read off the input's own calls
 * and answer, whatever the repair does.
 */
function planShape(plan: Plan): {
  refsPerStep: number;
  namedRefs: number;
  logOutputs: number;
  describedTerms: number;
} {
  let refs = 0;
  let named = 0;
  let outputs = 0;
  let apis = 0;
  let terms = 0;
  for (const call of plan.calls) {
    if (call.kind !== 'original' && call.kind !== 'result') continue;
    for (const token of call.tokens) {
      refs++;
      if (shareAWord(leafOf(normalisePath(token.site.ref.path)), token.site.param)) named++;
    }
    const own = call.apis.find((choice) => choice.api?.name === plan.steps[call.origin]?.name)?.api;
    if (own) {
      apis++;
      outputs += own.outputs?.length ?? 0;
      terms += describedTermCount(own);
    }
  }
  return {
    refsPerStep: refs / Math.max(1, plan.steps.length),
    namedRefs: refs > 0 ? named / refs : 0,
    logOutputs: Math.log1p(apis > 0 ? outputs / apis : 0),
    describedTerms: apis > 0 ? terms / apis : 0,
  };
}

/** The edits that guess a lost value: an ask, a value copied from another call that passes it (`reuseLiteral`). */
const GUESSES: ReadonlySet<Edit['kind']> = new Set(['slotFill', 'reuseLiteral']);

/**
 * The guesses of a repair (GUESSES) made after an input call whose output no other input call reads (the answer
 * may): the lost value may well be that output, which a plan of this kind wires under names that say nothing
 * (`calculate_squared(number="$var1.discount_amount$")`) or reads back from the call it passed it to
 * (`q="$var1.location.name$"` where the repair copies `q="Paris"`), and the guess leaves it unread.
 */
function guessesBesideUnread(plan: Plan, edits: readonly Edit[]): number {
  const answer = plan.calls.find((call) => call.kind === 'result')?.origin;
  const read = new Set<string>();
  plan.steps.forEach((step, i) => {
    if (i !== answer) for (const site of stepReferences(step.arguments)) read.add(site.ref.label);
  });
  const firstUnread = plan.steps.findIndex(
    (step, i) => i !== answer && step.label !== undefined && !read.has(step.label),
  );
  if (firstUnread < 0) return 0;
  return edits.filter((e) => GUESSES.has(e.kind) && e.step > firstUnread).length;
}

/**
 * The edits that delete a step repeating a call the plan has already made (an earlier step, an executed call
 * whose result memory holds: `Call.repeat`). The price of such a deletion keeps the user's calls; it is no
 * doubt about the repair (a runtime plan that repeats what ran is right as often with the deletion as without
 * one), so the cost and edit evidence leave it out.
 */
function droppedRepeats(plan: Plan, edits: readonly Edit[]): ReadonlySet<Edit> {
  const repeats = new Set(plan.calls.flatMap((call) => (call.repeat ? [call.origin] : [])));
  return new Set(edits.filter((e) => e.kind === 'deleteStep' && repeats.has(e.step)));
}

/**
 * The evidence of a repair: the named evidence (EVIDENCE) and, with `detail`, the edit counts by kind, whether
 * every edit is of form (FORM_ONLY) and the feature totals, which a calibration reads only when fitted on them
 * (`--evidence form|kinds|all`).
 */
export function repairEvidence(
  plan: Plan,
  values: readonly number[],
  edits: readonly Edit[],
  alternative: Alternative,
  weights: Readonly<Record<string, number>>,
  detail = true,
): EvidenceVector {
  const cost = pointCost(plan, values);
  const gap = alternative.found === 'repair' ? Math.max(0, pointCost(plan, alternative.values) - cost) : 0;
  const asks = edits.filter((e) => e.kind === 'slotFill').length;
  const repeats = droppedRepeats(plan, edits);
  const weighed = edits.filter((e) => !repeats.has(e));
  const weighedCost = Math.max(0, cost - [...repeats].reduce((sum, e) => sum + e.cost, 0));
  const base: Record<EvidenceName, number> = {
    noAlternative: alternative.found === 'none' ? 1 : 0,
    unknownAlternative: alternative.found === 'unknown' ? 1 : 0,
    logGap: Math.log1p(gap),
    relativeGap: alternative.found === 'none' ? 1 : gap + weighedCost > 0 ? gap / (gap + weighedCost) : 0,
    logCost: Math.log1p(weighedCost),
    edits: weighed.filter((e) => e.kind !== 'slotFill' && e.kind !== 'confirm').length,
    asks,
    unreadLinks: edits.filter((e) => e.kind === 'unreadOutput').length,
    guessesBesideUnread: guessesBesideUnread(plan, edits),
    logMaxEdit: Math.log1p(Math.max(0, ...weighed.map((e) => e.cost))),
    guessedApi: guessesAnApi(plan, values) ? 1 : 0,
    logSteps: Math.log(Math.max(1, plan.steps.length)),
    ...gapByGroup(plan, values, alternative, weights),
    ...planShape(plan),
  };
  if (!detail) return base;
  const out: Record<string, number> = { ...base };
  for (const edit of edits) out[KIND_PREFIX + edit.kind] = (out[KIND_PREFIX + edit.kind] ?? 0) + 1;
  const made = edits.filter((e) => e.kind !== 'confirm');
  out[FORM_ONLY] = made.length > 0 && made.every((e) => FORM_KINDS.has(e.kind)) ? 1 : 0;
  const add = (features: Readonly<Record<string, number | undefined>>) => {
    for (const name in features) {
      const key = FEATURE_PREFIX + name;
      out[key] = (out[key] ?? 0) + features[name]!;
    }
  };
  add(plan.offsetFeatures);
  for (let v = 0; v < plan.features.length; v++) if (values[v] > 0.5) add(plan.features[v]);
  return out;
}
