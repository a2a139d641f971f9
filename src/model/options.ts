/**
 * The library's request and result types: what `validate` and `repair` take and return. Every front end
 * (CLI, batch, server, loop) speaks these.
 */
import type { Edit, Issue, Json, Mapping, Memory, Sequence } from './types.ts';
import type { CostModel } from './cost.ts';
import type { SolverBackend } from './milp.ts';

import type { Mode, SolverName, Status, Strictness } from './constants.ts';

export interface ValidateOptions {
  /** Items already in memory (labels and their outputs). */
  readonly memory?: Memory;
  /** Name of the answer pseudo-step (default `var_result`). */
  readonly resultName?: string;
  /** Literal type/enum checks: `off`, `warn` (warnings), `strict` (errors). Default `warn`. */
  readonly types?: Strictness;
  /**
   * Read steps named `ask`/`confirm` that no catalog API bears as the pseudo-steps of a repair (their
   * labels hold whole values): valid, though not executable. Default true; `false` reports them as
   * unknown APIs.
   */
  readonly pseudoSteps?: boolean;
  /**
   * The calls already executed, in order (an agent runtime's history). They count against `maxTries`, and a
   * planned call that repeats one whose result memory holds under its label may read that result instead.
   */
  readonly executed?: Sequence;
  /**
   * Most times one call (API and arguments, references read as the calls they come from) may run, the
   * executed calls included. Off by default; a repair that cannot keep to it has status `exhausted`.
   */
  readonly maxTries?: number;
}

export interface Validation {
  /** True when no issue has severity `error`. */
  readonly valid: boolean;
  readonly issues: readonly Issue[];
}

/**
 * Goals (modes `valid` and `optimal`): APIs that must be called, fields that must exist at the end (produced
 * by a kept call or already in memory), and calls that must be made with given parameter values.
 */
export interface Goals {
  readonly apis?: readonly string[];
  readonly fields?: readonly string[];
  readonly steps?: readonly {
    readonly name: string;
    readonly arguments: { readonly [param: string]: Json };
  }[];
}

export interface RepairOptions extends ValidateOptions {
  readonly cost?: CostModel;
  /** A mapping table used on top of the catalog's own (computed) mappings. */
  readonly mappings?: readonly Mapping[];
  /**
   * Compute the field -> parameter mappings from the catalog itself (names, shared suffixes, descriptions)
   * and use them in every repair (default true); `false` uses only `mappings`.
   */
  readonly catalogMappings?: boolean;
  readonly solver?: SolverName;
  /** A backend instance to solve with instead of the shared `solver` (custom solvers, fault injection). */
  readonly backend?: SolverBackend;
  /** Consider only APIs already used in the sequence. */
  readonly givenOnly?: boolean;
  /** Time limit of the repair in seconds, compiling and solving (the solver gets what is left). */
  readonly timeout?: number;
  /**
   * Wall-clock deadline (`Date.now()` milliseconds) of the whole request or record this repair belongs
   * to; the earlier of it and `timeout` holds.
   */
  readonly deadline?: number;
  /** Aborted when the request is cancelled (its client went away): the repair stops at the next check. */
  readonly signal?: AbortSignal;
  /** Allow inserting new calls (default true). */
  readonly allowInsert?: boolean;
  readonly goals?: Goals;
  readonly mode?: Mode;
  readonly defensive?: boolean;
  /** Return up to this many distinct repairs (as sequences), in order of cost. */
  readonly fixes?: number;
  /**
   * Read the repair's confidence (a second solve, with the chosen decisions cut; default true). The
   * confidence needs a calibration in the cost model; `false` skips the second solve.
   */
  readonly confidence?: boolean;
  /**
   * A repair whose confidence is below this (0..1) gets status `uncertain` instead of `repaired`: the repair
   * stays in the result, flagged. Needs a calibrated cost model (and the confidence not skipped); a partial,
   * exhausted or timed-out repair keeps its own, worse status. Default: none (no repair is held back).
   */
  readonly minConfidence?: number;
  /** Return the evidence the confidence is read from (`evidence`), for `refract calibrate`. */
  readonly confidenceEvidence?: boolean;
  /** Refuse models with more variables than this (default 200,000), checked while the model is built. */
  readonly maxModelVars?: number;
  /** Refuse models with more non-zero coefficients than this (default 2,000,000), checked likewise. */
  readonly maxModelNonzeros?: number;
}

/** A call of a repair that would run more often than `maxTries` allows (status `exhausted`). */
export interface TriesExceeded {
  /** 0-based index of the step in the repaired sequence. */
  readonly step: number;
  readonly name: string;
  /** How often the call would have run with this step: the executed ones, then the sequence's up to here. */
  readonly tries: number;
  /** How many of those were executed already. */
  readonly executed: number;
}

/** An input call a repair had to drop although calls are kept, and why. */
export interface DroppedStep {
  /** 0-based input step index. */
  readonly step: number;
  readonly name: string;
  readonly reason: string;
}

/** One alternative repair. */
export interface Fix {
  readonly sequence: Sequence;
  readonly edits: readonly Edit[];
  readonly cost: number;
  /**
   * The calibrated probability that this fix is the intended plan: fix 1's is the repair's; the others' need a
   * calibration with `alternatives`. Two fixes can both be right (they may differ in labels only).
   */
  readonly confidence?: number;
  /** With `confidenceEvidence`, on fix 2, 3, …: what its confidence is read from (ALTERNATIVE_EVIDENCE). */
  readonly evidence?: Readonly<Record<string, number>>;
}

export interface RepairResult {
  /** true = executable as given; false = not (a repair follows); null = undecided (time-out, fault). */
  readonly determination: boolean | null;
  readonly status: Status;
  /** The repaired sequence (or the input when valid / undecided). */
  readonly sequence: Sequence;
  readonly edits: readonly Edit[];
  readonly cost: number;
  /** True when the solver proved the repair optimal (or nothing needed repair). */
  readonly optimal: boolean;
  /** Issues of the input sequence. */
  readonly issues: readonly Issue[];
  /** Refraction-style diff: `-` removed, `+` added, `?` asked/confirmed lines. */
  readonly diff: string;
  readonly solver: string;
  readonly timeMs: number;
  /** True when the repaired sequence has no `ask`/`confirm` pseudo-step. */
  readonly isExecutable?: boolean;
  /** Status `exhausted`: the calls that would run more often than `maxTries` allows. */
  readonly exhausted?: readonly TriesExceeded[];
  /** Status `partial`: the input calls the repair had to drop, and why. */
  readonly dropped?: readonly DroppedStep[];
  readonly reason?: string;
  readonly gap?: number;
  /**
   * The calibrated probability that the repair is the intended plan (modulo values no repair can know):
   * 1 for a valid input; absent when undecided, skipped, or the cost model has no calibration.
   */
  readonly confidence?: number;
  /** With `confidenceEvidence`: what the confidence was read from (src/model/calibration.ts). */
  readonly evidence?: Readonly<Record<string, number>>;
  readonly fixes?: readonly Fix[];
  readonly model?: { readonly vars: number; readonly rows: number };
}
