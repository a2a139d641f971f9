/**
 * Guarantees on generated small catalogs and corrupted sequences: every repair validates, the MILP optimum
 * equals an exhaustive search's optimum, and HiGHS and javascript-lp-solver agree on the optimal cost.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ApiSpec, Catalog, Json, Step } from '../src/model/types.ts';
import { compileFor, repair } from '../src/repair/repair.ts';
import { validate } from '../src/validate/validate.ts';
import { exhaustiveOptimum } from './exhaustive.ts';
import { createSolver } from '../src/solvers/index.ts';

const REQUEST_FIELDS = ['id', 'name', 'city', 'code'];

const apiArb = (name: string): fc.Arbitrary<ApiSpec> =>
  fc
    .record({
      params: fc.uniqueArray(fc.constantFrom(...REQUEST_FIELDS, 'query', 'date'), {
        minLength: 1,
        maxLength: 3,
      }),
      required: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      outputs: fc.uniqueArray(fc.constantFrom(...REQUEST_FIELDS), { minLength: 1, maxLength: 2 }),
    })
    .map(({ params, required, outputs }) => ({
      name,
      description: '',
      params: params.map((p, i) => ({ name: p, type: 'any' as const, required: required[i] || i === 0 })),
      outputs: outputs.map((f) => ({ path: f, type: 'any' as const })),
    }));

const catalogArb: fc.Arbitrary<Catalog> = fc
  .tuple(apiArb('SearchPlace'), apiArb('GetDetails'), apiArb('BookTrip'))
  .map((apis) => ({ apis }));

/** A valid chain: required inputs come from an earlier output of the same name when one exists. */
function goldFor(catalog: Catalog, picks: number[]): Step[] {
  const steps: Step[] = [];
  picks.forEach((k, i) => {
    const api = catalog.apis[k % catalog.apis.length];
    const args: Record<string, Json> = {};
    for (const p of api.params) {
      if (!p.required) continue;
      const j = steps.findIndex((s) =>
        catalog.apis.find((a) => a.name === s.name)!.outputs!.some((f) => f.path === p.name),
      );
      args[p.name] = j === -1 ? `v${i}` : `$${steps[j].label}.${p.name}$`;
    }
    steps.push({ name: api.name, arguments: args, label: `var${i + 1}` });
  });
  const last = steps.at(-1)!;
  return [...steps, { name: 'var_result', arguments: { answer: `$${last.label}$` } }];
}

type Corruption = (steps: Step[], at: number) => Step[];
const replaceStep = (steps: Step[], at: number, step: Step) => steps.map((s, i) => (i === at ? step : s));
const CORRUPTIONS: Record<string, Corruption> = {
  misspellApi: (s, at) => replaceStep(s, at, { ...s[at], name: s[at].name.slice(0, -1) }),
  renameParam: (s, at) => {
    const [k, v] = Object.entries(s[at].arguments)[0] ?? [];
    if (k === undefined) return s;
    const args = { ...s[at].arguments };
    delete args[k];
    return replaceStep(s, at, { ...s[at], arguments: { ...args, [`${k}x`]: v } });
  },
  dropParam: (s, at) => {
    const [k] = Object.keys(s[at].arguments);
    if (k === undefined) return s;
    const args = { ...s[at].arguments };
    delete args[k];
    return replaceStep(s, at, { ...s[at], arguments: args });
  },
  relabel: (s, at) => replaceStep(s, at, { ...s[at], label: `${s[at].label}0` }),
  unlabel: (s, at) => replaceStep(s, at, { name: s[at].name, arguments: s[at].arguments }),
  deleteStep: (s, at) => s.filter((_, i) => i !== at),
  madeUpParam: (s, at) => replaceStep(s, at, { ...s[at], arguments: { ...s[at].arguments, verbose: true } }),
};

const caseArb = fc.record({
  catalog: catalogArb,
  picks: fc.array(fc.nat(2), { minLength: 2, maxLength: 3 }),
  corruptions: fc.array(fc.tuple(fc.constantFrom(...Object.keys(CORRUPTIONS)), fc.nat(2)), {
    minLength: 1,
    maxLength: 2,
  }),
  mappings: fc.uniqueArray(
    fc.record({
      from: fc.constantFrom(...REQUEST_FIELDS),
      to: fc.constantFrom(...REQUEST_FIELDS, 'query', 'date'),
      score: fc.constantFrom(0.6, 1),
    }),
    { maxLength: 2, selector: (m) => `${m.from}>${m.to}` },
  ),
  memory: fc.option(fc.record({ mem: fc.record({ city: fc.constant('Rome'), code: fc.constant('FCO') }) }), {
    nil: undefined,
  }),
});

function corrupted(c: typeof caseArb extends fc.Arbitrary<infer T> ? T : never): Step[] {
  let steps = goldFor(c.catalog, c.picks);
  for (const [kind, at] of c.corruptions) {
    const target = at % (steps.length - 1); // never the answer step
    steps = CORRUPTIONS[kind](steps, target);
  }
  return steps;
}

describe('optimality on generated catalogs', () => {
  it('MILP optimum = exhaustive optimum, repairs validate, HiGHS = lp-solver', async () => {
    const highs = createSolver('highs');
    const lp = createSolver('lp-solver');
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const steps = corrupted(c);
        if (validate(steps, c.catalog, { memory: c.memory }).valid) return;
        const mappings = c.mappings.filter((m) => m.from !== m.to);
        const options = { allowInsert: c.picks[0] % 2 === 0, mappings, memory: c.memory };
        const result = await repair(steps, c.catalog, options);
        expect(result.status).toBe('repaired');
        expect(validate(result.sequence, c.catalog, { pseudoSteps: true, memory: c.memory }).valid).toBe(
          true,
        );
        const { model, plan } = compileFor(steps, c.catalog, options);
        const byHighs = await highs.solve(model);
        const byLp = await lp.solve(model);
        expect(byHighs.status).toBe('optimal');
        expect(byLp.status).toBe('optimal');
        expect(byLp.objective).toBeCloseTo(byHighs.objective!, 6);
        // Nothing valid is cheaper than the solver's repair (which itself validated above)…
        expect(exhaustiveOptimum(plan, model.numVars, c.catalog, c.memory, result.cost - 1e-6)).toBeNull();
        // …and the search does find a repair of exactly that cost.
        const exhaustive = exhaustiveOptimum(plan, model.numVars, c.catalog, c.memory, result.cost + 1e-6);
        expect(exhaustive!.cost).toBeCloseTo(result.cost, 6);
        compared++;
      }),
      { numRuns: 80, seed: 20261130 },
    );
    expect(compared).toBeGreaterThan(40);
  });
});
