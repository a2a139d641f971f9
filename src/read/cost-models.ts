/** Loading cost models: a preset by name (`models/<name>.json`) or a path, then per-weight overrides. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { CostModelSchema, WeightsSchema, type CostModel, type WeightName } from '../model/cost.ts';
import { InputError, inputErrorFromZod } from '../model/errors.ts';
import { calibrationInForce, weightsDigest } from '../model/calibration.ts';
import { isPlainObject } from './json.ts';
import { isDecimalText } from '../model/numbers.ts';
import { MODELS_DIR } from './package-files.ts';
import { FileMemo } from './file-memo.ts';
import { loadJsonWith, naming, parseJsonFile } from './files.ts';

export { MODELS_DIR };

export function presetNames(): string[] {
  return readdirSync(MODELS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Validates a cost model object (from JSON or the library API). */
export function parseCostModel(json: unknown, at = 'costModel'): CostModel {
  // What `refract calibrate --out` writes: a model's `calibration` field, named by its weights' digest.
  if (isPlainObject(json) && typeof json.weights === 'string' && Array.isArray(json.evidence))
    throw new InputError(
      at,
      'a calibration, not a cost model: a cost model carries it in its `calibration` field (refract calibrate --model-out writes one)',
    );
  const parsed = CostModelSchema.safeParse(json);
  if (!parsed.success) throw inputErrorFromZod(parsed.error, [at]);
  return parsed.data;
}

/**
 * What to do with a cost-model file whose calibration was fitted for other weights than the file's own (edited
 * after `refract calibrate`): `refuse` it (every repair would lack a confidence, silently), or `drop` the
 * calibration (a command that fits a new one). Overrides of a loaded model's weights (`withWeights`,
 * `--weight`) keep its calibration out of force instead: that is what an override means.
 */
export type StaleCalibration = 'refuse' | 'drop';

function fileCalibration(model: CostModel, at: string, stale: StaleCalibration, file: string): CostModel {
  if (!model.calibration || calibrationInForce(model)) return model;
  if (stale === 'drop') {
    const { calibration: _dropped, ...rest } = model;
    void _dropped;
    return rest;
  }
  throw new InputError(
    `${at}.calibration.weights`,
    `fitted for other weights than the file's (${model.calibration.weights}, not ${weightsDigest(model.weights)}): refit it (refract calibrate --cost-model FILE --data LABELLED.jsonl --model-out NEW.json) or remove it`,
    file,
  );
}

/** Presets read so far, by name (a handful, shipped with the package). */
const presets = new LRUCache<string, CostModel>({ max: 64 });
/** Cost-model files, re-read when they change (a long-lived caller may be tuning one). */
const files = new FileMemo<CostModel>('cost-model-files', 16);

/** The file of the preset `name` (`default`, `prefer-maps`, …), if there is one. */
function presetFile(name: string): string | undefined {
  const path = join(MODELS_DIR, `${name}.json`);
  return /^[a-z0-9-]+$/.test(name) && existsSync(path) ? path : undefined;
}

/** The file a cost model is read from: the preset's, else the path given. */
export function costModelFile(nameOrPath: string): string {
  return presetFile(nameOrPath) ?? nameOrPath;
}

/**
 * A preset name (`default`, `prefer-maps`, …) or a path to a cost-model JSON file; `at` names the field in
 * errors (`cost-model` for the CLI flag, `costModel` for a request field).
 */
export function loadCostModel(
  nameOrPath = 'default',
  at = 'cost-model',
  stale: StaleCalibration = 'refuse',
): CostModel {
  const cached = presets.get(nameOrPath);
  if (cached) return cached;
  const preset = presetFile(nameOrPath);
  if (preset) {
    const model = loadJsonWith(preset, (json) => parseCostModel(json, at));
    presets.set(nameOrPath, model);
    return model;
  }
  if (!existsSync(nameOrPath)) {
    throw new InputError(
      at,
      `no preset or file named ${JSON.stringify(nameOrPath)} (presets: ${presetNames().join(', ')})`,
    );
  }
  const model = naming(at, () => files.load(nameOrPath, (text) => parseCostModel(parseJsonFile(text), at)));
  return fileCalibration(model, at, stale, nameOrPath);
}

/** Returns a copy of `model` with some weights replaced (`{ slotFill: 1 }`), validated. */
export function withWeights(model: CostModel, overrides: Partial<Record<string, number>>): CostModel {
  for (const name of Object.keys(overrides)) {
    if (!Object.prototype.hasOwnProperty.call(model.weights, name)) {
      throw new InputError(
        `weight.${name}`,
        `unknown weight (known: ${Object.keys(model.weights).join(', ')})`,
      );
    }
  }
  const weights = WeightsSchema.safeParse({ ...model.weights, ...overrides });
  if (!weights.success) throw inputErrorFromZod(weights.error, ['weight']);
  return { ...model, weights: weights.data };
}

/** Parses `name=value` overrides from the command line. */
export function parseWeightFlags(flags: readonly string[]): Partial<Record<WeightName, number>> {
  const out: Partial<Record<WeightName, number>> = {};
  for (const flag of flags) {
    const m = /^([A-Za-z]+)=(.+)$/.exec(flag);
    const value = m && isDecimalText(m[2]) ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(value))
      throw new InputError('--weight', `expected name=number, got ${JSON.stringify(flag)}`);
    // Which of two values would win is a guess the run should not make in silence.
    if (Object.hasOwn(out, m[1]))
      throw new InputError(`--weight ${m[1]}`, `given twice (${out[m[1] as WeightName]} and ${value})`);
    out[m[1] as WeightName] = value;
  }
  return out;
}
