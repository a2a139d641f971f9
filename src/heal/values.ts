/**
 * Healing of parsed argument values against the catalog: stringified JSON unpacked for object/array
 * parameters, numeric and boolean strings coerced for number/integer/boolean parameters.
 */
import { jsonValue } from '../read/json.ts';
import type { ApiSpec, Catalog, Json, ParamSpec, Sequence, Step } from '../model/types.ts';
import { findReferences } from '../read/references.ts';
import { apiByName } from '../validate/validate.ts';
import { paramsByName } from '../catalog/catalog-index.ts';
import { unpackText } from './json.ts';
import { healWeight, type HealEdit, type HealKind, type HealOptions } from './types.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A prototype-safe, depth-limited copy of parsed JSON; `undefined` when it is not acceptable. */
function safeJson(value: unknown): Json | undefined {
  const copy = jsonValue.safeParse(value);
  return copy.success ? copy.data : undefined;
}

/** The coerced value of a string for a scalar parameter, or `undefined`. */
function coerced(text: string, type: ParamSpec['type']): Json | undefined {
  const word = text.trim();
  if (type === 'boolean') {
    const lower = word.toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : undefined;
  }
  if (!NUMBER.test(word)) return undefined;
  const n = Number(word);
  if (!Number.isFinite(n)) return undefined;
  if (type === 'integer' && !Number.isSafeInteger(n)) return undefined;
  return n;
}

/** The healed value of one argument and the kind of fix, or `undefined` when it stays. */
function healValue(
  value: Json,
  param: ParamSpec,
  options: HealOptions,
): { to: Json; kind: HealKind } | undefined {
  if (typeof value !== 'string') return undefined;
  const { type } = param;
  if ((type === 'object' || type === 'array') && options.unpackJson !== false) {
    const unpacked = unpackText(value, type, options.repairJson !== false);
    const to = unpacked === undefined ? undefined : safeJson(unpacked);
    return to === undefined ? undefined : { to, kind: 'unpackJson' };
  }
  if ((type === 'number' || type === 'integer' || type === 'boolean') && options.coerce !== false) {
    // A reference (`"$var1.count$"`) is not a literal: its value is checked through the producer's outputs.
    if (findReferences(value).length > 0) return undefined;
    const to = coerced(value, type);
    return to === undefined ? undefined : { to, kind: 'coerce' };
  }
  return undefined;
}

const DETAIL: Record<Exclude<HealKind, 'repairJson'>, string> = {
  unpackJson: 'stringified JSON unpacked',
  coerce: 'string coerced to the declared type',
};

function healStep(step: Step, i: number, api: ApiSpec, options: HealOptions, edits: HealEdit[]): Step {
  const params = paramsByName(api);
  let args: Record<string, Json> | undefined;
  for (const [name, value] of Object.entries(step.arguments)) {
    const param = params.get(name);
    const healed = param && healValue(value, param, options);
    if (!healed) continue;
    args ??= { ...step.arguments };
    Object.defineProperty(args, name, {
      value: healed.to,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    edits.push({
      kind: healed.kind,
      step: i,
      param: name,
      from: JSON.stringify(value),
      to: JSON.stringify(healed.to),
      cost: healWeight(healed.kind, options),
      detail: DETAIL[healed.kind as Exclude<HealKind, 'repairJson'>],
    });
  }
  return args ? { ...step, arguments: args } : step;
}

/** Unpacks and coerces argument values of calls to catalog APIs (the answer step is left alone). */
export function healValues(
  sequence: Sequence,
  catalog: Catalog,
  options: HealOptions = {},
): { sequence: Sequence; edits: HealEdit[] } {
  const edits: HealEdit[] = [];
  if (options.unpackJson === false && options.coerce === false) return { sequence, edits };
  const apis = apiByName(catalog);
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const healed = sequence.map((step, i) => {
    const api = step.name === resultName ? undefined : apis.get(step.name);
    return api ? healStep(step, i, api, options, edits) : step;
  });
  return { sequence: edits.length > 0 ? healed : sequence, edits };
}
