/**
 * The weight settings a sweep visits: the cartesian product of per-weight value lists (grid), or N seeded
 * random draws from per-weight ranges. Pure: the same spec always gives the same settings, in order.
 */
import { InputError } from '../../src/model/errors.ts';
import { WeightsSchema, type WeightName } from '../../src/model/cost.ts';
import { mulberry32 } from '../../src/model/prng.ts';
import type { Setting } from './evaluate.ts';

export const WEIGHT_NAMES = Object.keys(WeightsSchema.shape) as WeightName[];

export interface GridAxis {
  readonly weight: WeightName;
  readonly values: readonly number[];
}

export interface RandomRange {
  readonly weight: WeightName;
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

function weightName(flag: string, name: string): WeightName {
  if (!(WEIGHT_NAMES as string[]).includes(name))
    throw new InputError(flag, `unknown weight ${JSON.stringify(name)} (known: ${WEIGHT_NAMES.join(', ')})`);
  return name as WeightName;
}

function weightValue(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1e6)
    throw new InputError(flag, `expected a weight in [0, 1e6], received ${JSON.stringify(text)}`);
  return n;
}

/** `slotFill=1,2,4` → one grid axis. */
export function parseGridAxis(text: string): GridAxis {
  const m = /^([A-Za-z]+)=(.+)$/.exec(text);
  if (!m) throw new InputError('--grid', `expected name=v1,v2,…, received ${JSON.stringify(text)}`);
  const values = m[2].split(',').map((v) => weightValue('--grid', v));
  if (new Set(values).size !== values.length)
    throw new InputError('--grid', `repeated value in ${JSON.stringify(text)}`);
  return { weight: weightName('--grid', m[1]), values };
}

/** `slotFill=0.5:8` → one random range. */
export function parseRange(text: string): RandomRange {
  const m = /^([A-Za-z]+)=([^:]+):([^:]+)$/.exec(text);
  if (!m) throw new InputError('--range', `expected name=lo:hi, received ${JSON.stringify(text)}`);
  const lo = weightValue('--range', m[2]);
  const hi = weightValue('--range', m[3]);
  if (!(hi > lo)) throw new InputError('--range', `expected lo < hi in ${JSON.stringify(text)}`);
  return { weight: weightName('--range', m[1]), lo, hi };
}

function distinctWeights(flag: string, names: readonly WeightName[]): void {
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new InputError(flag, `weight ${dup} given twice`);
}

/** Three significant digits: readable tables, and the draw is still reproducible from the seed. */
function round3(x: number): number {
  return Number(x.toPrecision(3));
}

/**
 * A draw in [lo, hi]: log-uniform when lo > 0 (weights act by ratio: 0.5→1 matters as much as 4→8),
 * uniform when lo = 0.
 */
function draw(rng: () => number, { lo, hi }: RandomRange): number {
  const u = rng();
  return round3(lo > 0 ? Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))) : lo + u * (hi - lo));
}

export function sweepSettings(spec: SweepSpec): Setting[] {
  if (spec.kind === 'grid') {
    if (spec.axes.length === 0) throw new InputError('--grid', 'give at least one weight');
    distinctWeights(
      '--grid',
      spec.axes.map((a) => a.weight),
    );
    let settings: Setting[] = [{}];
    for (const axis of spec.axes)
      settings = settings.flatMap((s) => axis.values.map((v) => ({ ...s, [axis.weight]: v })));
    return settings;
  }
  if (spec.ranges.length === 0) throw new InputError('--range', 'give at least one weight range');
  if (!Number.isSafeInteger(spec.count) || spec.count < 1)
    throw new InputError('--random', 'expected a positive number of settings');
  distinctWeights(
    '--range',
    spec.ranges.map((r) => r.weight),
  );
  const rng = mulberry32(spec.seed);
  return Array.from({ length: spec.count }, () =>
    Object.fromEntries(spec.ranges.map((r) => [r.weight, draw(rng, r)])),
  );
}

/** `slotFill=2 newMap=0.5`, or `(base)` for no overrides. */
export function formatSetting(setting: Setting): string {
  const parts = Object.entries(setting).map(([k, v]) => `${k}=${v}`);
  return parts.length === 0 ? '(base)' : parts.join(' ');
}
