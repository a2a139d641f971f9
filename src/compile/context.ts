/** Shared state of one compilation: the builder, the calls so far, and lookups over them. */
import type {
  ApiSpec,
  Catalog,
  Mapping,
  Memory,
  OutputField,
  ParamSpec,
  PathSegment,
  Reference,
  ReferenceSite,
  Sequence,
  Step,
} from '../model/types.ts';
import {
  BoundsSchema,
  EvidenceSchema,
  type Bounds,
  type CostModel,
  type Evidence,
  type MappingScoring,
  type Weights,
} from '../model/cost.ts';
import { DEFAULT_SCORING } from '../catalog/mapping-sides.ts';
import {
  apiWords,
  catalogNameWords,
  commonNameWords,
  contentWords,
  planWords,
  relatedTo,
} from '../catalog/evidence.ts';
import { NO_FEATURES, price, type FeatureName, type Features } from '../model/features.ts';
import { indexCatalog, type CatalogIndex } from '../catalog/catalog-index.ts';
import { mappingsInForce, mappingsInto } from '../catalog/computed-mappings.ts';
import { contextFields, contextProducers, describedProducers } from '../catalog/context-match.ts';
import { apiProvides, memoryProvides } from '../validate/outputs.ts';
import { ModelBuilder } from './builder.ts';
import { nameStyle, namesAnId, words } from '../catalog/names.ts';
import { perObject } from '../model/memo.ts';
import { isLiteral } from '../validate/validate.ts';
import { executedRepeats, restatedSteps } from '../validate/tries.ts';
import { BudgetExceeded, BudgetMeter, type CompileBudget } from './budget.ts';
import { referencesProblem, stepReferences } from '../read/references.ts';
import { heldLabels } from '../read/sequence.ts';
import type { Goals } from '../model/options.ts';
import { isAnswerStep, type Mode } from '../model/constants.ts';
import type { Call, DeletedStep, SharedAsk, SlotAsk, SlotShare, Source } from './plan.ts';

export interface CompileOptions {
  readonly memory?: Memory;
  readonly mappings?: readonly Mapping[];
  readonly givenOnly?: boolean;
  readonly allowInsert?: boolean;
  readonly resultName?: string;
  readonly strictTypes?: boolean;
  readonly goals?: Goals;
  readonly mode?: Mode;
  /** Charge and emit a `confirm` for every value the repair invents (maps, outputs of inserted calls). */
  readonly defensive?: boolean;
  /** Use the mappings computed from the catalog itself, under any given `mappings` (default true). */
  readonly catalogMappings?: boolean;
  /**
   * Keep candidates that no optimum can choose under the weights (links dearer than asking): for a solve
   * constrained to a gold repair, which may need them, and measures of what the model can hold.
   */
  readonly keepDominated?: boolean;
  /** The calls already executed, in order: they count against `maxTries`, and memory may hold their results. */
  readonly executed?: Sequence;
  /** Most runs of one call, the executed ones included (tries.ts). */
  readonly maxTries?: number;
  /** Size caps, deadline and cancellation, enforced while the model is built. */
  readonly budget?: CompileBudget;
}

