/**
 * The gold's point in a repair model: the cheapest point whose decisions agree with the gold's data flow.
 * Every variable of the plan is read against the gold (`goldLoss`): a call of an API the gold does not
 * have, an argument the gold drops, an output wired where the gold wires another, an ask where the gold
 * holds a value the input has… each such decision is marked inconsistent. A solve that charges every
 * inconsistent decision far more than any edit (`GOLD_PENALTY`) finds the point closest to the gold, the
 * cheapest of those under the weights; the judge (`restoredModuloUnknowns`) then says whether it is the
 * gold. The marks are optimistic (an inserted call may stand for any gold call of its API; an input call
 * stands for the gold step of its label where the gold has one of its API), so the judge has the last word. This is how the fit finds its targets and how candidate coverage (does the model hold the gold at
 * all?) is measured: by a solve constrained to the gold, not by hoping it is among the k cheapest repairs.
 */
import { canonicalJson } from '../../src/model/canonical.ts';
import type { CostModel } from '../../src/model/cost.ts';
import { accumulate, type FeatureName, type Features } from '../../src/model/features.ts';
import type { MilpModel, Solution } from '../../src/model/milp.ts';
import type { Json, Sequence } from '../../src/model/types.ts';
import { ASK, DEFAULT_RESULT_NAME, isPseudoStep } from '../../src/model/constants.ts';
import { compile } from '../../src/compile/compile.ts';
import { decode } from '../../src/decode/decode.ts';
import type { Plan } from '../../src/compile/plan.ts';
import { findReferences, normalisePath, stepReferences } from '../../src/read/references.ts';
import { isLiteral } from '../../src/validate/validate.ts';
import { getSolver, solveGuarded } from '../../src/solvers/index.ts';
import { compileOptions } from '../../src/repair/repair.ts';
import { literalValues } from '../../src/score/steps.ts';
import type { LabelledRecord } from './dataset.ts';
import { judge, repairOptions, type EvalOptions } from './evaluate.ts';

/**
 * What an inconsistent decision costs in the gold-constrained solve: far above what any consistent decision
 * costs, near-bans included. A link by evidence alone is priced at `linkAny` (1000) plus its evidence: at 1000
 * here, a gold link with no evidence (`linkUnsupported` 15) cost more than an ask the gold contradicts, and the
 * gold was missed for it.
 */
export const GOLD_PENALTY = 10_000;

export type FeatureTotals = Partial<Record<FeatureName, number>>;

/** A solved point of a record's model: the repair it decodes to and the features it sums. */
export interface SolvedPoint {
  readonly sequence: Sequence;
  /** The repair's cost (edits only, as reported). */
  readonly cost: number;
  /** Σ features over the point's variables plus the model's constant part: cost = weights · features. */
  readonly features: FeatureTotals;
  /** Decisions of the point the gold reading marks inconsistent (0 for a point on the gold). */
  readonly inconsistent: number;
  /** The judge's verdict: the point is the gold (restored modulo unknowns). */
  readonly restored: boolean;
  /** The gold reading summed over the point (`goldLoss` · values): the Hamming loss a margin is scaled by. */
  readonly loss: number;
  /** With `towardsGold`: the APIs the model's calls may run (what candidate coverage reads a miss by). */
  readonly apis?: ReadonlySet<string>;
}

/** A reference inside a gold value: the gold producer's API (null: a memory item) and the path. */
interface GoldRef {
  readonly api: string | null;
  readonly label: string;
  readonly path: string;
}

interface GoldReading {
  readonly gold: Sequence;
  /** Gold call indexes by API name. */
  readonly byApi: ReadonlyMap<string, number[]>;
  /** Literal values the input holds anywhere (canonical JSON): the gold's other literals are unknowns. */
  readonly known: ReadonlySet<string>;
  /** How many input steps call each API by its exact name. */
  readonly inputCount: ReadonlyMap<string, number>;
  readonly resultName: string;
}

function readGold(input: Sequence, gold: Sequence, resultName: string): GoldReading {
  const byApi = new Map<string, number[]>();
  gold.forEach((step, i) => {
    if (isPseudoStep(step)) return;
    const list = byApi.get(step.name) ?? [];
    list.push(i);
    byApi.set(step.name, list);
  });
  const inputCount = new Map<string, number>();
  for (const step of input) inputCount.set(step.name, (inputCount.get(step.name) ?? 0) + 1);
  return { gold, byApi, known: literalValues(input), inputCount, resultName };
}

/** The gold producer of `label` for gold step `at`: its API, or null when no earlier step defines it. */
function producerApi(gold: Sequence, at: number, label: string): string | null {
  for (let i = at - 1; i >= 0; i--) if (gold[i].label === label) return gold[i].name;
  return null;
}

/** The references inside a gold value, read as (producer API, label, path). */
function goldRefs(r: GoldReading, at: number, value: Json): GoldRef[] {
  return stepReferences({ v: value }).map((site) => ({
    api: producerApi(r.gold, at, site.ref.label),
    label: site.ref.label,
    path: normalisePath(site.ref.path),
  }));
}

