/**
 * The settings a sweep visits: the cartesian product of per-name value lists (grid), or N seeded random
 * draws from per-name ranges. A name is any weight of the cost model or any of its candidate-generation
 * settings (`minSimilarity`, `apiCandidates`, `insertDepth`, `insertLimit`); values are checked against
 * the cost-model schema. Pure: the same spec always gives the same settings, in order.
 */
import { InputError } from '../../src/model/errors.ts';
import { CostModelSchema, WeightsSchema, type CostModel, type WeightName } from '../../src/model/cost.ts';
import { parseCostModel } from '../../src/read/cost-models.ts';
import { mulberry32 } from '../../src/model/prng.ts';

export const WEIGHT_NAMES = Object.keys(WeightsSchema.shape) as WeightName[];

/** The cost model's candidate-generation settings, with their ranges (as in `CostModelSchema`). */
export const KNOBS = {
  minSimilarity: { lo: 0, hi: 1, integer: false },
  apiCandidates: { lo: 1, hi: 100, integer: true },
  insertDepth: { lo: 0, hi: 5, integer: true },
  insertLimit: { lo: 0, hi: 200, integer: true },
} as const satisfies Record<string, { lo: number; hi: number; integer: boolean }>;

export type KnobName = keyof typeof KNOBS;
export type SettingName = WeightName | KnobName;
export const KNOB_NAMES = Object.keys(KNOBS) as KnobName[];

// Every numeric knob of the schema is listed, so a new one cannot be forgotten here (`keepCalls` is a
// switch, not a number to sweep).
const schemaKnobs = Object.keys(CostModelSchema.shape).filter(
  (k) => !['name', 'description', 'weights', 'keepCalls'].includes(k),
);
if (schemaKnobs.sort().join() !== [...KNOB_NAMES].sort().join())
  throw new Error(
    `settings.ts: KNOBS (${KNOB_NAMES.join()}) differ from the cost model (${schemaKnobs.join()})`,
  );

/** Overrides of one setting (`{ slotFill: 2, minSimilarity: 0.4 }`). */
export type Setting = Partial<Record<SettingName, number>>;

export interface GridAxis {
  readonly name: SettingName;
  readonly values: readonly number[];
}

export interface RandomRange {
  readonly name: SettingName;
  readonly lo: number;
  readonly hi: number;
}

export type SweepSpec =
  | { readonly kind: 'grid'; readonly axes: readonly GridAxis[] }
  | {
      readonly kind: 'random';
      readonly count: number;
      readonly ranges: readonly RandomRange[];
      readonly seed: number;
    };

const isKnob = (name: string): name is KnobName => (KNOB_NAMES as string[]).includes(name);

function settingName(flag: string, name: string): SettingName {
  if (!(WEIGHT_NAMES as string[]).includes(name) && !isKnob(name))
    throw new InputError(
      flag,
      `unknown setting ${JSON.stringify(name)} (weights: ${WEIGHT_NAMES.join(', ')}; ` +
        `candidate generation: ${KNOB_NAMES.join(', ')})`,
    );
  return name as SettingName;
}

function settingValue(flag: string, name: SettingName, text: string): number {
  const n = Number(text);
  const range = isKnob(name) ? KNOBS[name] : { lo: 0, hi: 1e6, integer: false };
  const what = range.integer ? 'an integer' : 'a number';
  if (
    text.trim() === '' ||
    !Number.isFinite(n) ||
    n < range.lo ||
    n > range.hi ||
    (range.integer && !Number.isInteger(n))
  )
    throw new InputError(
      flag,
      `${name}: expected ${what} in [${range.lo}, ${range.hi}], received ${JSON.stringify(text)}`,
    );
  return n;
}

/** `slotFill=1,2,4` or `apiCandidates=3,5,8` → one grid axis. */
export function parseGridAxis(text: string): GridAxis {
  const m = /^([A-Za-z]+)=(.+)$/.exec(text);
  if (!m) throw new InputError('--grid', `expected name=v1,v2,…, received ${JSON.stringify(text)}`);
  const name = settingName('--grid', m[1]);
  const values = m[2].split(',').map((v) => settingValue('--grid', name, v));
  if (new Set(values).size !== values.length)
    throw new InputError('--grid', `repeated value in ${JSON.stringify(text)}`);
  return { name, values };
}

/** `slotFill=0.5:8` → one random range. */
export function parseRange(text: string): RandomRange {
  const m = /^([A-Za-z]+)=([^:]+):([^:]+)$/.exec(text);
  if (!m) throw new InputError('--range', `expected name=lo:hi, received ${JSON.stringify(text)}`);
  const name = settingName('--range', m[1]);
  const lo = settingValue('--range', name, m[2]);
  const hi = settingValue('--range', name, m[3]);
  if (!(hi > lo)) throw new InputError('--range', `expected lo < hi in ${JSON.stringify(text)}`);
  return { name, lo, hi };
}

function distinct(flag: string, names: readonly SettingName[]): void {
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new InputError(flag, `${dup} given twice`);
}

/** Three significant digits: readable tables, and the draw is still reproducible from the seed. */
function round3(x: number): number {
  return Number(x.toPrecision(3));
}

/**
 * A draw in [lo, hi]: log-uniform when lo > 0 (weights act by ratio: 0.5→1 matters as much as 4→8),
 * uniform when lo = 0; integer settings are rounded to integers.
 */
function draw(rng: () => number, { name, lo, hi }: RandomRange): number {
  const u = rng();
  const x = lo > 0 ? Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))) : lo + u * (hi - lo);
  return isKnob(name) && KNOBS[name].integer ? Math.round(x) : round3(x);
}

export function sweepSettings(spec: SweepSpec): Setting[] {
  if (spec.kind === 'grid') {
    if (spec.axes.length === 0) throw new InputError('--grid', 'give at least one setting');
    distinct(
      '--grid',
      spec.axes.map((a) => a.name),
    );
    let settings: Setting[] = [{}];
    for (const axis of spec.axes)
      settings = settings.flatMap((s) => axis.values.map((v) => ({ ...s, [axis.name]: v })));
    return settings;
  }
  if (spec.ranges.length === 0) throw new InputError('--range', 'give at least one range');
  if (!Number.isSafeInteger(spec.count) || spec.count < 1)
    throw new InputError('--random', 'expected a positive number of settings');
  distinct(
    '--range',
    spec.ranges.map((r) => r.name),
  );
  const rng = mulberry32(spec.seed);
  return Array.from({ length: spec.count }, () =>
    Object.fromEntries(spec.ranges.map((r) => [r.name, draw(rng, r)])),
  );
}

/** The base model with a setting applied (weights and candidate-generation settings), validated. */
export function applySetting(base: CostModel, setting: Setting): CostModel {
  const weights: Record<string, number> = { ...base.weights };
  const knobs: Record<string, number> = {};
  for (const [name, value] of Object.entries(setting)) {
    if (isKnob(name)) knobs[name] = value;
    else weights[settingName('setting', name)] = value;
  }
  return parseCostModel({ ...base, ...knobs, weights }, 'setting');
}

/** The value a setting's name has in a cost model. */
export function settingOf(model: CostModel, name: SettingName): number {
  return isKnob(name) ? model[name] : model.weights[name];
}

/** `slotFill=2 minSimilarity=0.4`, or `(base)` for no overrides. */
export function formatSetting(setting: Setting): string {
  const parts = Object.entries(setting).map(([k, v]) => `${k}=${v}`);
  return parts.length === 0 ? '(base)' : parts.join(' ');
}