export class CompileContext {
  readonly builder: ModelBuilder;
  readonly calls: Call[] = [];
  readonly index: CatalogIndex;
  readonly memory: Memory;
  /** Step index -> label of an executed call it repeats whose result memory holds (executed.ts). */
  readonly repeats: ReadonlyMap<number, string>;
  /** The features of each variable, by index (its cost is their price under `weights`). */
  readonly features: Features[] = [];
  /** The features of the objective's constant part (every original argument's drop, refunded when kept). */
  readonly offsetFeatures: Partial<Record<FeatureName, number>> = {};
  /** The evidence scores and candidate bounds in force (the cost model's, defaults where it has none). */
  readonly evidence: Evidence;
  readonly bounds: Bounds;
  /** How the catalog's own mappings are scored (the cost model's `mappings`). */
  private readonly scoring: { readonly scoring: MappingScoring };
  /** param name -> given mappings into it. */
  private readonly given = new Map<string, Mapping[]>();
  /** param name -> every mapping in force into it (given over computed), best first. */
  private readonly mappingsTo = new Map<string, Mapping[]>();
  /** The references of each input step, parsed once. */
  readonly refs: readonly ReferenceSite[][];
  /** APIs allowed for renames and inserts when `givenOnly`. */
  readonly allowed: ((api: ApiSpec) => boolean) | null;
  /** Asks shared by the references to one missing value, and their index by value (label and path). */
  readonly asks: SharedAsk[] = [];
  readonly askIndex = new Map<string, number>();
  /** Parameter asks by parameter name (see `slotShareRows`), and the shares made of them. */
  readonly slotAsks = new Map<string, SlotAsk[]>();
  readonly slotShares: SlotShare[] = [];
  /** The extra cost of asking for a name that a catalog API produces (see `askPremium`). */
  readonly premiums = new Map<string, Features>();
  /** Dangling labels that some catalog API can stand for: the deleted steps a repair may put back. */
  readonly restorable = new Set<string>();
  /**
   * Restorable labels that only strangers can stand for (every stand-in pays `insertUnrelated`; set by
   * `restoredCalls`, before the references' options are laid out): in a large catalog some API outputs nearly
   * any name, so the step is no firm one and its reference may move as an orphan's does (a balance query's
   * `$var1.the_transaction_reference_for_account$`, a field only a funds transfer outputs, reads an inserted
   * account lookup).
   */
  readonly strangeDeleted = new Set<string>();
  /** Dangling labels read as deleted steps, with the APIs that can stand for them (`deletedSteps`). */
  readonly deleted = new Map<string, DeletedStep>();
  /** The input steps whose output no other call reads (see `unread.ts`), computed on first use. */
  unread:
    | {
        readonly read: ReadonlySet<string>;
        readonly steps: ReadonlySet<number>;
        /** Memory items that no step (the answer aside) and no executed call reads. */
        readonly items: readonly string[];
      }
    | undefined;
  /** Required parameters without an argument, their rows left to `unreadSources`. */
  readonly pendingFills: {
    readonly call: Call;
    readonly choice: number;
    readonly param: ParamSpec;
    readonly sources: Source[];
  }[] = [];
  /** The parameters filled from an unread output: variable, producer (its calls), the call, consumer call. */
  readonly unreadFeeds: {
    readonly v: number;
    readonly from: (call: Call) => boolean;
    /** The memory item the value comes from (`by` is then -1). */
    readonly item?: string;
    readonly by: number;
    readonly to: number;
    readonly chained: boolean;
  }[] = [];
  /**
   * Labels the run holds before the sequence (memory items, executed calls): no call of the repair takes one,
   * as its result would replace what is held (the validator's `duplicate_label`).
   */
  readonly held: ReadonlySet<string>;
  /** Steps that restate an executed call under its own label (`restatedSteps`): theirs to keep. */
  readonly restated: ReadonlySet<number>;
  /** parameter name -> labels whose outputs feed a parameter of that name somewhere in the sequence. */
  readonly feedsByParam = new Map<string, Set<string>>();
  /** parameter name -> the whole references passed to a parameter of that name, and their steps. */
  readonly wholeFeeds = new Map<string, { readonly step: number; readonly site: ReferenceSite }[]>();
  /** API, parameter and copied value -> the variables under which calls put in take that copy. */
  readonly twinCopies = new Map<string, number[]>();