/** The gold's value for `param` at each gold call of one of `apis` (or the answer step for null). */
function goldValues(
  r: GoldReading,
  apis: readonly (string | null)[],
  param: string,
): { at: number; value: Json }[] {
  const out: { at: number; value: Json }[] = [];
  for (const api of apis) {
    const steps =
      api === null
        ? r.gold.length > 0 && r.gold[r.gold.length - 1].name === r.resultName
          ? [r.gold.length - 1]
          : []
        : (r.byApi.get(api) ?? []);
    for (const at of steps) {
      const args = r.gold[at].arguments;
      if (Object.prototype.hasOwnProperty.call(args, param)) out.push({ at, value: args[param] });
    }
  }
  return out;
}

/**
 * Whether the gold's value at gold step `at` is one no repair can know: a literal the input holds nowhere, or
 * the whole value of an `ask` pseudo-step the gold writes itself (`match_date="$match_date$"` after
 * `match_date = ask(slot="match_date")`), which is what a repair's ask is.
 */
function unknownValue(r: GoldReading, at: number, value: Json): boolean {
  if (isLiteral(value)) return !r.known.has(canonicalJson(value));
  if (typeof value !== 'string') return false;
  const found = findReferences(value);
  if (found.length !== 1 || found[0].start !== 0 || found[0].end !== value.length) return false;
  const [ref] = goldRefs(r, at, value);
  return ref.api === ASK && ref.path === '';
}

/** Whether a gold value is one whole reference matching `want` (an API of the producer, or memory). */
function wholeRefTo(
  r: GoldReading,
  at: number,
  value: Json,
  apis: ReadonlySet<string> | null,
  label: string,
  path: string,
  call?: string,
): boolean {
  if (typeof value !== 'string') return false;
  const found = findReferences(value);
  if (found.length !== 1 || found[0].start !== 0 || found[0].end !== value.length) return false;
  const ref = goldRefs(r, at, value)[0];
  return refMatches(ref, apis, label, path, call);
}

/**
 * Whether a gold reference is to the producer a source names: memory item `label`, or a call of one of `apis`;
 * `call`, the gold label of that very call when it is known (an input call whose label the gold gives a step
 * of its API), pins it: of two calls of one API, the gold reads one.
 */
function refMatches(
  ref: GoldRef,
  apis: ReadonlySet<string> | null,
  label: string,
  path: string,
  call?: string,
): boolean {
  if (ref.path !== path) return false;
  if (apis === null) return ref.api === null && ref.label === label;
  return ref.api !== null && apis.has(ref.api) && (call === undefined || ref.label === call);
}

/**
 * The gold reading of every variable: 1 for a decision the gold contradicts, −½ for a decision of an input
 * call (or the answer) that keeps a value the gold keeps there (so that dropping it, which has no variable
 * of its own, is what costs), 0 otherwise (labels, shared asks and other bookkeeping variables).
 */
