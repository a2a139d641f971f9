/**
 * refract: check and optimally repair LLM tool-call sequences.
 *
 * ```ts
 * import { loadCatalog, parseSequence, repair } from 'refract-toolcalls';
 * const result = await repair(parseSequence(steps), loadCatalog('spec.json'));
 * ```
 */
export type * from './model/types.ts';
export type * from './model/options.ts';
export type { CostModel, Weights, WeightName } from './model/cost.ts';
export { CostModelSchema, WeightsSchema } from './model/cost.ts';
export { presetNames } from './read/cost-models.ts';
export { stepNumber } from './model/numbers.ts';
export {
  ASK,
  CONFIRM,
  DEFAULT_RESULT_NAME,
  SOLVER_NAMES,
  STRICTNESS,
  STATUSES,
  type Mode,
  type SolverName,
  type Status,
  type Strictness,
} from './model/constants.ts';
export type { Compiled } from './compile/compile.ts';
export { createSolver, getSolver } from './solvers/index.ts';
export * from './read/index.ts';
export { loadMappings } from './read/mappings.ts';
export * from './mappings/index.ts';
export * from './tags/index.ts';
export type { RepairVerdict, ScoreInput, ScoreSummary, AskReading, AskMeaning } from './score/index.ts';
export { FEEDBACK_FORMATS, type FeedbackFormat } from './feedback/index.ts';
export * from './loop/index.ts';
export * from './heal/index.ts';
export * from './agents/index.ts';
export * from './api/index.ts';
export * from './batch/index.ts';
// Every function the package exports checks its arguments: a garbage argument is an InputError naming it.
// The entry points taking user data parse it as a request would (src/library/entries.ts); the rest check the
// shape of the library's own values (src/library). Named here, they take the place of the same names in
// the `export *` lines above, which keep the types and constants.
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
} from './library/entries.ts';
export {
  align,
  allModes,
  asksPerRepair,
  buildMappings,
  compile,
  compileFor,
  computeMappings,
  countTags,
  decode,
  diffSequences,
  errorTags,
  feedback,
  findReferences,
  formatMappings,
  formatMappingsText,
  formatModes,
  formatPath,
  formatReference,
  formatStep,
  formatStringForm,
  formatZodError,
  healToolCalls,
  healValues,
  healWeight,
  inputErrorFromZod,
  isExecutable,
  isPseudoStep,
  learnMappings,
  learnPairs,
  loadCostModel,
  mergeMappings,
  mergeScoreSummaries,
  normaliseType,
  numbered,
  parseAt,
  parseCostModel,
  parseMappings,
  parseRecords,
  repairArgumentText,
  sameDataFlow,
  scorePairs,
  solveVerified,
  summariseVerdicts,
  toLpText,
  toMpsText,
  tagAgainstGold,
  tagFromIssues,
  toNestful,
  toStringForm,
  totalCost,
} from './library/core.ts';
export {
  answerJson,
  answerText,
  buildPrompt,
  chatCompletionsUrl,
  checkCall,
  checkGoals,
  checkStepByStep,
  checkToolCalls,
  checkWeights,
  commandFixer,
  createProgress,
  feedbackFor,
  formatHealEdit,
  formatLoopReport,
  formatPickReport,
  issueLine,
  loopJson,
  loopSummary,
  loopToolCalls,
  makeCall,
  milpFixer,
  openIssues,
  openaiFixer,
  originOf,
  outcomeOf,
  parseCandidates,
  parseRequest,
  pick,
  progressText,
  relevantApis,
  requestSettings,
  resultJson,
  resultText,
  runBatch,
  runCall,
  runLoop,
  scriptedFixer,
  summaryLine,
  summaryMarkdown,
  toSequence,
  toToolCalls,
  validationJson,
  validationText,
} from './library/front.ts';
