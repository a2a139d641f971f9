/**
 * The single mistakes of the corruption benchmark. Each takes a (copied) NESTFUL step list and returns the
 * corrupted list, or null when the mistake does not apply to it. Whether the result is really invalid is
 * checked by the generator, not here.
 */
import type { ApiSpec, Json } from '../../src/model/types.ts';
import type { NestfulStep } from '../../src/read/sequence.ts';
import { mapReferences, stepReferences } from '../../src/read/references.ts';
import { misspell } from './misspell.ts';
import { below, choose, type Rng } from '../../src/model/prng.ts';

export const MISTAKE_KINDS = [
  'api_name',
  'param_name',
  'missing_param',
  'extra_param',
  'ref_label',
  'ref_field',
  'missing_label',
  'wrong_label',
  'missing_step',
  'out_of_order',
] as const;

export type MistakeKind = (typeof MISTAKE_KINDS)[number];

export interface MistakeContext {
  readonly apis: ReadonlyMap<string, ApiSpec>;
  readonly resultName: string;
}

type Mistake = (rng: Rng, steps: NestfulStep[], ctx: MistakeContext) => NestfulStep[] | null;

const isCall = (s: NestfulStep, ctx: MistakeContext): boolean => s.name !== ctx.resultName;

function indexes(steps: NestfulStep[], keep: (s: NestfulStep, i: number) => boolean): number[] {
  return steps.flatMap((s, i) => (keep(s, i) ? [i] : []));
}

/** Steps (after `i`) whose arguments refer to `label`. */
function consumers(steps: NestfulStep[], label: string, i: number): number[] {
  return indexes(steps, (s, j) => j > i && stepReferences(s.arguments).some((x) => x.ref.label === label));
}

/** Calls whose label some later step refers to. */
function producers(steps: NestfulStep[]): number[] {
  return indexes(steps, (s, i) => s.label !== undefined && consumers(steps, s.label, i).length > 0);
}

/** Rewrites the `k`-th reference of a step (in argument order) through `edit`. */
function editReference(
  step: NestfulStep,
  k: number,
  edit: (raw: string, label: string) => string,
): NestfulStep {
  let seen = 0;
  const args: Record<string, Json> = {};
  for (const [param, value] of Object.entries(step.arguments)) {
    args[param] = mapReferences(value, (ref) => (seen++ === k ? edit(ref.raw, ref.label) : ref.raw));
  }
  return { ...step, arguments: args };
}

/** Renames argument `from` to `to` in place in the key order. */
function renameKey(args: NestfulStep['arguments'], from: string, to: string): NestfulStep['arguments'] {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k === from ? to : k, v]));
}

