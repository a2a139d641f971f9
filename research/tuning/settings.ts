/**
 * The settings a sweep visits: the cartesian product of per-name value lists (grid), or N seeded random
 * draws from per-name ranges. A name is any weight of the cost model, any of its candidate-generation
 * settings (`minSimilarity`, `apiCandidates`, `insertDepth`, `insertLimit`), an evidence score, a bound
 * or a mapping-scoring number (each by its own name: `soleField`, `linksPerParameter`, `nameWeight`);
 * values are checked against the cost-model schema. Pure: the same spec always gives the same settings.
 */
import { InputError } from '../../src/model/errors.ts';
import {
  BoundsSchema,
  CostModelSchema,
  EvidenceSchema,
  MappingScoringSchema,
  WeightsSchema,
  type CostModel,
  type WeightName,
} from '../../src/model/cost.ts';
import { parseCostModel } from '../../src/read/cost-models.ts';
import { isDecimalText } from '../../src/model/numbers.ts';
import { mulberry32 } from '../../src/model/prng.ts';

export const WEIGHT_NAMES = Object.keys(WeightsSchema.shape) as WeightName[];

/** The cost model's candidate-generation settings, with their ranges (as in `CostModelSchema`). */
const TOP = {
  minSimilarity: { lo: 0, hi: 1, integer: false },
  apiCandidates: { lo: 1, hi: 100, integer: true },
  insertDepth: { lo: 0, hi: 5, integer: true },
  insertLimit: { lo: 0, hi: 200, integer: true },
} as const;

/** A knob's range and where it sits in the cost model (top level, or one of its sections). */
interface Knob {
  readonly lo: number;
  readonly hi: number;
  readonly integer: boolean;
  readonly section?: 'evidence' | 'bounds' | 'mappings';
}

/** The range a section's number takes, read off its schema (`min`/`max`, and whether it is an integer). */
function sectionKnobs(section: Knob['section'], shape: Record<string, unknown>): Record<string, Knob> {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const json = (schema as { toJSONSchema?: () => Record<string, unknown> }).toJSONSchema?.() ?? {};
      const lo = typeof json.minimum === 'number' ? json.minimum : 0;
      const hi = typeof json.maximum === 'number' ? json.maximum : 1e6;
      return [name, { lo, hi, integer: json.type === 'integer', section }];
    }),
  );
}

export const KNOBS: Readonly<Record<string, Knob>> = {
  ...TOP,
  ...sectionKnobs('evidence', EvidenceSchema.shape),
  ...sectionKnobs('bounds', BoundsSchema.shape),
  ...sectionKnobs('mappings', MappingScoringSchema.shape),
};

export type KnobName = string;
export type SettingName = WeightName | KnobName;
export const KNOB_NAMES = Object.keys(KNOBS) as KnobName[];

// Every numeric knob of the schema is listed, so a new one cannot be forgotten here (`keepCalls` is a
// switch, not a number to sweep).
const schemaKnobs = Object.keys(CostModelSchema.shape).filter(
  (k) =>
    ![
      'name',
      'description',
      'weights',
      'keepCalls',
      'evidence',
      'bounds',
      'mappings',
      'calibration',
    ].includes(k),
);
if (schemaKnobs.sort().join() !== Object.keys(TOP).sort().join())
  throw new Error(
    `settings.ts: KNOBS (${Object.keys(TOP).join()}) differ from the cost model (${schemaKnobs.join()})`,
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

const isKnob = (name: string): name is KnobName => Object.prototype.hasOwnProperty.call(KNOBS, name);

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
    !isDecimalText(text) ||
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
  const knobs: Record<string, unknown> = {};
  const sections = {
    evidence: { ...base.evidence } as Record<string, number>,
    bounds: { ...base.bounds } as Record<string, number>,
    mappings: { ...base.mappings } as Record<string, number>,
  };
  for (const [name, value] of Object.entries(setting)) {
    const section = isKnob(name) ? KNOBS[name].section : undefined;
    if (section) sections[section][name] = value!;
    else if (isKnob(name)) knobs[name] = value;
    else weights[settingName('setting', name)] = value!;
  }
  return parseCostModel({ ...base, ...knobs, ...sections, weights }, 'setting');
}

/** The value a setting's name has in a cost model. */
export function settingOf(model: CostModel, name: SettingName): number {
  if (!isKnob(name)) return model.weights[name as WeightName];
  const section = KNOBS[name].section;
  const holder = (section ? model[section] : model) as unknown as Record<string, number>;
  return holder[name];
}

/** `slotFill=2 minSimilarity=0.4`, or `(base)` for no overrides. */
export function formatSetting(setting: Setting): string {
  const parts = Object.entries(setting).map(([k, v]) => `${k}=${v}`);
  return parts.length === 0 ? '(base)' : parts.join(' ');
}