  constructor(
    readonly steps: Sequence,
    readonly catalog: Catalog,
    readonly cost: CostModel,
    readonly options: CompileOptions,
  ) {
    this.builder = new ModelBuilder(options.budget ? new BudgetMeter(options.budget) : undefined);
    this.index = indexCatalog(catalog);
    this.refs = steps.map((s, i) => {
      const sites = stepReferences(s.arguments);
      // Sequences built in code skip the parser's checks: the same bound holds here.
      for (const param of Object.keys(s.arguments)) {
        const problem = referencesProblem(sites.filter((site) => site.param === param));
        if (problem) throw new BudgetExceeded('size', `step ${i + 1}, argument ${param}: ${problem}`);
      }
      return sites;
    });
    this.refs.forEach((sites, step) => {
      for (const site of sites) {
        if (!site.whole || site.at.length > 0) continue;
        let labels = this.feedsByParam.get(site.param);
        if (!labels) this.feedsByParam.set(site.param, (labels = new Set()));
        labels.add(site.ref.label);
        let feeds = this.wholeFeeds.get(site.param);
        if (!feeds) this.wholeFeeds.set(site.param, (feeds = []));
        feeds.push({ step, site });
      }
    });
    this.evidence = cost.evidence ?? DEFAULT_EVIDENCE;
    this.bounds = cost.bounds ?? DEFAULT_BOUNDS;
    // The hand-written scoring is the very default object, so that its answers are shared across models.
    const scoring = cost.mappings;
    this.scoring = {
      scoring: scoring === undefined || sameScoring(scoring, DEFAULT_SCORING) ? DEFAULT_SCORING : scoring,
    };
    const w = cost.weights;
    this.weights =
      options.mode === 'optimal'
        ? { ...w, perCall: w.perCall > 0 ? w.perCall : this.bounds.optimalPerCall, deleteStep: 0 }
        : w;
    this.memory = options.memory ?? {};
    this.held = new Set(heldLabels(this.memory, options.executed));
    this.restated = restatedSteps(steps, options.executed ?? []);
    this.repeats = executedRepeats(steps, options.executed ?? [], this.memory);
    for (const m of options.mappings ?? []) {
      let list = this.given.get(m.to);
      if (!list) this.given.set(m.to, (list = []));
      list.push(m);
    }
    if (options.givenOnly) {
      const given = new Set(steps.map((s) => s.name));
      this.allowed = (api) => given.has(api.name);
    } else this.allowed = null;
  }

  /**
   * The content words of the plan: its calls' names, the names of the arguments it passes and the keys of
   * its answer. An API whose name shares none of them is a stranger to it.
   */
  planWords(): ReadonlySet<string> {
    if (!this.words) {
      // The calls already executed are the plan's first part.
      const executed = this.options.executed ?? [];
      const words = planWords(
        [...executed, ...this.steps],
        (name) => this.index.byName.get(name),
        (i) => i >= executed.length && this.isAnswer(i - executed.length),
      );
      for (const w of this.commonWords()) words.delete(w);
      this.words = words;
    }
    return this.words;
  }

  private words: ReadonlySet<string> | undefined;

  /**
   * The words too common among the catalog's API names to relate anything: in more than `commonWordApis` of
   * them and more than `commonWordShare` (`track`, `date` among thousands of APIs; none in a catalog of 50).
   */
  commonWords(): ReadonlySet<string> {
    this.common ??= commonNameWords(
      this.index,
      Math.max(this.bounds.commonWordApis, this.bounds.commonWordShare * this.index.catalog.apis.length),
    );
    return this.common;
  }

  private common: ReadonlySet<string> | undefined;

  /** The content words of a name, less the catalog's common ones. */
  contentWords(name: string): string[] {
    const common = this.commonWords();
    return contentWords(name).filter((w) => !common.has(w));
  }

  /** The content words of an API's name, less the catalog's common ones. */
  apiWords(api: ApiSpec): ReadonlySet<string> {
    const common = this.commonWords();
    const own = apiWords(api);
    return common.size === 0 ? own : new Set([...own].filter((w) => !common.has(w)));
  }

