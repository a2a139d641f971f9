/**
 * The library's main entry: validate -> (fast path) -> compile -> solve -> verify -> decode -> validate
 * again. Never throws for a bad sequence; input errors (bad catalog shapes) are the adapters' business.
 */
import type { Catalog, Sequence } from '../domain/types.ts';
import { compile, type Compiled } from '../compile/compile.ts';
import { decode, type Decoded } from '../decode/decode.ts';
import { diffSequences } from '../decode/diff.ts';
import { loadCostModel } from '../cost/presets.ts';
import { solveVerified } from '../solvers/index.ts';
import { validate } from '../validate/validate.ts';
import type { RepairOptions, RepairResult } from './types.ts';
import { ASK, CONFIRM } from '../decode/decode.ts';

/** Compiles a sequence with the options of a repair (exposed for benchmarks and the exhaustive tests). */
export function compileFor(sequence: Sequence, catalog: Catalog, options: RepairOptions = {}): Compiled {
  const cost = options.cost ?? loadCostModel('default');
  return compile(sequence, catalog, cost, {
    memory: options.memory,
    mappings: options.mappings,
    givenOnly: options.givenOnly,
    allowInsert: options.allowInsert,
    resultName: options.resultName,
    strictTypes: options.types === 'strict',
    goals: options.goals,
    mode: options.mode,
  });
}

export function isExecutable(sequence: Sequence): boolean {
  return !sequence.some((s) => s.name === ASK || s.name === CONFIRM);
}

export async function repair(sequence: Sequence, catalog: Catalog, options: RepairOptions = {}): Promise<RepairResult> {
  const start = performance.now();
  const validation = validate(sequence, catalog, options);
  const base = { issues: validation.issues, timeMs: 0 };
  if (validation.valid && !options.goals && options.mode !== 'optimal') {
    return {
      ...base,
      determination: true,
      status: 'valid',
      sequence,
      edits: [],
      cost: 0,
      optimal: true,
      diff: '',
      solver: 'none',
      isExecutable: true,
      timeMs: performance.now() - start,
    };
  }
  const solverName = options.solver ?? 'highs';
  const undecided = (status: 'timeout' | 'error', reason: string, extra: object = {}): RepairResult => ({
    ...base,
    determination: validation.valid ? true : null,
    status,
    sequence,
    edits: [],
    cost: 0,
    optimal: false,
    diff: '',
    solver: solverName,
    reason,
    ...extra,
    timeMs: performance.now() - start,
  });
  let compiled: Compiled;
  try {
    compiled = compileFor(sequence, catalog, options);
  } catch (error) {
    return undecided('error', `compile failed: ${(error as Error).message}`);
  }
  const { model, plan } = compiled;
  const size = { vars: model.numVars, rows: model.rows.length };
  const solution = await solveVerified(model, { solver: solverName, timeLimit: options.timeout });
  if (!solution.values || (solution.status !== 'optimal' && solution.status !== 'timeout')) {
    const status = solution.status === 'timeout' ? 'timeout' : 'error';
    return undecided(status, solution.reason ?? `solver status ${solution.status}`, { model: size });
  }
  let decoded: Decoded;
  try {
    decoded = decode(plan, solution.values);
  } catch (error) {
    return undecided('error', `decode failed: ${(error as Error).message}`, { model: size });
  }
  const expected = (solution.objective ?? NaN) + plan.offset;
  if (!(Math.abs(decoded.cost - expected) <= 1e-6 * Math.max(1, Math.abs(expected)))) {
    return undecided('error', `internal: decoded cost ${decoded.cost} differs from the objective ${expected}`, { model: size });
  }
  const check = validate(decoded.sequence, catalog, { ...options, pseudoSteps: true });
  if (!check.valid) {
    const first = check.issues.find((x) => x.severity === 'error')!;
    return undecided('error', `internal: the repair does not validate (step ${first.step + 1}: ${first.message})`, {
      model: size,
    });
  }
  const repaired = decoded.sequence;
  const cost = round(decoded.cost);
  return {
    ...base,
    determination: validation.valid,
    status: solution.status === 'timeout' ? 'timeout' : 'repaired',
    sequence: repaired,
    edits: decoded.edits.map((e) => ({ ...e, cost: round(e.cost) })),
    cost,
    optimal: solution.optimal,
    diff: diffSequences(sequence, repaired),
    solver: solution.solver,
    isExecutable: isExecutable(repaired),
    gap: solution.gap,
    model: size,
    timeMs: performance.now() - start,
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
