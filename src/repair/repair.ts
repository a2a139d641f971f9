/**
 * The library's main entry: validate -> (fast path) -> compile -> solve -> verify -> decode -> validate
 * again. Never throws for a bad sequence; input errors (bad catalog shapes) are the adapters' business.
 */
import type { Catalog, Sequence, Step } from '../model/types.ts';
import { compile, type Compiled, type CompileOptions } from '../compile/compile.ts';
import { BudgetExceeded, type CompileBudget } from '../compile/budget.ts';
import { excludePoint } from '../compile/cuts.ts';
import { GoalError } from '../compile/goals.ts';
import { DEFAULT_RESULT_NAME, DEFAULT_SOLVER, isPseudoStep, isPseudoStepIn } from '../model/constants.ts';
import { decode, type Decoded } from '../decode/decode.ts';
import { diffSequences } from '../decode/diff.ts';
import { formatStringForm } from '../read/string-form.ts';
import { loadCostModel } from '../read/cost-models.ts';
import { getSolver, solveGuarded } from '../solvers/index.ts';
import type { MilpModel, Solution } from '../model/milp.ts';
import { apiByName, validate } from '../validate/validate.ts';
import { unmetGoals } from '../validate/goals.ts';
import type { Fix, RepairOptions, RepairResult, TriesExceeded } from '../model/options.ts';
import { exhaustedReason, triesExceeded } from '../validate/tries.ts';
import { withExecutedResults } from '../validate/executed-memory.ts';
import { COST_DIGITS, round, SHORT_DIGITS } from '../model/numbers.ts';
import { errorMessage, InputError } from '../model/errors.ts';
import { pseudoStepsOf, putBack, setAside } from './pseudo.ts';
import { assessRepair } from '../confidence/assess.ts';
import { calibrationInForce } from '../model/calibration.ts';
import { fixesWithConfidence, type FixPoint } from '../confidence/alternatives.ts';

/** Models above this many variables are refused with a clear message (override with `maxModelVars`). */
export const DEFAULT_MAX_MODEL_VARS = 200_000;
/** Models above this many coefficients are refused likewise (override with `maxModelNonzeros`). */
export const DEFAULT_MAX_MODEL_NONZEROS = 2_000_000;
/** Re-solves allowed per extra fix when cuts only exclude points that decode to a repair already found. */
const CUT_ATTEMPTS = 25;

/** Compiles a sequence with the options of a repair (exposed for benchmarks and the exhaustive tests). */
export function compileFor(
  sequence: Sequence,
  catalog: Catalog,
  options: RepairOptions = {},
  budget?: CompileBudget,
): Compiled {
  const cost = options.cost ?? loadCostModel('default');
  return compile(sequence, catalog, cost, compileOptions(options, budget));
}

/** The compile options a repair's options ask for. */
export function compileOptions(options: RepairOptions, budget?: CompileBudget): CompileOptions {
  return {
    memory: options.memory,
    mappings: options.mappings,
    givenOnly: options.givenOnly,
    allowInsert: options.allowInsert,
    resultName: options.resultName,
    strictTypes: options.types === 'strict',
    goals: options.goals,
    mode: options.mode,
    defensive: options.defensive,
    catalogMappings: options.catalogMappings,
    executed: options.executed,
    maxTries: options.maxTries,
    budget,
  };
}

/**
 * True when no step is an `ask`/`confirm` pseudo-step: one the catalog has no API of. Without a catalog
 * (the library's `isExecutable(sequence)`) there is nothing to tell a call from a question but the name.
 */
export function isExecutable(sequence: Sequence, catalog?: Catalog): boolean {
  if (!catalog) return !sequence.some(isPseudoStep);
  const apis = apiByName(catalog);
  return !sequence.some((s) => isPseudoStepIn(s, apis));
}

/**
 * Refuses a `minConfidence` the repair cannot honour: the cost model carries no calibration fitted for its
 * weights, or the confidence is skipped (`confidence: false`). `field` names the option as the caller's
 * front end spells it.
 */
