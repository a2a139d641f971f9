/**
 * The inverse data of a compiled model: which variable means which edit. `decode` needs only this and
 * the solver's values.
 */
import type { ApiSpec, Json, PathSegment, ReferenceSite, Sequence } from '../model/types.ts';
import type { Features } from '../model/features.ts';

export type CallKind = 'original' | 'moved' | 'inserted' | 'result';

/** Run the call as `api` (null for the answer pseudo-step). */
export interface ApiChoice {
  readonly api: ApiSpec | null;
  readonly v: number;
  readonly cost: number;
}

/** End the call with `label`; null = a fresh label made up by the decoder. */
export interface LabelChoice {
  readonly label: string | null;
  readonly v: number;
  readonly cost: number;
}

export type Source =
  | { readonly kind: 'arg'; readonly v: number; readonly cost: number; readonly arg: string }
  | {
      readonly kind: 'output';
      readonly v: number;
      readonly cost: number;
      readonly call: number;
      readonly path: readonly PathSegment[];
      readonly mapped: boolean;
      /** Taken from an output no other call reads, under another name (`unreadOutput`). */
      readonly unread?: boolean;
      /** Taken from an output of another name by evidence alone (`linkAny`, see links.ts). */
      readonly linked?: boolean;
      /** The same reference another call (this input step) passes to a parameter of this name. */
      readonly fromStep?: number;
    }
  | {
      readonly kind: 'memory';
      readonly v: number;
      readonly cost: number;
      readonly label: string;
      readonly path: readonly PathSegment[];
      readonly mapped: boolean;
      /** The same reference another call (this input step) passes to a parameter of this name. */
      readonly fromStep?: number;
      /** Taken from an item no call reads, under another name (`unreadOutput`). */
      readonly unread?: boolean;
      /** The same reference the executed call of this index passed to a parameter of this name. */
      readonly fromExecuted?: number;
    }
  | {
      readonly kind: 'literal';
      readonly v: number;
      readonly cost: number;
      readonly value: Json;
      /** The step that passes it (-1: a goal value, or an executed call's: `fromExecuted`). */
      readonly fromStep: number;
      /** The executed call that passed it (its index among the executed calls). */
      readonly fromExecuted?: number;
      /** The API's own default (a restored call of a plan written in full). */
      readonly defaulted?: boolean;
      /** Copied from a parameter of another name (`copyAny`, see links.ts). */
      readonly copiedFrom?: string;
    }
  | { readonly kind: 'ask'; readonly v: number; readonly cost: number };

export interface ParamPlan {
  /** Index into the call's `apis`. */
  readonly choice: number;
  readonly param: string;
  readonly required: boolean;
  readonly sources: readonly Source[];
}

export type TokenOption =
  | {
      readonly kind: 'keep';
      readonly v: number;
      readonly cost: number;
      /** Producer call, or null for a memory item. */
      readonly call: number | null;
      /** The producer's label is one the run held: it took another, which the reference follows. */
      readonly follows?: true;
    }
  | {
      readonly kind: 'reassign';
      readonly v: number;
      readonly cost: number;
      /** Producer call, or null for a memory item. */
      readonly call: number | null;
      readonly memoryLabel?: string;
      readonly path: readonly PathSegment[];
      /** The producer read under the label the reference names, which it takes instead of its own (its variable). */
      readonly via?: number;
    }
  | {
      /** The reference becomes `$slot$`, answered by the shared ask `ask` (an index into `Plan.asks`). */
      readonly kind: 'ask';
      readonly v: number;
      readonly cost: number;
      readonly ask: number;
    };

/** An ask shared by every reference to the same missing value: one question, charged once. */
export interface SharedAsk {
  readonly v: number;
  readonly cost: number;
  /** The slot asked for (its answer's label). */
  readonly slot: string;
  /**
   * The label the answer takes as it is: a reference to a value no step or memory item holds, written as a
   * whole label that names the parameter (`date="$date$"`), is answered under that very label.
   */
  readonly label?: string;
  /** The token options that read the answer. */
  readonly uses: number[];
}

/** A call's `ask` source for a required parameter it has no value for. */
export interface SlotAsk {
  readonly call: Call;
  /** The API of the call's choice that takes the parameter. */
  readonly api: string;
  readonly param: string;
  readonly v: number;
  readonly cost: number;
}

/**
 * One call reads the answer to another call's `ask` for a parameter of the same name (the two are calls of
 * different APIs: the same API twice with one value is a sibling copy). `v` is on when it does; it carries a
 * rebate (a negative cost, a tie-break) so that one question is preferred to two (see `slotShareRows`).
 */
export interface SlotShare {
  readonly v: number;
  /** The `ask` source variable of the call that asks. */
  readonly asker: number;
  /** The `ask` source variable of the call that reads the same answer. */
  readonly reader: number;
  readonly rebate: number;
}

/** The references inside one original argument value, each with its options. */
export interface TokenPlan {
  readonly arg: string;
  readonly site: ReferenceSite;
  readonly options: readonly TokenOption[];
  /** The sources that pass the argument on (`arg` sources): the options sum to theirs. */
  readonly uses: readonly number[];
}

