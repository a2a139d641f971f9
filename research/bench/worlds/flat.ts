/**
 * Flat plans over a large catalog: 2–5 independent calls (no call reads another's output) of distractor
 * and shipped APIs with literal arguments, half of them closed by an answer step that returns one field of
 * each call. Corrupted with the first recipe's kinds that make sense without data flow between calls: a
 * misspelt API or parameter name, a missing required parameter (the gold keeps its literal: a fair repair
 * asks for it), a made-up parameter, a wrong answer reference (a label no call defines), and a missing step
 * (a call the answer reads is gone); then one record of two kinds. No two arguments of a plan share a
 * literal where their types allow (independent calls). Seeded per plan (`flat/seed/n`).
 */
import type { ApiSpec, Catalog, Json } from '../../../src/model/types.ts';
import type { NestfulStep } from '../../../src/read/sequence.ts';
import { formatReference, segments } from '../../../src/read/references.ts';
import { choose, hashSeed, mulberry32, shuffled, type Rng } from '../../../src/model/prng.ts';
import { apiByName, validate } from '../../../src/validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../../../src/model/constants.ts';
import { applyMistakes } from '../corrupt.ts';
import type { MistakeContext, MistakeKind } from '../mistakes.ts';
import { literalChoices } from './distractor-vocabulary.ts';

export const FLAT_KINDS = [
  'api_name',
  'param_name',
  'missing_param',
  'extra_param',
  'ref_label',
  'missing_step',
] as const satisfies readonly MistakeKind[];

/** Draws per record before a kind is given up for a plan. */
const TRIES = 6;
const SCALAR = new Set(['string', 'integer', 'number', 'boolean', 'any']);

/** APIs a flat plan can call with literals alone: every parameter scalar, some output without a list. */
export function flatCallable(api: ApiSpec): boolean {
  return (
    api.params.every((p) => SCALAR.has(p.type)) &&
    api.params.some((p) => p.required) &&
    (api.outputs ?? []).some((f) => !f.path.includes('['))
  );
}

/**
 * A literal for parameter `name`, unlike every literal the plan passes already (`used`) where the type
 * allows: independent calls share no value, so a left-out argument's gold is a value the input does not
 * hold and asking is the fair repair. A choice list that is used up gives a numbered variant.
 */
function literalFor(
  rng: Rng,
  name: string,
  type: string,
  allowed: readonly Json[] | undefined,
  used: Set<string>,
): Json {
  const choices = allowed && allowed.length > 0 ? allowed : literalChoices(name, type);
  const fresh = choices.filter((c) => !used.has(JSON.stringify(c)));
  let value: Json = choose(rng, fresh.length > 0 ? fresh : choices);
  if (fresh.length === 0 && !allowed) {
    for (let k = 2; used.has(JSON.stringify(value)); k++) {
      const base = choose(rng, choices);
      value = typeof base === 'string' ? `${base}-${k}` : typeof base === 'number' ? base + k : base;
      if (typeof base === 'boolean') break;
    }
  }
  used.add(JSON.stringify(value));
  return value;
}

/** One flat plan: `calls` distinct APIs, drawn from the distractors with odds `distractorShare`. */
export function flatPlan(
  rng: Rng,
  shipped: readonly ApiSpec[],
  distractors: readonly ApiSpec[],
  distractorShare: number,
): NestfulStep[] {
  const calls = 2 + Math.floor(rng() * 4);
  const used = new Set<string>();
  const steps: NestfulStep[] = [];
  const values = new Set<string>();
  while (steps.length < calls) {
    const api = choose(rng, rng() < distractorShare ? distractors : shipped);
    if (used.has(api.name)) continue;
    used.add(api.name);
    const args: Record<string, Json> = {};
    for (const p of api.params) {
      if (p.required || rng() < 0.3) args[p.name] = literalFor(rng, p.name, p.type, p.enum, values);
    }
    steps.push({ name: api.name, arguments: args, label: `var${steps.length + 1}` });
  }
  if (rng() < 0.5) {
    const answer: Record<string, Json> = {};
    for (const step of steps) {
      const api = [...shipped, ...distractors].find((a) => a.name === step.name)!;
      const field = choose(
        rng,
        (api.outputs ?? []).filter((f) => !f.path.includes('[')),
      );
      const leaf = field.path.split('.').at(-1)!;
      let key = leaf;
      for (let n = 2; key in answer; n++) key = `${leaf}_${n}`;
      answer[key] = formatReference(step.label!, segments(field.path));
    }
    steps.push({ name: DEFAULT_RESULT_NAME, arguments: answer });
  }
  return steps;
}

export interface FlatRecord {
  readonly id: string;
  readonly kind: string;
  readonly gold: NestfulStep[];
  readonly sequence: NestfulStep[];
}

/** The corrupted records of one plan: each kind that applies once, then one pair of kinds. */
function corruptFlat(
  rng: Rng,
  gold: NestfulStep[],
  catalog: Catalog,
): { kind: string; steps: NestfulStep[] }[] {
  const ctx: MistakeContext = { apis: apiByName(catalog), resultName: DEFAULT_RESULT_NAME };
  const seen = new Set([JSON.stringify(gold)]);
  const out: { kind: string; steps: NestfulStep[] }[] = [];
  const attempt = (kinds: readonly MistakeKind[]): boolean => {
    for (let t = 0; t < TRIES; t++) {
      const steps = applyMistakes(rng, gold, kinds, ctx);
      if (steps === null) return false;
      const key = JSON.stringify(steps);
      if (seen.has(key) || validate(steps, catalog).valid) continue;
      seen.add(key);
      out.push({ kind: kinds.join('+'), steps });
      return true;
    }
    return false;
  };
  for (const kind of FLAT_KINDS) attempt([kind]);
  const pairs = FLAT_KINDS.flatMap((a, i) => FLAT_KINDS.slice(i + 1).map((b) => [a, b]));
  for (const pair of shuffled(rng, pairs)) if (attempt(shuffled(rng, pair))) break;
  return out;
}

/** `plans` flat plans over `catalog`, each valid, and their records. */
export function flatRecords(
  catalog: Catalog,
  shippedNames: ReadonlySet<string>,
  plans: number,
  seed: number,
  distractorShare = 0.6,
): FlatRecord[] {
  const callable = catalog.apis.filter(flatCallable);
  const shipped = callable.filter((a) => shippedNames.has(a.name));
  const distractors = callable.filter((a) => !shippedNames.has(a.name));
  const out: FlatRecord[] = [];
  for (let n = 0; n < plans; n++) {
    const rng = mulberry32(hashSeed(`flat/${seed}/${n}`));
    const gold = flatPlan(rng, shipped, distractors, distractorShare);
    const check = validate(gold, catalog);
    if (!check.valid)
      throw new Error(`flat plan ${n} is invalid: ${check.issues.map((i) => i.message).join('; ')}`);
    corruptFlat(rng, gold, catalog).forEach((r, k) => {
      out.push({ id: `flat-${n}-${k + 1}`, kind: r.kind, gold, sequence: r.steps });
    });
  }
  return out;
}
