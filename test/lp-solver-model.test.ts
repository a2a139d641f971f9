/**
 * The lp-solver backend builds the solver's model through its programmatic API instead of writing the
 * JSON form and having the solver read it back. Both must give the solver the same model, element for
 * element and in the same order, or its pivots (and so, among equal-cost optima, its answer) would change:
 * these tests solve models both ways and require identical answers, every variable's value included, on
 * random models (rows naming a variable twice, zero and negative coefficients, every kind of bound) and on
 * the models of real corrupted NESTFUL records.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import lpSolverModule, { type ModelDefinition, type SolverAPI } from 'javascript-lp-solver';
import { buildLpSolverModel } from '../src/solvers/lp-solver.ts';
import { continuousSet } from '../src/solvers/verify.ts';
import type { MilpModel, Row } from '../src/solvers/index.ts';
import { compileFor } from '../src/repair/repair.ts';
import { loadCorrupted } from '../research/bench/data.ts';
import { parseSequence } from '../src/read/sequence.ts';
import { executable } from './helpers.ts';

const imported = lpSolverModule as unknown as SolverAPI | { default: SolverAPI };
const lp: SolverAPI = 'Solve' in imported ? imported : imported.default;

/** The JSON form the backend used to hand the solver: the reference the built model must equal. */
function jsonModel(model: MilpModel, timeoutMs?: number): ModelDefinition {
  const variables: Record<string, Record<string, number>> = {};
  const constraints: Record<string, { min?: number; max?: number; equal?: number }> = {};
  const ints: Record<string, 1> = {};
  const continuous = continuousSet(model);
  const coefsOf: Record<string, number>[] = [];
  for (let j = 0; j < model.numVars; j++) {
    const coefs: Record<string, number> = { obj: model.cost[j], [`u${j}`]: 1 };
    variables[`x${j}`] = coefs;
    coefsOf.push(coefs);
    constraints[`u${j}`] = { max: 1 };
    if (!continuous.has(j)) ints[`x${j}`] = 1;
  }
  model.rows.forEach((row, i) => {
    const hasLower = row.lower > -Infinity;
    const hasUpper = row.upper < Infinity;
    if ((!hasLower && !hasUpper) || row.vars.length === 0) return;
    const name = `r${i}`;
    if (hasLower && hasUpper && row.lower === row.upper) constraints[name] = { equal: row.lower };
    else
      constraints[name] = {
        ...(hasLower ? { min: row.lower } : {}),
        ...(hasUpper ? { max: row.upper } : {}),
      };
    row.vars.forEach((v, k) => (coefsOf[v][name] = (coefsOf[v][name] ?? 0) + row.coefs[k]));
  });
  return {
    optimize: 'obj',
    opType: 'min',
    constraints,
    variables,
    ints,
    options: { presolve: false, ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) },
  };
}

/** The answer, and the solver's final tableau: the same model solved the same way ends in the same one. */
function solved(model: ModelDefinition | ReturnType<typeof buildLpSolverModel>) {
  const answer = lp.Solve(model);
  const t = lp.lastSolvedModel!.tableau;
  const tableau = {
    matrix: Array.from(t.matrix),
    rows: t.varIndexByRow,
    cols: t.varIndexByCol,
    simplexIters: t.simplexIters,
    branchAndCutIterations: t.branchAndCutIterations,
  };
  return { answer, tableau };
}

function expectSameAnswer(model: MilpModel): void {
  const timeoutMs = 10_000;
  const fromJson = solved(jsonModel(model, timeoutMs));
  const built = solved(buildLpSolverModel(lp, model, timeoutMs));
  expect(built).toEqual(fromJson);
}

const rowArb = (n: number) =>
  fc
    .record({
      // Not unique: a row may name a variable twice (its coefficients add up).
      vars: fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 0, maxLength: n + 2 }),
      coefs: fc.array(fc.constantFrom(-3, -1, -0, 0, 0.5, 1, 2), { minLength: n + 2, maxLength: n + 2 }),
      kind: fc.constantFrom('le', 'ge', 'eq', 'range', 'free'),
      a: fc.integer({ min: -2, max: 4 }),
      width: fc.integer({ min: 0, max: 3 }),
    })
    .map(({ vars, coefs, kind, a, width }): Row => {
      const bounds: Record<string, [number, number]> = {
        le: [-Infinity, a],
        ge: [a, Infinity],
        eq: [a, a],
        range: [a, a + width],
        free: [-Infinity, Infinity],
      };
      const [lower, upper] = bounds[kind];
      return { vars, coefs: vars.map((_, k) => coefs[k]), lower, upper };
    });

const modelArb = fc.integer({ min: 1, max: 10 }).chain((n) =>
  fc.record({
    numVars: fc.constant(n),
    cost: fc.array(fc.constantFrom(-4, -1, -0, 0, 0.25, 1, 3), { minLength: n, maxLength: n }),
    rows: fc.array(rowArb(n), { minLength: 0, maxLength: 7 }),
    continuous: fc.subarray([...Array(n).keys()]),
  }),
);

describe('the lp-solver model built through its API', () => {
  it('answers random models exactly as the JSON form does', () => {
    fc.assert(
      fc.property(modelArb, (model) => expectSameAnswer(model)),
      { numRuns: 300 },
    );
  });

  it('answers the models of corrupted NESTFUL records exactly as the JSON form does', () => {
    const records = loadCorrupted('executable').slice(0, 60);
    let solved = 0;
    for (const record of records) {
      const { model } = compileFor(parseSequence(record.sequence), executable);
      if (model.numVars === 0 || model.numVars > 300) continue;
      expectSameAnswer(model);
      solved++;
    }
    expect(solved).toBeGreaterThan(40);
  });
});
