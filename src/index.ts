/**
 * refract: check and optimally repair LLM tool-call sequences.
 *
 * ```ts
 * import { loadCatalog, parseSequence, repair } from 'refract';
 * const result = await repair(parseSequence(steps), loadCatalog('spec.json'));
 * ```
 */
export type * from './model/types.ts';
export type * from './model/options.ts';
export type { CostModel, Weights, WeightName } from './model/cost.ts';
export { CostModelSchema, WeightsSchema } from './model/cost.ts';
export { loadCostModel, parseCostModel, presetNames } from './read/cost-models.ts';
// The entry points that take a catalog, a sequence or options check them at the edge (src/api/library.ts).
export {
  validate,
  repair,
  compress,
  compressOptions,
  checkStep,
  memoryFromCalls,
  withWeights,
  heal,
  scoreRepair,
} from './api/library.ts';
export { numbered, stepNumber } from './model/numbers.ts';
export {
  ASK,
  CONFIRM,
  DEFAULT_RESULT_NAME,
  SOLVER_NAMES,
  STRICTNESS,
  isPseudoStep,
  STATUSES,
  type Mode,
  type SolverName,
  type Status,
  type Strictness,
} from './model/constants.ts';
export { compileFor, isExecutable } from './repair/repair.ts';
export { compile, type Compiled } from './compile/compile.ts';
export { decode } from './decode/decode.ts';
export { diffSequences } from './decode/diff.ts';
export { solveVerified, createSolver, getSolver } from './solvers/index.ts';
export * from './read/index.ts';
export { parseMappings, loadMappings } from './read/mappings.ts';
export { findReferences, formatReference } from './read/references.ts';
export * from './mappings/index.ts';
export * from './tags/index.ts';
export {
  summariseVerdicts,
  mergeScoreSummaries,
  asksPerRepair,
  sameDataFlow,
  type RepairVerdict,
  type ScoreInput,
  type ScoreSummary,
  type AskReading,
  type AskMeaning,
} from './score/index.ts';
export { feedback, FEEDBACK_FORMATS, type FeedbackFormat } from './feedback/index.ts';
export * from './loop/index.ts';
export * from './heal/index.ts';
export * from './agents/index.ts';
export * from './api/index.ts';
export * from './batch/index.ts';
