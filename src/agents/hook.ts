/**
 * The hook for agent loops: check the tool calls a model just emitted before executing them. Malformed
 * argument JSON is healed, the calls are validated, and a broken list is repaired by the optimiser.
 *
 * ```ts
 * const check = await checkToolCalls(message.tool_calls, { catalog, memory });
 * if (check.executable) run(check.calls); else messages.push({ role: 'user', content: check.feedback });
 * ```
 */
import { InputError, parseAt } from '../model/errors.ts';
import { isPlainObject, kindOf, own } from '../read/json.ts';
import { catalogArgument, optionsArgument } from '../api/arguments.ts';
import { REQUEST_FIELDS } from '../api/request.ts';
import type { Check } from '../api/arguments.ts';
import type { Catalog, Sequence } from '../model/types.ts';
import { parseExecuted } from '../read/sequence.ts';
import { parseMemory } from '../read/memory.ts';
import { feedback, type FeedbackFormat } from '../feedback/index.ts';
import { totalCost } from '../heal/index.ts';
import type { HealEdit, HealOptions } from '../heal/types.ts';
import { healValues } from '../heal/values.ts';
import { isExecutable, repair } from '../repair/repair.ts';
import type { RepairOptions, RepairResult } from '../model/options.ts';
import { validate } from '../validate/validate.ts';
import { isHeldBack } from '../model/constants.ts';
import { originOf, toSequence, toToolCalls, type ExecutableCall, type ToolCall } from './toolcalls.ts';
import { stepNumber } from '../model/numbers.ts';

export interface CheckOptions extends RepairOptions, HealOptions {
  readonly catalog: Catalog;
  /**
   * Apply a repair only when its confidence is at least this (0..1); below, `executable` is false and the
   * feedback (with the repair as a suggestion) goes back to the model. Needs a calibrated cost model (the
   * shipped default is one). Default: none, every executable repair is applied.
   */
  readonly minConfidence?: number;
  /** What `feedback` holds (default `suggestions`: the issues and the optimiser's fix). */
  readonly feedback?: FeedbackFormat;
}

/**
 * The hook's options as a caller gives them: the calls already executed may also be tool calls as the model
 * wrote them (whose ids memory keeps their results under); `checkOptions` reads them into `CheckOptions`.
 */
export type HookOptions = Omit<CheckOptions, 'executed'> & {
  readonly executed?: Sequence | readonly ToolCall[];
};

/**
 * An adapter's options, built once: `memory` and `executed` may be functions read at every check, for an agent
 * whose memory grows turn by turn (a value is read once, when the adapter is built).
 */
export type AdapterOptions = Omit<HookOptions, 'catalog' | 'memory' | 'executed'> & {
  readonly memory?: HookOptions['memory'] | (() => HookOptions['memory']);
  readonly executed?: HookOptions['executed'] | (() => HookOptions['executed']);
};

/**
 * The checked options of each check an adapter makes with `catalog`: checked once now when nothing is read
 * at check time, else checked now without what is (a bad option fails here) and again at every check.
 */
export function adapterOptions(
  options: AdapterOptions,
  catalog: Catalog,
  name = 'options',
): () => CheckOptions {
  const { memory, executed, ...fixed } = options;
  const now = <T>(value: T | (() => T)): T => (typeof value === 'function' ? (value as () => T)() : value);
  const read = () =>
    checkOptions(
      {
        ...fixed,
        ...(memory !== undefined ? { memory: now(memory) } : {}),
        ...(executed !== undefined ? { executed: now(executed) } : {}),
        catalog,
      },
      name,
    );
  if (typeof memory !== 'function' && typeof executed !== 'function') {
    const once = read();
    return () => once;
  }
  checkOptions({ ...fixed, catalog }, name);
  return read;
}