function labelNumbers(steps: NestfulStep[]): number {
  let max = 0;
  for (const s of steps) {
    const m = /(\d+)$/.exec(s.label ?? '');
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

function replaceAt(steps: NestfulStep[], i: number, step: NestfulStep): NestfulStep[] {
  return steps.map((s, j) => (j === i ? step : s));
}

const apiName: Mistake = (rng, steps, ctx) => {
  const calls = indexes(steps, (s) => isCall(s, ctx));
  if (calls.length === 0) return null;
  const i = choose(rng, calls);
  const name = misspell(rng, steps[i].name, new Set(ctx.apis.keys()));
  return name === null ? null : replaceAt(steps, i, { ...steps[i], name });
};

const paramName: Mistake = (rng, steps, ctx) => {
  const calls = indexes(steps, (s) => isCall(s, ctx) && Object.keys(s.arguments).length > 0);
  if (calls.length === 0) return null;
  const i = choose(rng, calls);
  const param = choose(rng, Object.keys(steps[i].arguments));
  const known = ctx.apis.get(steps[i].name)?.params.map((p) => p.name) ?? [];
  const name = misspell(rng, param, new Set([...known, ...Object.keys(steps[i].arguments)]));
  if (name === null) return null;
  return replaceAt(steps, i, { ...steps[i], arguments: renameKey(steps[i].arguments, param, name) });
};

const missingParam: Mistake = (rng, steps, ctx) => {
  const sites = steps.flatMap((s, i) =>
    (ctx.apis.get(s.name)?.params ?? [])
      .filter((p) => p.required && Object.prototype.hasOwnProperty.call(s.arguments, p.name))
      .map((p) => ({ i, param: p.name })),
  );
  if (sites.length === 0) return null;
  const { i, param } = choose(rng, sites);
  const args = Object.fromEntries(Object.entries(steps[i].arguments).filter(([k]) => k !== param));
  return replaceAt(steps, i, { ...steps[i], arguments: args });
};

/** Parameters models like to add on their own. */
const MADE_UP: readonly [string, Json][] = [
  ['verbose', true],
  ['limit_x', 10],
  ['debug', false],
  ['include_details', true],
  ['page_size', 20],
  ['lang', 'en'],
  ['format', 'json'],
  ['max_results', 5],
];

const extraParam: Mistake = (rng, steps, ctx) => {
  const calls = indexes(steps, (s) => isCall(s, ctx));
  if (calls.length === 0) return null;
  const i = choose(rng, calls);
  const args = steps[i].arguments;
  const known = new Set([
    ...(ctx.apis.get(steps[i].name)?.params.map((p) => p.name) ?? []),
    ...Object.keys(args),
  ]);
  let extra: [string, Json] | null = null;
  const keys = Object.keys(args);
  if (keys.length > 0 && rng() < 0.4) {
    // A misspelled sibling carrying the sibling's value (`date` and `dates` both passed).
    const sibling = choose(rng, keys);
    const name = misspell(rng, sibling, known);
    if (name !== null) extra = [name, args[sibling]];
  }
  extra ??= choose(rng, MADE_UP);
  if (known.has(extra[0])) return null;
  return replaceAt(steps, i, { ...steps[i], arguments: { ...args, [extra[0]]: extra[1] } });
};

function referenceSites(steps: NestfulStep[]): { i: number; k: number; label: string; path: number }[] {
  return steps.flatMap((s, i) =>
    stepReferences(s.arguments).map((x, k) => ({ i, k, label: x.ref.label, path: x.ref.path.length })),
  );
}

const refLabel: Mistake = (rng, steps) => {
  const sites = referenceSites(steps);
  if (sites.length === 0) return null;
  const site = choose(rng, sites);
  const max = labelNumbers(steps);
  const wrong = rng() < 0.5 || !/\d+$/.test(site.label) ? `${site.label}0` : `var${max + 1 + below(rng, 6)}`;
  const step = editReference(
    steps[site.i],
    site.k,
    (raw, label) => `$${wrong}${raw.slice(1 + label.length)}`,
  );
  return replaceAt(steps, site.i, step);
};

const refField: Mistake = (rng, steps) => {
  const sites = referenceSites(steps).filter((x) => x.path > 0);
  if (sites.length === 0) return null;
  const site = choose(rng, sites);
  let failed = false;
  const step = editReference(steps[site.i], site.k, (raw) => {
    // The last key of the path (`$var1.author[0].id$` → `id`).
    const m = /\.([^.[\]$]+)((?:\[\d+\])*)\$$/.exec(raw);
    const field = m ? misspell(rng, m[1]) : null;
    if (!m || field === null) {
      failed = true;
      return raw;
    }
    return raw.slice(0, m.index) + `.${field}${m[2]}$`;
  });
  return failed ? null : replaceAt(steps, site.i, step);
};

const missingLabel: Mistake = (rng, steps) => {
  const from = producers(steps);
  if (from.length === 0) return null;
  const i = choose(rng, from);
  const { label: _dropped, ...step } = steps[i];
  return replaceAt(steps, i, step);
};

const wrongLabel: Mistake = (rng, steps) => {
  const from = producers(steps);
  if (from.length === 0) return null;
  const i = choose(rng, from);
  const label = steps[i].label!;
  const n = labelNumbers(steps) + 1;
  const renamed = choose(rng, [`var${n}`, `result${i + 1}`, `${label}_out`, `var_${i + 1}`]);
  return replaceAt(steps, i, { ...steps[i], label: renamed });
};

const missingStep: Mistake = (rng, steps) => {
  const from = producers(steps);
  if (from.length === 0) return null;
  const i = choose(rng, from);
  return steps.filter((_, j) => j !== i);
};

const outOfOrder: Mistake = (rng, steps, ctx) => {
  const moves = producers(steps).flatMap((i) =>
    consumers(steps, steps[i].label!, i)
      .filter((j) => isCall(steps[j], ctx))
      .map((j) => ({ i, j })),
  );
  if (moves.length === 0) return null;
  const { i, j } = choose(rng, moves);
  const rest = steps.filter((_, k) => k !== i);
  // After removing i, the consumer sits at j - 1: put the producer right behind it.
  return [...rest.slice(0, j), steps[i], ...rest.slice(j)];
};

export const MISTAKES: Readonly<Record<MistakeKind, Mistake>> = {
  api_name: apiName,
  param_name: paramName,
  missing_param: missingParam,
  extra_param: extraParam,
  ref_label: refLabel,
  ref_field: refField,
  missing_label: missingLabel,
  wrong_label: wrongLabel,
  missing_step: missingStep,
  out_of_order: outOfOrder,
};
