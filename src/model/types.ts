/**
 * The domain model shared by every pipeline stage. External shapes (NESTFUL files, OpenAI tool
 * definitions, the string form) are parsed by `src/read/` into these normalised, readonly types.
 */

/** Any JSON value an argument can hold. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** A declared value type, normalised from the many spellings found in catalogs. `any` = undeclared. */
export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'any';

/** One input parameter of a catalog API. */
export interface ParamSpec {
  readonly name: string;
  readonly type: ValueType;
  readonly required: boolean;
  /** Allowed literal values; absent or empty = unconstrained. */
  readonly enum?: readonly Json[];
  readonly description?: string;
  readonly default?: Json;
  /**
   * Left unmarked in a parameter map that marks its optional parameters and none required: optional as read,
   * required by that map's own convention (the repair model treats it as required; see `impliedCatalog`).
   */
  readonly impliedRequired?: boolean;
}

/**
 * One output path of an API. Paths are normalised: object keys joined by `.`, array elements as `[]`
 * (`author[].id`). Every prefix of a nested path is an output too (`navigation` and `navigation.entityId`).
 */
export interface OutputField {
  readonly path: string;
  readonly type: ValueType;
  readonly description?: string;
  /** True when the field is an object/array whose inner shape is undeclared: deeper paths are accepted. */
  readonly open?: boolean;
}

/** A catalog API (tool). */
export interface ApiSpec {
  readonly name: string;
  readonly description: string;
  readonly params: readonly ParamSpec[];
  /** `null` = outputs unknown: references into this API's output are reported as unchecked, not as errors. */
  readonly outputs: readonly OutputField[] | null;
}

/** A tool catalog. Names are unique. */
export interface Catalog {
  readonly apis: readonly ApiSpec[];
}

/** One call of a sequence. `label` is the name its output is stored under (`var1`). */
export interface Step {
  readonly name: string;
  readonly arguments: { readonly [param: string]: Json };
  readonly label?: string;
}

/** A tool-call sequence. The last step may be the answer pseudo-step (`var_result` by default). */
export type Sequence = readonly Step[];

/** Items already in memory: `{ var1: { skyId: "NYCA" } }`; a key is a label, its value the stored output. */
export type Memory = { readonly [label: string]: Json };

/** A path segment of a reference: an object key or an array index. */
export type PathSegment = string | number;

/** A reference `$label.path$` found inside an argument value. */
export interface Reference {
  readonly label: string;
  readonly path: readonly PathSegment[];
  /** The exact text, `$` to `$`. */
  readonly raw: string;
}

/** Where a reference sits: inside which argument, at which JSON path of its value, which occurrence. */
export interface ReferenceSite {
  readonly param: string;
  /** Keys/indexes from the argument value down to the string holding the reference. */
  readonly at: readonly PathSegment[];
  /** Index among the references of that string. */
  readonly index: number;
  /** True when the reference is the whole string (`"$var1.skyId$"`), false inside longer text. */
  readonly whole: boolean;
  readonly ref: Reference;
}

export type IssueTag =
  | 'unknown_api'
  | 'unknown_parameter'
  | 'missing_parameter'
  | 'unknown_label'
  | 'unknown_field'
  | 'duplicate_label'
  | 'forward_reference'
  | 'type_mismatch'
  | 'enum_mismatch'
  | 'unchecked_reference'
  | 'empty_sequence'
  | 'tries_exceeded';

/** A finding of the validator. `error`s make a sequence non-executable; `warning`s do not. */
export interface Issue {
  readonly tag: IssueTag;
  readonly severity: 'error' | 'warning';
  /** 0-based step index. */
  readonly step: number;
  readonly param?: string;
  readonly ref?: string;
  readonly message: string;
}

/** The kinds of edit a repair makes, each also the name of its indicator feature (FEATURES). */
export const EDIT_KINDS = [
  'deleteStep',
  'renameApi',
  'renameParam',
  'dropParam',
  'reassign',
  'newMap',
  'slotFill',
  'fromMemory',
  'reuseLiteral',
  'unreadOutput',
  'insertCall',
  'restoreStep',
  'relabel',
  'addLabel',
  'moveStep',
  'confirm',
] as const;

export type EditKind = (typeof EDIT_KINDS)[number];

/**
 * Edit kinds that fix how the plan's calls are written, not what flows between them: a name spelt wrong, a
 * label missing or wrong, calls out of order, an argument the API does not take, a call repeated or one no
 * API is close to. A repair of these alone supplies no value, call or link of its own.
 */
export const FORM_KINDS: ReadonlySet<EditKind> = new Set<EditKind>([
  'renameApi',
  'renameParam',
  'dropParam',
  'relabel',
  'addLabel',
  'moveStep',
  'deleteStep',
]);

/** One edit of a repair, with the cost the model charged for it. Step indexes refer to the input. */
export interface Edit {
  readonly kind: EditKind;
  /** Input step index; for inserted calls, the gap (the input step it is placed before). */
  readonly step: number;
  readonly param?: string;
  readonly from?: string;
  readonly to?: string;
  readonly cost: number;
  readonly detail: string;
}

/** Mapping table: an output field name that may feed an input parameter of another name, with a score in (0,1]. */
export interface Mapping {
  readonly from: string;
  readonly to: string;
  readonly score: number;
}
