/**
 * Argument healing: mechanical fixes to what a model wrote, made before the optimiser sees the sequence.
 * Each fix is a recorded edit with its own weight, and each kind can be turned off.
 */
import type { Sequence } from '../model/types.ts';

/**
 * `repairJson`: an argument string that is not valid JSON, repaired (quotes, commas, brackets, fences).
 * `unpackJson`: a string holding a JSON object/array, passed to an `object`/`array` parameter, unpacked.
 * `coerce`: `"5"` for a `number`/`integer` parameter, `"true"`/`"false"` for a `boolean` one.
 */
export type HealKind = 'repairJson' | 'unpackJson' | 'coerce';

export const HEAL_KINDS: readonly HealKind[] = ['repairJson', 'unpackJson', 'coerce'];

/** One healing fix. Step indexes refer to the input calls. */
export interface HealEdit {
  readonly kind: HealKind;
  readonly step: number;
  /** The parameter whose value changed; absent for `repairJson` (the whole argument text). */
  readonly param?: string;
  /** The value before, as JSON text (for `repairJson`, the raw argument text). */
  readonly from: string;
  /** The value after, as JSON text. */
  readonly to: string;
  readonly cost: number;
  readonly detail: string;
}

export type HealWeights = { readonly [K in HealKind]: number };

/** Healing is cheaper than any optimiser edit: it never changes what the model meant. */
export const DEFAULT_HEAL_WEIGHTS: HealWeights = { repairJson: 0.5, unpackJson: 0.25, coerce: 0.25 };

export interface HealOptions {
  /** Repair malformed JSON argument strings (default true). */
  readonly repairJson?: boolean;
  /** Unpack stringified JSON for object/array parameters (default true). */
  readonly unpackJson?: boolean;
  /** Coerce numeric and boolean strings for number/integer/boolean parameters (default true). */
  readonly coerce?: boolean;
  readonly weights?: Partial<HealWeights>;
  /** Name of the answer pseudo-step (default `var_result`). */
  readonly resultName?: string;
}

export interface Healed {
  readonly sequence: Sequence;
  readonly edits: readonly HealEdit[];
  /** Sum of the edits' costs. */
  readonly cost: number;
}

/** The weight of one kind under `options`. */
export function healWeight(kind: HealKind, options: HealOptions = {}): number {
  return options.weights?.[kind] ?? DEFAULT_HEAL_WEIGHTS[kind];
}