  /**
   * Whether an API is related to the plan or to the value it would produce (`need`: a parameter or field
   * name, or its content words), the catalog's common words left out (`relatedTo`).
   */
  relatedTo(api: ApiSpec, need: string | readonly string[]): boolean {
    const needWords = typeof need === 'string' ? this.contentWords(need) : need;
    const named = catalogNameWords(this.index);
    return relatedTo(api, this.planWords(), needWords, this.bounds.misspeltWord, this.commonWords(), named);
  }

  /** The plan's calls: the executed ones first, then its steps but the answer. */
  planCalls(): readonly Step[] {
    this.made ??= [...(this.options.executed ?? []), ...this.steps.filter((_, i) => !this.isAnswer(i))];
    return this.made;
  }

  private made: readonly Step[] | undefined;

  /** Whether a call of the plan (an executed one included) calls API `name`. */
  callsApi(name: string): boolean {
    this.calledApis ??= new Set(this.planCalls().map((s) => s.name));
    return this.calledApis.has(name);
  }

  private calledApis: ReadonlySet<string> | undefined;

  /**
   * Of the APIs that could be one call (a deleted step's stand-ins, a need's producers): the habit features of
   * each. `foreignPrefix`: its name's first word no call of the plan starts with, while another candidate's
   * does. `foreignStyle`: its name is written unlike every call of the plan (`find_product_id` among
   * `Find_Customer` and `Place_Order`, `geoFindCity` among `Search_Hotels`), while another candidate's is
   * written like one. Where no candidate keeps a habit, that habit says nothing. A first word is kept only by a
   * candidate written like the plan's calls, where there is one: `find_product_id` does not make Search_Product
   * foreign among `Find_Customer` and `Place_Order` for starting with `find`.
   */
  outOfHabit(candidates: readonly ApiSpec[]): (api: ApiSpec) => Features {
    const calls = this.planCalls();
    this.prefixes ??= new Set(calls.flatMap((s) => words(s.name).slice(0, 1)));
    this.styles ??= new Set(calls.map((s) => nameStyle(s.name)));
    const styles = this.styles;
    const written = candidates.filter((api) => styles.has(styleOf(api)));
    const prefix = departs(written.length > 0 ? written : candidates, this.prefixes, firstWord);
    const style = departs(candidates, styles, styleOf);
    return (api) => ({ foreignPrefix: prefix(api) ? 1 : 0, foreignStyle: style(api) ? 1 : 0 });
  }

  private styles: ReadonlySet<string> | undefined;
  private prefixes: ReadonlySet<string> | undefined;

  /**
   * Whether the plan is a bag of unrelated requests: two calls or more, none of which reads another's output
   * (or any label but a memory item's), and no two of whose APIs share a content word (a payslip and a
   * rainfall record). Its missing values are more likely the user's than outputs of calls it does not make.
   */
  incoherent(): boolean {
    if (this.unrelated === undefined) {
      // The calls already executed are the plan's first part: their APIs count (a step repeating one is that
      // call), and so does a value one of them read from another's result.
      const calls = this.steps.flatMap((s, i) => (this.isAnswer(i) || this.repeats.has(i) ? [] : [i]));
      const executed = this.options.executed ?? [];
      // A reference to a label no step defines still shows a flow was written (`$var1.place_id$` with var1
      // lost); one to a memory item does only when the item is an executed call's result.
      const ran = new Set(executed.flatMap((s) => (s.label ? [s.label] : [])));
      const reads =
        calls.some((i) =>
          this.refs[i].some((site) => !this.inMemory(site.ref.label) || ran.has(site.ref.label)),
        ) || executed.some((s) => stepReferences(s.arguments).some((site) => ran.has(site.ref.label)));
      const words = [...executed, ...calls.map((i) => this.steps[i])].map((step) => {
        const api = this.index.byName.get(step.name);
        return api ? this.apiWords(api) : new Set(this.contentWords(step.name));
      });
      const related = words.some((a, x) => words.some((b, y) => y > x && [...a].some((w) => b.has(w))));
      this.unrelated = words.length >= 2 && !reads && !related;
    }
    return this.unrelated;
  }