export interface CheckResult {
  /** True when the calls can run exactly as given: readable, valid, nothing healed. */
  readonly ok: boolean;
  /** True when `calls` may be executed (as given or repaired); false when a value must come from the user. */
  readonly executable: boolean;
  /** The calls to execute: the input when `ok`, the healed/repaired ones when executable, else `[]`. */
  readonly calls: readonly ExecutableCall[];
  /** The optimiser's answer on the healed calls; `null` when `ok` or when the calls could not be read. */
  readonly repair: RepairResult | null;
  readonly heal: readonly HealEdit[];
  /** `calls` as a sequence (labels `var1`...), or the healed input when nothing is executable. */
  readonly sequence: Sequence;
  /** Healing plus repair cost. */
  readonly cost: number;
  /** Text for the model: the chosen feedback format, preceded by the argument fixes. */
  readonly feedback: string;
}

/** The input call itself when it is already in executable shape, else a normalised copy. */
function asExecutable(call: unknown, step: Sequence[number], index: number): ExecutableCall {
  if (isPlainObject(call) && typeof own(call, 'id') === 'string' && own(call, 'type') === 'function') {
    const fn = own(call, 'function');
    const args = isPlainObject(fn) ? own(fn, 'arguments') : undefined;
    if (typeof args === 'string' && args.trim() !== '') return call as unknown as ExecutableCall;
  }
  return toToolCalls([step], [index], [call])[0];
}

function unreadable(error: InputError, format: FeedbackFormat): CheckResult {
  const text =
    format === 'verdict'
      ? 'verdict: not valid'
      : `not valid: 1 error, 0 warnings\n- [unreadable] ${error.message}`;
  return {
    ok: false,
    executable: false,
    calls: [],
    repair: null,
    heal: [],
    sequence: [],
    cost: 0,
    feedback: text,
  };
}

const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** `step 2: coerce adults "2" -> 2 (cost 0.25): string coerced to the declared type` (steps 1-based). */
export function formatHealEdit(edit: HealEdit): string {
  const param = edit.param === undefined ? '' : ` ${edit.param}`;
  return `step ${stepNumber(edit.step)}: ${edit.kind}${param} ${clip(edit.from)} -> ${clip(edit.to)} (cost ${edit.cost}): ${edit.detail}`;
}

function withHealNotes(text: string, heal: readonly HealEdit[], format: FeedbackFormat): string {
  if (heal.length === 0 || format === 'verdict') return text;
  return ['argument fixes:', ...heal.map((e) => `- ${formatHealEdit(e)}`), text].join('\n');
}

/**
 * The hook's options checked at the edge: a parsed catalog, the repair options, a feedback format. The
 * package's entry points run it once per call (src/library/front.ts) or once per built hook (the AI SDK and
 * LangChain adapters); the core below trusts its options.
 */
/** The hook's own options, beside the repair and heal options `optionsArgument` knows. */
const HOOK_OPTION_NAMES = ['catalog', 'feedback'] as const;

export function checkOptions(options: unknown, name = 'options'): CheckOptions {
  if (!isPlainObject(options)) throw new InputError(name, `expected object, received ${kindOf(options)}`);
  const catalog = catalogArgument(options.catalog, `${name}.catalog`);
  parseAt(REQUEST_FIELDS.feedback, options.feedback, [name, 'feedback']);
  // The calls already executed may be tool calls as the model wrote them, as the calls checked are: labelled
  // by their ids where memory keeps results so, else by place.
  const executed = options.executed;
  const toolCallsRan =
    Array.isArray(executed) && executed.some((call) => isPlainObject(call) && 'function' in call);
  const given = toolCallsRan
    ? {
        ...options,
        executed: parseExecuted(
          executed,
          options.memory === undefined ? undefined : parseMemory(options.memory, `${name}.memory`),
          {
            root: `${name}.executed`,
            resultName: typeof options.resultName === 'string' ? options.resultName : undefined,
          },
        ),
      }
    : options;
  return { ...optionsArgument<CheckOptions>(given, catalog, name, HOOK_OPTION_NAMES), catalog };
}