export interface Call {
  readonly id: number;
  readonly kind: CallKind;
  /** Original step index (for original, moved and result calls); -1 for inserted calls. */
  readonly origin: number;
  /** Position in the repaired order (original step i sits at i; gaps hold fractions). */
  readonly pos: number;
  readonly depth: number;
  readonly apis: ApiChoice[];
  /** Deletion variable (original calls only). */
  deleteVar?: number;
  /**
   * The input step makes a call the plan has already made (an earlier step, or an executed call whose result
   * memory holds): deleting it drops a repeat.
   */
  repeat?: boolean;
  readonly labels: LabelChoice[];
  readonly params: ParamPlan[];
  readonly tokens: TokenPlan[];
  /** Why an inserted call was proposed (the field it can produce). */
  readonly need?: string;
  /** The input step an inserted call was proposed for (the call that lacks its need), when one is. */
  readonly consumer?: number;
  /** A restored call: the deleted step it puts back, known by this label. */
  readonly restores?: string;
  /**
   * A call put back for a memory item that holds nothing (the call that should have produced it returned
   * nothing), known by this label: it runs again under a fresh label, and the item's readers read it.
   */
  readonly reruns?: string;
  /** An inserted call under the label the count skips there (a deleted step nothing references). */
  readonly fills?: string;
  /** A restored or inserted call's optional values, as the step that reads it passes them under the same names (and where). */
  readonly carried?: ReadonlyMap<string, Carried>;
  /**
   * How many catalog APIs could be this inserted or put-back call (the producers of what it was proposed
   * for, the stand-ins of its deleted step): the one of many that a repair picks is a guess.
   */
  readonly standIns?: number;
  /** A moved copy: what the move alone costs (the rest of its API choice's cost is a rename). */
  readonly moveCost?: number;
}

/** An optional value a restored call takes: as a step passes it (`step`), or its API's default (step -1). */
export interface Carried {
  readonly value: Json;
  readonly step: number;
  /** The API's own default, spelt out as the plan spells its calls' defaults. */
  readonly defaulted?: boolean;
}

export interface Plan {
  readonly steps: Sequence;
  readonly calls: Call[];
  /** Constant part of the objective (arguments dropped unless kept). */
  readonly offset: number;
  readonly resultName: string;
  /** Edit cost of each variable, index = variable (the model's objective is this plus `ties`). */
  readonly costs: readonly number[];
  /** The features of each variable, index = variable: its cost is their price under the model's weights. */
  readonly features: readonly Features[];
  /** The features of the objective's constant part (`offset`: every original argument's drop). */
  readonly offsetFeatures: Features;
  /** The uniqueness tie-break of each variable (ties.ts): in the objective, in no reported cost. */
  readonly ties: readonly number[];
  /** What dropping each original argument costs, by `argumentKey(step, argument)` (sources.ts). */
  readonly dropCosts: ArgumentDropCosts;
  /** The features of dropping each original argument, by `argumentKey`. */
  readonly drops: ArgumentDrops;
  /** Labels that cannot be used for fresh names (input labels, memory items, referenced labels). */
  readonly takenLabels: ReadonlySet<string>;
  /** Step index -> the executed call's label whose result (in memory) a repeat of it reads when it goes. */
  readonly reused: ReadonlyMap<number, string>;
  /** Defensive mode: a `confirm` pseudo-step for every invented value. */
  readonly defensive: boolean;
  readonly confirmCost: number;
  /** Asks shared by the references to one missing value. */
  readonly asks: readonly SharedAsk[];
  /** Parameter asks whose answer another call reads. */
  readonly slotShares: readonly SlotShare[];
}

/** What dropping each original argument costs, by `argumentKey`. */
export type ArgumentDropCosts = ReadonlyMap<string, number>;

/** The features of dropping each original argument, by `argumentKey`. */
export type ArgumentDrops = ReadonlyMap<string, Features>;

/** The key of an original step's argument in `ArgumentDropCosts`. */
/** The catalog APIs a call may be (its choices that name one). */
export function callApis(call: Call): ApiSpec[] {
  return call.apis.flatMap((c) => (c.api ? [c.api] : []));
}

export function argumentKey(step: number, arg: string): string {
  return `${step}\u0000${arg}`;
}

/** How a dangling label is used: what a deleted step under it must have output. */
export interface Uses {
  /** The referenced paths (non-empty ones). */
  readonly paths: readonly (readonly PathSegment[])[];
  /** The names the whole output is used under (answer keys, parameters). */
  readonly names: readonly string[];
  /** The parameters a referenced field feeds whole (`artist_id` for `$var1.results[0].id$`). */
  readonly feeds: readonly { readonly param: string; readonly path: string }[];
  /** The first step that references the label. */
  readonly first: number;
  /** The APIs of the calls (the answer aside) that reference the label. */
  readonly readers: readonly string[];
}

export interface StandIn {
  readonly api: ApiSpec;
  /** How well the API's name matches the names its output is used under (1 when there are none). */
  readonly evidence: number;
  /** Likeness of its name to the sequence's own calls (the same family of APIs), for ties. */
  readonly family: number;
  /** The share of its name's words that the names its output is used under use (0 when there are none). */
  readonly share: number;
}

/** A dangling label read as a deleted step: its uses and the APIs that can stand for it, best first. */
export interface DeletedStep {
  readonly uses: Uses;
  readonly standIns: readonly StandIn[];
}