  private unrelated: boolean | undefined;

  /**
   * Whether the sequence passes a literal to a parameter that names an id other than `param` (`pet_id="C-3310"`):
   * a plan whose author types identifiers in.
   */
  givesIds(param: string): boolean {
    if (this.literalIds === undefined) {
      const ids = new Set<string>();
      this.steps.forEach((step, i) => {
        if (this.isAnswer(i)) return;
        for (const [name, value] of Object.entries(step.arguments))
          if (namesAnId(name) && isLiteral(value) && typeof value !== 'boolean') ids.add(name);
      });
      this.literalIds = ids;
    }
    for (const name of this.literalIds) if (name !== param) return true;
    return false;
  }

  private literalIds: ReadonlySet<string> | undefined;

  /** Whether input step `i` is the answer pseudo-step: the last step, of the answer's name. */
  isAnswer(i: number): boolean {
    return isAnswerStep(this.steps, i, this.options.resultName);
  }

  /** Stops the compilation when its deadline has passed or it was cancelled (for loops that add no variable). */
  checkBudget(): void {
    this.builder.meter?.tick();
  }

  /** The weights in force: optimal mode prices every call and makes deleting one free. */
  readonly weights: Weights;

  get optimal(): boolean {
    return this.options.mode === 'optimal';
  }

  /** A variable with features `features`, charged their price. */
  variable(features: Features = NO_FEATURES): number {
    const v = this.builder.variable(this.price(features));
    this.features.push(features);
    return v;
  }

  /** What a decision with these features costs under the weights in force. */
  price(features: Features): number {
    return price(features, this.weights);
  }

  /** The variables under which `call` runs an API that outputs `path` (empty: cannot). */
  provides(call: Call, path: readonly PathSegment[]): number[] {
    return call.apis.filter((a) => a.api !== null && apiProvides(a.api, path) !== 'no').map((a) => a.v);
  }

  /** A reference that nothing before step `origin` resolves as written. */
  broken(origin: number, ref: Reference): boolean {
    for (let j = origin - 1; j >= 0; j--) {
      const s = this.steps[j];
      if (s.label !== ref.label) continue;
      const api = this.index.byName.get(s.name);
      return !api || apiProvides(api, ref.path) === 'no';
    }
    return !(this.inMemory(ref.label) && memoryProvides(this.memory[ref.label], ref.path));
  }