/** `checkOptions` as an argument check for `checked` / `checkedAsync`. */
export const hookOptions: Check = (value, name) => checkOptions(value, name);

/** Checks (and, when needed, heals and repairs) an OpenAI-style list of tool calls. */
export async function checkToolCalls(
  toolCalls: readonly (ToolCall | unknown)[],
  options: CheckOptions,
): Promise<CheckResult> {
  const { catalog } = options;
  const format = options.feedback ?? 'suggestions';
  let parsed: ReturnType<typeof toSequence>;
  try {
    parsed = toSequence(toolCalls, catalog, options);
  } catch (error) {
    if (error instanceof InputError) return unreadable(error, format);
    throw error;
  }
  const { sequence, heal } = parsed;
  const validation = validate(sequence, catalog, options);
  const context = { sequence, catalog, validation, memory: options.memory, resultName: options.resultName };
  // A call named `ask` or `confirm` that no tool bears is a question for the user: valid, not executable.
  if (validation.valid && heal.length === 0 && isExecutable(sequence, catalog)) {
    const calls = sequence.map((step, i) => asExecutable(toolCalls[i], step, i));
    return {
      ok: true,
      executable: true,
      calls,
      repair: null,
      heal,
      sequence,
      cost: 0,
      feedback: feedback(format, context),
    };
  }
  const repaired = await repair(sequence, catalog, options);
  // A repair over the tries limit is no plan to run, nor one below `minConfidence` (status uncertain): its
  // calls go back to the model with the reason.
  const executable = repaired.isExecutable === true && !isHeldBack(repaired, options.minConfidence);
  const origin = executable ? originOf(sequence, repaired.sequence, repaired.edits) : [];
  const after = executable ? healAfterRepair(repaired.sequence, origin, options) : { sequence, edits: [] };
  const healEdits = [...heal, ...after.edits];
  return {
    ok: false,
    executable,
    calls: executable ? toToolCalls(after.sequence, origin, toolCalls) : [],
    repair: repaired,
    heal: healEdits,
    sequence: after.sequence,
    cost: totalCost([...healEdits, { cost: repaired.cost }]),
    feedback: withHealNotes(feedback(format, { ...context, repair: repaired }), healEdits, format),
  };
}

/**
 * Values of a call the optimiser moved to another API are healed against that API too (`"3"` for the
 * new API's integer). Steps are renumbered to the input; inserted calls are left as the optimiser made them.
 */
function healAfterRepair(
  repaired: Sequence,
  origin: readonly number[],
  options: CheckOptions,
): { sequence: Sequence; edits: HealEdit[] } {
  const healed = healValues(repaired, options.catalog, options);
  const edits = healed.edits.filter((e) => origin[e.step] >= 0);
  if (edits.length === 0) return { sequence: repaired, edits: [] };
  const keep = new Set(edits.map((e) => e.step));
  const sequence = repaired.map((step, k) => (keep.has(k) ? healed.sequence[k] : step));
  // Healing only ever narrows a value to its declared type; should it still upset the validator, drop it.
  if (!validate(sequence, options.catalog, { ...options, pseudoSteps: true }).valid)
    return { sequence: repaired, edits: [] };
  return { sequence, edits: edits.map((e) => ({ ...e, step: origin[e.step] })) };
}

export interface CallCheck extends Omit<CheckResult, 'calls'> {
  /** The call to execute, or `null` when no single executable call results. */
  readonly call: ExecutableCall | null;
}

/**
 * Checks one call against the catalog and memory (labels already in memory are skipped when labelling).
 * No calls are inserted unless `allowInsert` is set: the answer is one call or none.
 */
export async function checkCall(call: ToolCall | unknown, options: CheckOptions): Promise<CallCheck> {
  const { calls, ...rest } = await checkToolCalls([call], { allowInsert: false, ...options });
  const single = calls.length === 1 ? calls[0] : null;
  return { ...rest, executable: single !== null, call: single };
}

export type { ExecutableCall, ToolCall } from './toolcalls.ts';