export function checkMinConfidence(
  options: Pick<RepairOptions, 'cost' | 'confidence' | 'minConfidence'>,
  field = 'minConfidence',
): void {
  const min = options.minConfidence;
  if (min === undefined) return;
  if (!(typeof min === 'number' && min >= 0 && min <= 1))
    throw new InputError(field, `expected a number from 0 to 1, received ${String(min)}`);
  if (options.confidence === false)
    throw new InputError(field, 'needs the confidence, which is skipped (--no-confidence, confidence false)');
  const cost = options.cost ?? loadCostModel('default');
  if (!calibrationInForce(cost))
    throw new InputError(
      field,
      'needs a cost model with a calibration fitted for its weights (refract calibrate --model-out); ' +
        (cost.calibration
          ? 'its calibration was fitted for other weights (a weight override changes them: refit with refract calibrate)'
          : 'this one has none'),
    );
}

/** A result's reason: the parts that hold (why it is held back, why its confidence may differ on another run). */
function reasonOf(...parts: (string | undefined)[]): { reason?: string } {
  const given = parts.filter((p): p is string => p !== undefined);
  return given.length > 0 ? { reason: given.join('; ') } : {};
}

/**
 * Repairs a sequence at the lowest cost. Throws an `InputError` only for options it cannot honour
 * (`checkMinConfidence`); a bad sequence is a result.
 */