  /** Whether memory holds an item under `label`. */
  inMemory(label: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.memory, label);
  }

  /** The variables under which `call` is active (runs some API). */
  active(call: Call): number[] {
    return call.apis.map((a) => a.v);
  }

  labelled(call: Call): number[] {
    return call.labels.map((l) => l.v);
  }

  /** Calls placed before `pos`, nearest first. */
  before(pos: number): Call[] {
    let list = this.beforeCache.get(pos);
    if (!list || this.beforeCalls !== this.calls.length) {
      if (this.beforeCalls !== this.calls.length) this.beforeCache.clear();
      this.beforeCalls = this.calls.length;
      list = this.calls.filter((c) => c.pos < pos && c.kind !== 'result').sort((a, b) => b.pos - a.pos);
      this.beforeCache.set(pos, list);
    }
    return list;
  }

  private readonly beforeCache = new Map<number, Call[]>();
  private beforeCalls = -1;

  /**
   * A memory item is read only where no earlier call ends with its label (such a call shadows it): `v`, a
   * source that reads memory item `label` at `pos`, excludes every earlier call's choice of that label.
   */
  unshadowed(v: number, label: string, pos: number): void {
    for (const j of this.before(pos)) {
      for (const l of j.labels) if (l.label === label) this.builder.atMost([v, l.v], 1);
    }
  }

  /** Fields of `api` standing for `param` by name in context (none when catalog mappings are off). */
  contextFields(param: string | ParamSpec, api: ApiSpec): { field: OutputField; score: number }[] {
    if (this.options.catalogMappings === false) return [];
    const scores = {
      compound: this.evidence.compoundSuffix,
      entity: this.evidence.entitySuffix,
      described: this.evidence.describedId,
    };
    return contextFields(param, api)
      .map((c) => ({ field: c.field, score: scores[c.kind] }))
      .sort((a, b) => b.score - a.score || (a.field.path < b.field.path ? -1 : 1));
  }

  /** APIs that output the identifier of the entity `param` is described as (none without catalog mappings). */
  describedProducers(param: ParamSpec): readonly ApiSpec[] {
    return this.options.catalogMappings === false ? [] : describedProducers(this.catalog, param);
  }

  /** APIs with such a field (none when catalog mappings are off). */
  contextProducers(param: string): readonly ApiSpec[] {
    return this.options.catalogMappings === false ? [] : contextProducers(this.catalog, param);
  }

  /**
   * What this compile's answers about catalog names are shared under across compiles of the catalog, or
   * null when the compile shapes them itself (an allow-list, given mappings, its own mapping scoring).
   */
  catalogAnswersKey(): string | null {
    if (this.allowed || this.given.size > 0 || this.scoring.scoring !== DEFAULT_SCORING) return null;
    return this.options.catalogMappings === false ? 'plain' : 'mapped';
  }

  /**
   * The mappings `from -> param` (a mapped output leaf feeding `param`): the given table over the one
   * computed from the catalog (a pair in both keeps its higher score), best first.
   */
  mappedFrom(param: string): Mapping[] {
    let list = this.mappingsTo.get(param);
    if (!list) {
      list = mappingsInForce(
        this.given.get(param) ?? [],
        this.options.catalogMappings === false ? [] : mappingsInto(this.catalog, param, this.scoring),
      );
      this.mappingsTo.set(param, list);
    }
    return list;
  }
}

/** The label a call is known by: a restored call's, or the original step's (inserted calls: none). */
const DEFAULT_EVIDENCE = EvidenceSchema.parse({});

function sameScoring(a: MappingScoring, b: MappingScoring): boolean {
  return (Object.keys(b) as (keyof MappingScoring)[]).every((k) => a[k] === b[k]);
}
const DEFAULT_BOUNDS = BoundsSchema.parse({});

/** The first word of an API's name (once per API). */
const firstWord = perObject((api: ApiSpec): string | undefined => words(api.name)[0]);

/** How an API's name is written (once per API; see nameStyle). */
const styleOf = perObject((api: ApiSpec): string => nameStyle(api.name));

/**
 * Memoises `compute` per compile and key: held by the context, so it dies with its compile (for what one
 * compile asks about again and again, and the next compile must not see).
 */
export function perCompile<K, V>(
  compute: (ctx: CompileContext, key: K) => V,
): (ctx: CompileContext, key: K) => V {
  const memos = new WeakMap<CompileContext, Map<K, V>>();
  return (ctx, key) => {
    let memo = memos.get(ctx);
    if (!memo) memos.set(ctx, (memo = new Map()));
    if (!memo.has(key)) memo.set(key, compute(ctx, key));
    return memo.get(key)!;
  };
}

/**
 * Whether an API departs from a habit of the plan (`kept`: what its calls have, `key`: what an API has): when
 * some candidate keeps it, every candidate that does not.
 */
function departs(
  candidates: readonly ApiSpec[],
  kept: ReadonlySet<string>,
  key: (api: ApiSpec) => string | undefined,
): (api: ApiSpec) => boolean {
  const departing = (api: ApiSpec) => {
    const k = key(api);
    return k === undefined || !kept.has(k);
  };
  const habit = candidates.some((api) => !departing(api));
  return (api) => habit && departing(api);
}

export function knownLabel(ctx: CompileContext, call: Call): string {
  if (call.restores !== undefined) return call.restores;
  return call.origin >= 0 ? (ctx.steps[call.origin].label ?? '') : '';
}