export function goldLoss(plan: Plan, input: Sequence, gold: Sequence): number[] {
  const r = readGold(input, gold, plan.resultName);
  const loss = new Array<number>(plan.costs.length).fill(0);
  const KEEP = -0.5;
  const apisOf = (id: number) =>
    new Set(plan.calls[id].apis.flatMap((a) => (a.api === null ? [] : [a.api.name])));
  const goldCount = (api: string) => r.byApi.get(api)?.length ?? 0;
  // An input call's label, where the gold gives it to a step of the call's API: the gold step it is.
  const goldLabels = plan.calls.map((call) => {
    const step = call.origin >= 0 ? plan.steps[call.origin] : undefined;
    return step?.label !== undefined && gold.some((g) => g.label === step.label && g.name === step.name)
      ? step.label
      : undefined;
  });
  for (const call of plan.calls) {
    const names = call.apis.map((a) => a.api?.name ?? null);
    for (const a of call.apis) {
      if (a.api === null) continue;
      const name = a.api.name;
      const fits =
        call.kind === 'inserted' ? goldCount(name) > (r.inputCount.get(name) ?? 0) : goldCount(name) > 0;
      if (!fits) loss[a.v] = 1;
    }
    if (call.deleteVar !== undefined) {
      const name = plan.steps[call.origin].name;
      if (goldCount(name) >= (r.inputCount.get(name) ?? 0)) loss[call.deleteVar] = 1;
    }
    const step = call.origin >= 0 ? plan.steps[call.origin] : undefined;
    for (const pp of call.params) {
      const api = call.apis[pp.choice].api?.name ?? null;
      const values = goldValues(r, [api], pp.param);
      const fed = values.length > 0;
      for (const s of pp.sources) {
        let ok: boolean;
        switch (s.kind) {
          case 'arg': {
            const v = step!.arguments[s.arg];
            ok = values.some((g) =>
              isLiteral(v)
                ? isLiteral(g.value) && canonicalJson(g.value) === canonicalJson(v)
                : !isLiteral(g.value),
            );
            break;
          }
          case 'output':
            ok = values.some((g) =>
              wholeRefTo(r, g.at, g.value, apisOf(s.call), '', normalisePath(s.path), goldLabels[s.call]),
            );
            break;
          case 'memory':
            ok = values.some((g) => wholeRefTo(r, g.at, g.value, null, s.label, normalisePath(s.path)));
            break;
          case 'literal':
            ok = values.some((g) => canonicalJson(g.value) === canonicalJson(s.value));
            break;
          case 'ask':
            ok = values.some((g) => unknownValue(r, g.at, g.value));
            break;
        }
        // A parameter the gold does not pass at all: any source is a value the gold does not have.
        if (!ok || !fed) loss[s.v] = 1;
        else if (s.kind === 'arg' && call.kind !== 'inserted') loss[s.v] = KEEP;
      }
    }
    for (const t of call.tokens) {
      // The parameters the argument may feed (as written, or renamed).
      const params = new Set([t.arg]);
      for (const pp of call.params)
        if (pp.sources.some((s) => s.kind === 'arg' && s.arg === t.arg)) params.add(pp.param);
      const values = [...params].flatMap((p) => goldValues(r, names, p));
      for (const o of t.options) {
        let ok: boolean;
        if (o.kind === 'ask') ok = values.some((g) => unknownValue(r, g.at, g.value));
        else {
          const path = normalisePath(o.kind === 'keep' ? t.site.ref.path : o.path);
          const producer = o.call === null ? null : apisOf(o.call);
          const label =
            o.kind === 'reassign' && o.memoryLabel !== undefined ? o.memoryLabel : t.site.ref.label;
          const pinned = o.call === null ? undefined : goldLabels[o.call];
          ok = values.some((g) =>
            goldRefs(r, g.at, g.value).some((ref) => refMatches(ref, producer, label, path, pinned)),
          );
        }
        loss[o.v] = ok ? (call.kind === 'inserted' ? 0 : KEEP) : 1;
      }
    }
  }
  return loss;
}

/** The features a point sums: the model's constant part plus every variable that is on. */
export function pointFeatures(plan: Plan, values: readonly number[]): FeatureTotals {
  const out: FeatureTotals = {};
  accumulate(out, plan.offsetFeatures);
  values.forEach((x, v) => {
    if (x > 0.5) accumulate(out, plan.features[v] as Features);
  });
  return out;
}

export interface PointOptions extends EvalOptions {
  /** Solve constrained to the gold (the gold's point); otherwise the model's own optimum. */
  readonly towardsGold?: boolean;
  /**
   * Loss-augmented solve (a structured SVM's margin rescaling): every decision the gold contradicts is
   * `margin` cheaper, every kept gold value `margin / 2` dearer, so the point found is the one the weights
   * separate least from the gold. 0 (default): the model's own optimum. Ignored with `towardsGold`.
   */
  readonly margin?: number;
}

/**
 * Solves a record's model under `cost`: its optimum, or (`towardsGold`) the cheapest point closest to the
 * gold. Null when the model cannot be built or solved (time, size).
 */
export async function solvePoint(
  record: LabelledRecord,
  cost: CostModel,
  options: PointOptions = {},
): Promise<SolvedPoint | null> {
  let compiled;
  try {
    compiled = compile(record.sequence, record.catalog, cost, {
      ...compileOptions(repairOptions(record, cost, options)),
      // The gold may need a link no optimum would take under these weights: the model holds them all.
      keepDominated: options.towardsGold === true,
    });
  } catch {
    return null;
  }
  const { plan } = compiled;
  const loss = goldLoss(plan, record.sequence, record.gold);
  let model: MilpModel = compiled.model;
  if (options.towardsGold) model = { ...model, cost: model.cost.map((c, v) => c + GOLD_PENALTY * loss[v]) };
  else if (options.margin) {
    const margin = options.margin;
    model = { ...model, cost: model.cost.map((c, v) => c - margin * loss[v]) };
  }
  const solution: Solution = await solveGuarded(getSolver(options.solver ?? 'highs'), model, {});
  if (!solution.values || solution.status !== 'optimal') return null;
  const values = solution.values;
  const decoded = decode(plan, values);
  let inconsistent = 0;
  let total = 0;
  values.forEach((x, v) => {
    if (x <= 0.5) return;
    total += loss[v];
    if (loss[v] > 0) inconsistent++;
  });
  return {
    sequence: decoded.sequence,
    cost: decoded.cost,
    features: pointFeatures(plan, values),
    inconsistent,
    restored: judge(record, decoded.sequence),
    loss: total,
    ...(options.towardsGold
      ? { apis: new Set(plan.calls.flatMap((call) => call.apis.flatMap((a) => (a.api ? [a.api.name] : [])))) }
      : {}),
  };
}

export { DEFAULT_RESULT_NAME };
