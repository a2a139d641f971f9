/**
 * refract: check and optimally repair LLM tool-call sequences.
 *
 * ```ts
 * import { loadCatalog, parseSequence, repair } from 'refract';
 * const result = await repair(parseSequence(steps), loadCatalog('spec.json'));
 * ```
 */
export type * from './domain/types.ts';
export type * from './pipeline/types.ts';
export type { CostModel, Weights, WeightName } from './cost/model.ts';
export { CostModelSchema, WeightsSchema } from './cost/model.ts';
export { loadCostModel, parseCostModel, withWeights, presetNames } from './cost/presets.ts';
export { validate } from './validate/validate.ts';
export { repair, compileFor, isExecutable } from './pipeline/repair.ts';
export { compile, type Compiled } from './compile/compile.ts';
export { decode } from './decode/decode.ts';
export { diffSequences } from './decode/diff.ts';
export { solveVerified, createSolver, getSolver } from './solvers/index.ts';
export * from './adapters/index.ts';
export { parseMappings, loadMappings } from './adapters/mappings.ts';
export { findReferences, formatReference } from './reference/parse.ts';
export * from './mappings/index.ts';
export * from './report/index.ts';
export { compress, compressOptions } from './pipeline/compress.ts';
export { checkStep, memoryFromCalls } from './pipeline/step.ts';
export { feedback, FEEDBACK_FORMATS, type FeedbackFormat } from './feedback/index.ts';
export * from './loop/index.ts';
export * from './heal/index.ts';
export * from './agents/index.ts';
export * from './batch/index.ts';
