/**
 * Guarantees on generated small catalogs and corrupted sequences: every repair validates, the MILP optimum
 * equals an exhaustive search's optimum (one source per role and shared asks included), and HiGHS and
 * javascript-lp-solver agree on the optimal cost and on the repair itself.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ApiSpec, Catalog, Json, Step } from '../src/model/types.ts';
import { compileFor, repair } from '../src/repair/repair.ts';
import { validate } from '../src/validate/validate.ts';
import { exhaustiveOptimum } from './exhaustive.ts';
import { createSolver } from '../src/solvers/index.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import { decode } from '../src/decode/decode.ts';
import { formatStringForm } from '../src/read/sequence.ts';

const REQUEST_FIELDS = ['id', 'name', 'city', 'code'];

/** Parameters beyond the output names: free values, and two in parallel roles (`from_id`, `to_id`). */
const PARAMS = [...REQUEST_FIELDS, 'query', 'date', 'from_id', 'to_id', 'city_id'];

const apiArb = (name: string): fc.Arbitrary<ApiSpec> =>
  fc
    .record({
      params: fc.uniqueArray(fc.constantFrom(...PARAMS), { minLength: 1, maxLength: 3 }),
      required: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      outputs: fc.uniqueArray(fc.constantFrom(...REQUEST_FIELDS), { minLength: 1, maxLength: 2 }),
    })
    .map(({ params, required, outputs }) => ({
      name,
      description: '',
      params: params.map((p, i) => ({ name: p, type: 'any' as const, required: required[i] || i === 0 })),
      outputs: outputs.map((f) => ({ path: f, type: 'any' as const })),
    }));

// `SearchCity` names an entity: its `id` stands for a `city_id` in context.
const catalogArb: fc.Arbitrary<Catalog> = fc
  .tuple(apiArb('SearchCity'), apiArb('GetDetails'), apiArb('BookTrip'))
  .map((apis) => ({ apis }));

/** A valid chain: required inputs come from an earlier output of the same name when one exists. */
function goldFor(catalog: Catalog, picks: number[]): Step[] {
  const steps: Step[] = [];
  picks.forEach((k, i) => {
    const api = catalog.apis[k % catalog.apis.length];
    const args: Record<string, Json> = {};
    const outputs = (s: Step) => catalog.apis.find((a) => a.name === s.name)!.outputs!;
    const ids = steps.filter((s) => outputs(s).some((f) => f.path === 'id'));
    let idsUsed = 0;
    for (const p of api.params) {
      if (!p.required) continue;
      const j = steps.findIndex((s) => outputs(s).some((f) => f.path === p.name));
      if (j !== -1) args[p.name] = `$${steps[j].label}.${p.name}$`;
      else if (p.name.endsWith('_id') && ids.length > 0) {
        // An `x_id` takes the `id` of an earlier call, a different call for each role where it can.
        const from = ids[Math.max(0, ids.length - 1 - idsUsed++)];
        args[p.name] = `$${from.label}.id$`;
      } else args[p.name] = `v${i}`;
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
  // The step written after the next one (its reader, when the next reads it): moved back, renamed or relabelled.
  moveLater: (s, at) =>
    at + 2 < s.length ? s.map((step, i) => (i === at ? s[at + 1] : i === at + 1 ? s[at] : step)) : s,
  madeUpParam: (s, at) => replaceStep(s, at, { ...s[at], arguments: { ...s[at].arguments, verbose: true } }),
};

const caseArb = fc.record({
  catalog: catalogArb,
  costModel: fc.constantFrom('default', 'default', 'allow-deletes'),
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
        const options = {
          allowInsert: c.picks[0] % 2 === 0,
          mappings,
          memory: c.memory,
          cost: loadCostModel(c.costModel),
        };
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
        // …and the same repair: the tie-breaks leave one optimum.
        expect(formatStringForm(decode(plan, byLp.values!).sequence)).toBe(
          formatStringForm(decode(plan, byHighs.values!).sequence),
        );
        // Nothing valid is cheaper than the solver's repair (which itself validated above)…
        expect(exhaustiveOptimum(plan, model.numVars, c.catalog, c.memory, result.cost - 1e-6)).toBeNull();
        // …and the search does find a repair of exactly that cost.
        const exhaustive = exhaustiveOptimum(plan, model.numVars, c.catalog, c.memory, result.cost + 1e-6);
        // (The repair reports its cost rounded to 6 decimals: up to half a unit of the last one apart.)
        expect(Math.abs(exhaustive!.cost - result.cost)).toBeLessThanOrEqual(5e-7 + 1e-12);
        compared++;
      }),
      { numRuns: 200, seed: 20261130 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});

describe('optimality with one answer read by two calls', () => {
  it('a rate both calls lack is asked once: the exhaustive optimum agrees, and so does lp-solver', async () => {
    const api = (name: string, params: string[], output: string): ApiSpec => ({
      name,
      description: name,
      params: params.map((p) => ({ name: p, type: 'number' as const, required: true })),
      outputs: [{ path: output, type: 'number' as const }],
    });
    const catalog: Catalog = {
      apis: [
        api('loan_payment', ['amount', 'rate'], 'payment'),
        api('interest', ['principal', 'rate'], 'paid'),
      ],
    };
    const steps: Step[] = [
      { name: 'loan_payment', arguments: { amount: 100 }, label: 'var1' },
      { name: 'interest', arguments: { principal: 100 }, label: 'var2' },
      { name: 'var_result', arguments: { payment: '$var1.payment$', paid: '$var2.paid$' } },
    ];
    const result = await repair(steps, catalog);
    expect(formatStringForm(result.sequence)).toBe(
      [
        'rate = ask(slot="rate")',
        'var1 = loan_payment(amount=100, rate="$rate$")',
        'var2 = interest(principal=100, rate="$rate$")',
        'var_result(payment="$var1.payment$", paid="$var2.paid$")',
      ].join('\n'),
    );
    const { model, plan } = compileFor(steps, catalog, {});
    expect(plan.slotShares.length).toBe(1);
    expect(exhaustiveOptimum(plan, model.numVars, catalog, {}, result.cost - 1e-6)).toBeNull();
    expect(exhaustiveOptimum(plan, model.numVars, catalog, {}, result.cost + 1e-6)!.cost).toBeCloseTo(
      result.cost,
      6,
    );
    const byLp = await createSolver('lp-solver').solve(model);
    expect(formatStringForm(decode(plan, byLp.values!).sequence)).toBe(formatStringForm(result.sequence));
  });
});
