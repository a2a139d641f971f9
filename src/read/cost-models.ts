/** Loading cost models: a preset by name (`models/<name>.json`) or a path, then per-weight overrides. */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { CostModelSchema, WeightsSchema, type CostModel, type WeightName } from '../model/cost.ts';
import { InputError, inputErrorFromZod } from '../model/errors.ts';
import { MODELS_DIR } from './package-files.ts';

export { MODELS_DIR };

export function presetNames(): string[] {
  return readdirSync(MODELS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Validates a cost model object (from JSON or the library API). */
export function parseCostModel(json: unknown, at = 'costModel'): CostModel {
  const parsed = CostModelSchema.safeParse(json);
  if (!parsed.success) throw inputErrorFromZod(parsed.error, [at]);
  return parsed.data;
}

/** Presets and files read so far (few in practice; bounded all the same). */
const cache = new LRUCache<string, CostModel>({ max: 64 });

/** The file a cost model is read from: the preset's (`default`, `prefer-maps`, …), else the path given. */
export function costModelFile(nameOrPath: string): string {
  const isName = /^[a-z0-9-]+$/.test(nameOrPath) && existsSync(join(MODELS_DIR, `${nameOrPath}.json`));
  return isName ? join(MODELS_DIR, `${nameOrPath}.json`) : nameOrPath;
}

/** A preset name (`default`, `prefer-maps`, …) or a path to a cost-model JSON file. */
export function loadCostModel(nameOrPath = 'default'): CostModel {
  const cached = cache.get(nameOrPath);
  if (cached) return cached;
  const path = costModelFile(nameOrPath);
  if (!existsSync(path)) {
    throw new InputError(
      'cost-model',
      `no preset or file named ${JSON.stringify(nameOrPath)} (presets: ${presetNames().join(', ')})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError('cost-model', `${path} is not valid JSON: ${(error as Error).message}`);
  }
  const model = parseCostModel(json, 'cost-model');
  cache.set(nameOrPath, model);
  return model;
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
    const value = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(value))
      throw new InputError('weight', `expected name=number, got ${JSON.stringify(flag)}`);
    out[m[1] as WeightName] = value;
  }
  return out;
}