export async function repair(
  sequence: Sequence,
  catalog: Catalog,
  given: RepairOptions = {},
): Promise<RepairResult> {
  const start = performance.now();
  // An executed call's result is the run's whether or not memory carries it: its readers read it.
  const memory = withExecutedResults(given.memory, given.executed, catalog);
  const options = memory === given.memory ? given : { ...given, memory };
  const cost = options.cost ?? loadCostModel('default');
  const calibration = calibrationInForce(cost);
  if (options.minConfidence !== undefined) checkMinConfidence(options);
  const validation = validate(sequence, catalog, options);
  const elapsed = () => performance.now() - start;
  const solverName = options.backend?.name ?? options.solver ?? DEFAULT_SOLVER;
  const base = { issues: validation.issues, sequence, edits: [], cost: 0, diff: '' };
  const needsModel = options.goals !== undefined || options.mode === 'optimal';
  // In modes valid and optimal, a sequence that misses a goal is not what was asked for.
  const goalsMet =
    (options.mode ?? (options.goals ? 'valid' : 'sound')) === 'sound' ||
    !options.goals ||
    unmetGoals(sequence, catalog, options.goals, {
      memory: options.memory,
      executed: options.executed,
      mappings: options.mappings,
      catalogMappings: options.catalogMappings,
    }).length === 0;
  const determination = validation.valid && goalsMet;
  if (validation.valid && !needsModel) {
    // Written out (no spread of `base`): the result of every valid record of a batch.
    return {
      issues: validation.issues,
      sequence,
      edits: [],
      cost: 0,
      diff: '',
      determination: true,
      status: 'valid',
      optimal: true,
      solver: 'none',
      confidence: calibration ? 1 : undefined,
      isExecutable: isExecutable(sequence, catalog),
      timeMs: elapsed(),
    };
  }
  const undecided = (status: 'timeout' | 'error', reason: string, extra: object = {}): RepairResult => ({
    ...base,
    // A valid input that misses a goal is decided (false) even when the repair fails.
    determination: validation.valid ? goalsMet : null,
    status,
    optimal: false,
    solver: solverName,
    reason,
    ...extra,
    timeMs: elapsed(),
  });
  // One deadline for compiling and solving: the earlier of the request's and this repair's own.
  const ownDeadline =
    options.timeout === undefined ? undefined : Date.now() - elapsed() + options.timeout * 1000;
  const deadline =
    options.deadline === undefined || ownDeadline === undefined
      ? (options.deadline ?? ownDeadline)
      : Math.min(options.deadline, ownDeadline);
  // Pseudo-steps of an earlier repair stay as they are: the optimiser sees the calls alone.
  const aside = setAside(sequence, catalog, options.memory);
  const compileWith = (own: RepairOptions): Compiled | RepairResult => {
    try {
      const input = aside ? aside.calls : sequence;
      return compileFor(input, catalog, aside ? { ...own, memory: aside.memory } : own, {
        maxVars: options.maxModelVars ?? DEFAULT_MAX_MODEL_VARS,
        maxNonzeros: options.maxModelNonzeros ?? DEFAULT_MAX_MODEL_NONZEROS,
        deadline,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof GoalError) return undecided('error', error.message);
      if (error instanceof BudgetExceeded)
        return undecided(error.kind === 'time' ? 'timeout' : 'error', error.message);
      return undecided('error', `compile failed: ${(error as Error).message}`);
    }
  };
  let compiled = compileWith(options);
  if ('status' in compiled) return compiled;
  let model: MilpModel = compiled.model;
  if (options.signal?.aborted) {
    return undecided('error', 'the request was cancelled', { model: modelSize(model) });
  }

  const backend = options.backend ?? getSolver(options.solver ?? DEFAULT_SOLVER);
  const solve = (m: MilpModel): Promise<Solution> =>
    solveGuarded(backend, m, {
      timeLimit: deadline === undefined ? undefined : Math.max(0.05, (deadline - Date.now()) / 1000),
    });
  let first = await solve(model);
  if (!first.values && first.status !== 'timeout' && options.maxTries !== undefined) {
    // The tries rows can leave no repair at all (a goal needs the call the limit takes away): solved without
    // them, the repair's final check reports the calls over the limit (`exhausted`).
    const unlimited = compileWith({ ...options, maxTries: undefined });
    if ('status' in unlimited) return unlimited;
    compiled = unlimited;
    model = compiled.model;
    first = await solve(model);
  }
  const { plan } = compiled;
  const size = modelSize(model);
  if (!first.values || (first.status !== 'optimal' && first.status !== 'timeout')) {
    const status = first.status === 'timeout' ? 'timeout' : 'error';
    return undecided(status, first.reason ?? `solver status ${first.status}`, { model: size });
  }
  const checked = check(first, plan.offset);
  if (typeof checked === 'string') return undecided('error', checked, { model: size });
  const invalid = revalidate(checked, catalog, options);
  if (invalid) return undecided('error', invalid, { model: size });

  const fixes: Fix[] = [toFix(checked)];
  const points: FixPoint[] = [{ values: first.values, edits: checked.edits }];
  const seen = new Set([formatStringForm(checked.sequence)]);
  let values = first.values;
  for (
    let attempts = 0;
    fixes.length < (options.fixes ?? 1) && attempts < CUT_ATTEMPTS * (options.fixes ?? 1);
    attempts++
  ) {
    if (options.signal?.aborted || (deadline !== undefined && Date.now() > deadline)) break;
    model = excludePoint(model, values);
    const next = await solve(model);
    if (!next.values || next.status !== 'optimal') break;
    values = next.values;
    const decoded = check(next, plan.offset);
    if (typeof decoded === 'string') return undecided('error', decoded, { model: size });
    const key = formatStringForm(decoded.sequence);
    if (seen.has(key)) continue;
    const bad = revalidate(decoded, catalog, options);
    if (bad) return undecided('error', bad, { model: size });
    seen.add(key);
    fixes.push(toFix(decoded));
    points.push({ values, edits: decoded.edits });
  }

  const unchanged = checked.edits.length === 0;
  const partial = checked.dropped.length > 0;
  const exhausted = overTries(checked.sequence, catalog, options);
  // A partial repair dropped a call of the user's: it is not the plan they wrote for (the judge never counts
  // one right), so its confidence is 0 and no second solve is spent on it unless its evidence is asked for.
  const assessed =
    unchanged ||
    (partial && !options.confidenceEvidence) ||
    first.status !== 'optimal' ||
    options.confidence === false ||
    !(calibration || options.confidenceEvidence)
      ? undefined
      : await assessRepair(
          compiled.model,
          plan,
          first.values,
          checked.edits,
          solve,
          calibration,
          cost.weights,
          options.confidenceEvidence === true,
        );
  const settled = first.status === 'optimal' && calibration !== undefined;
  const confidence = settled && unchanged ? 1 : settled && partial ? 0 : assessed?.confidence;
  // Below `minConfidence` a repair is held back as uncertain; the worse statuses keep theirs.
  const unsure =
    options.minConfidence !== undefined && confidence !== undefined && confidence < options.minConfidence;
  const status =
    first.status === 'timeout'
      ? 'timeout'
      : exhausted.length > 0
        ? 'exhausted'
        : unchanged
          ? 'valid'
          : partial
            ? 'partial'
            : unsure
              ? 'uncertain'
              : 'repaired';
  return {
    issues: validation.issues,
    determination,
    status,
    ...(partial ? { dropped: checked.dropped } : {}),
    ...(exhausted.length > 0 ? { exhausted } : {}),
    ...reasonOf(
      status === 'timeout'
        ? `the time limit came before the solver proved this repair optimal${first.gap !== undefined ? ` (gap ${round(first.gap, SHORT_DIGITS)})` : ''}`
        : undefined,
      exhausted.length > 0 ? exhaustedReason(exhausted[0], options.maxTries!) : undefined,
      status === 'uncertain' || (status === 'partial' && unsure)
        ? `confidence ${confidence} is below minConfidence ${options.minConfidence}`
        : undefined,
      confidence !== undefined ? assessed?.unsettled : undefined,
    ),
    sequence: checked.sequence,
    edits: checked.edits.map((e) => ({ ...e, cost: round(e.cost, COST_DIGITS) })),
    cost: round(checked.cost, COST_DIGITS),
    optimal: first.optimal,
    diff: unchanged ? '' : diffSequences(sequence, checked.sequence),
    solver: first.solver,
    // A plan over its tries is not run as it stands, whatever it asks; nor one held back as uncertain, nor
    // one that dropped a call of the user's (partial: not the plan asked for).
    isExecutable:
      exhausted.length === 0 &&
      status !== 'uncertain' &&
      !partial &&
      !checked.sequence.some(pseudoStepsOf(checked, catalog)),
    ...(first.gap !== undefined ? { gap: first.gap } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(options.confidenceEvidence && assessed ? { evidence: assessed.evidence } : {}),
    ...(options.fixes !== undefined
      ? {
          fixes: assessed
            ? fixesWithConfidence(plan, fixes, points, calibration, confidence, options.confidenceEvidence)
            : fixes,
        }
      : {}),
    model: size,
    timeMs: elapsed(),
  };

  /**
   * Decodes a point the solver layer has already verified against the model (`solveGuarded`). What is
   * checked here is the decoder, not the point: the edits it reads off the point must cost what the model
   * says the point costs, or the compiled model and the decoded repair disagree (a bug in compile/decode).
   */
  function check(solution: Solution, offset: number): Decoded | string {
    let decoded: Decoded;
    try {
      decoded = decode(plan, solution.values!);
    } catch (error) {
      return `decode failed: ${errorMessage(error)}`;
    }
    const expected = (solution.objective ?? NaN) + offset;
    const found = decoded.cost - decoded.confirmCost + decoded.tie;
    if (!(Math.abs(found - expected) <= 1e-6 * Math.max(1, Math.abs(expected)))) {
      return `internal: decoded cost ${decoded.cost} differs from the objective ${expected}`;
    }
    return aside ? putBack(aside, decoded, options.resultName ?? DEFAULT_RESULT_NAME) : decoded;
  }
}

/**
 * Every repair is validated again before it is returned; a failure is a bug, reported as such. The tries
 * limit is no part of it: a repair that cannot keep to it is returned as `exhausted` (`overTries`).
 */
function revalidate(decoded: Decoded, catalog: Catalog, options: RepairOptions): string | null {
  const check = validate(decoded.sequence, catalog, { ...options, maxTries: undefined, pseudoSteps: true });
  if (check.valid) return null;
  const first = check.issues.find((x) => x.severity === 'error')!;
  return `internal: the repair does not validate (step ${first.step + 1}: ${first.message})`;
}

const modelSize = (model: MilpModel) => ({ vars: model.numVars, rows: model.rows.length });

/** The calls of a repaired sequence beyond `maxTries` (none without the limit). */
function overTries(sequence: Sequence, catalog: Catalog, options: RepairOptions): TriesExceeded[] {
  if (options.maxTries === undefined) return [];
  const apis = apiByName(catalog);
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const skip = (s: Step, i: number) =>
    (s.name === resultName && i === sequence.length - 1) || isPseudoStepIn(s, apis);
  return triesExceeded(sequence, options.executed ?? [], options.maxTries, skip);
}

function toFix(d: Decoded): Fix {
  return {
    sequence: d.sequence,
    edits: d.edits.map((e) => ({ ...e, cost: round(e.cost, COST_DIGITS) })),
    cost: round(d.cost, COST_DIGITS),
  };
}
