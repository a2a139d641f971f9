/**
 * The pipeline's functions as the package exports them: each behind checks of its arguments
 * (src/api/arguments.ts), so that garbage is an `InputError` naming the argument. Inside the package every
 * caller uses the unchecked core, so no hot path pays for these checks.
 */
import {
  anything,
  arrayOf,
  catalog,
  checked,
  checkedAsync,
  healOptions,
  iterableOf,
  number,
  oneOf,
  optional,
  record,
  repairOptions,
  sequence,
  shaped,
  step,
  string,
  type Check,
} from '../api/arguments.ts';
import type { Mapping } from '../model/types.ts';
import * as errors from '../model/errors.ts';
import { SOLVER_NAMES } from '../model/constants.ts';
import * as constants from '../model/constants.ts';
import { numbered as numberedCore } from '../model/numbers.ts';
import * as costModels from '../read/cost-models.ts';
import { parseMappings as parseMappingsCore } from '../read/mappings.ts';
import * as references from '../read/references.ts';
import * as sequences from '../read/sequence.ts';
import * as stringForm from '../read/string-form.ts';
import { parseRecords as parseRecordsCore } from '../read/records.ts';
import { normaliseType as normaliseTypeCore } from '../read/value-type.ts';
import * as computed from '../catalog/computed-mappings.ts';
import { compile as compileCore } from '../compile/compile.ts';
import { solveVerified as solveVerifiedCore } from '../solvers/index.ts';
import { decode as decodeCore } from '../decode/decode.ts';
import * as modelText from '../solvers/model-text.ts';
import { diffSequences as diffSequencesCore } from '../decode/diff.ts';
import * as repairs from '../repair/repair.ts';
import * as score from '../score/index.ts';
import * as learn from '../mappings/learn.ts';
import * as build from '../mappings/build.ts';
import * as tags from '../tags/index.ts';
import { feedback as feedbackCore, FEEDBACK_FORMATS } from '../feedback/index.ts';
import * as heals from '../heal/index.ts';
import {
  errorTag,
  mapping,
  mappingTable,
  milpModel,
  modesView,
  plan,
  result,
  schema,
  scoreSummary,
  validation,
  verdict,
  zodError,
} from './shapes.ts';

const costModel: Check = (value, name) => costModels.parseCostModel(value, name);
const path = arrayOf(anything);

export const formatPath = checked(errors.formatPath, { path });
export const formatZodError = checked(errors.formatZodError, { error: zodError, at: optional(path) });
export const inputErrorFromZod = checked(errors.inputErrorFromZod, { error: zodError, at: optional(path) });
export const parseAt = checked(errors.parseAt, { schema, value: anything, at: path });
export const numbered = checked(numberedCore, { item: shaped({ step: number }) });
export const isPseudoStep = checked(constants.isPseudoStep, { step: shaped({ name: string }, 'a step') });

export const parseCostModel = checked(costModels.parseCostModel, { json: anything, at: optional(string) });
export const loadCostModel = checked(costModels.loadCostModel, {
  nameOrPath: optional(string),
  at: optional(string),
});
export const parseMappings = checked(parseMappingsCore, { json: anything, root: optional(string) });
export const findReferences = checked(references.findReferences, { text: string });
export const formatReference = checked(references.formatReference, { label: string, path });
export const toNestful = checked(sequences.toNestful, { seq: sequence });
export const toStringForm = checked(sequences.toStringForm, { seq: sequence });
export const formatStringForm = checked(stringForm.formatStringForm, { seq: sequence });
export const formatStep = checked(stringForm.formatStep, { step });
export const parseRecords = checked(parseRecordsCore, { text: string });
export const normaliseType = checked(normaliseTypeCore, {
  raw: (value, name, args) =>
    value === null || value === undefined || Array.isArray(value)
      ? arrayOf(string)(value ?? [], name, args) && value
      : string(value, name, args),
});

export const computeMappings = checked(computed.computeMappings, { catalog, options: optional(record()) });
export const scorePairs = checked(computed.scorePairs, { catalog });

export const compile = checked(compileCore, {
  steps: sequence,
  catalog,
  cost: costModel,
  options: repairOptions(1),
});
export const compileFor = checked(repairs.compileFor, {
  sequence,
  catalog,
  options: repairOptions(1),
  budget: optional(record()),
});
export const isExecutable = checked(repairs.isExecutable, { sequence, catalog: optional(catalog) });
export const solveVerified = checkedAsync(solveVerifiedCore, {
  model: milpModel,
  options: optional(record({ timeLimit: optional(number), solver: optional(oneOf(SOLVER_NAMES)) })),
});
export const decode = checked(decodeCore, { plan, values: arrayOf(number) });
/** A model as CPLEX LP or free MPS text for any external solver (rows `c0…`, variables `x0…`). */
const modelTextOptions = optional(record({ comments: optional(arrayOf(string)), name: optional(string) }));
export const toLpText = checked(modelText.toLpText, { model: milpModel, options: modelTextOptions });
export const toMpsText = checked(modelText.toMpsText, { model: milpModel, options: modelTextOptions });
export const diffSequences = checked(diffSequencesCore, { before: sequence, after: sequence });

export const summariseVerdicts = checked(score.summariseVerdicts, { verdicts: iterableOf(verdict) });
export const mergeScoreSummaries = checked(score.mergeScoreSummaries, { parts: iterableOf(scoreSummary) });
export const asksPerRepair = checked(score.asksPerRepair, { summary: scoreSummary });
export const sameDataFlow = checked(score.sameDataFlow, { candidate: sequence, gold: sequence });

const corpus = iterableOf(sequence);
export const learnPairs = checked(learn.learnPairs, {
  sequences: corpus,
  catalog,
  options: optional(record()),
});
export const learnMappings = checked(learn.learnMappings, {
  sequences: corpus,
  catalog,
  options: optional(record()),
});
/** Merges mapping tables; each argument is one table. */
export function mergeMappings(...tables: readonly (readonly Mapping[])[]): Mapping[] {
  tables.forEach((table, i) => arrayOf(mapping)(table, `tables[${i}]`, tables));
  return learn.mergeMappings(...tables);
}
export const buildMappings = checked(build.buildMappings, {
  catalog,
  corpus: optional(corpus),
  options: optional(record()),
});
export const formatMappings = checked(build.formatMappings, { mappings: arrayOf(mapping) });
export const formatMappingsText = checked(build.formatMappingsText, { table: mappingTable });

const tagOptions = optional(record());
export const countTags = checked(tags.countTags, { lists: iterableOf(arrayOf(errorTag)) });
export const errorTags = checked(tags.errorTags, { pred: sequence, catalog, options: tagOptions });
export const tagAgainstGold = checked(tags.tagAgainstGold, {
  pred: sequence,
  gold: sequence,
  catalog,
  options: tagOptions,
});
export const tagFromIssues = checked(tags.tagFromIssues, { pred: sequence, catalog, options: tagOptions });
export const align = checked(tags.align, { pred: sequence, gold: sequence, catalog, options: tagOptions });
export const allModes = checkedAsync(tags.allModes, {
  sequence,
  catalog,
  options: repairOptions(1),
  compressOptions: repairOptions(1),
});
export const formatModes = checked(tags.formatModes, { view: modesView });

export const feedback = checked(feedbackCore, {
  format: oneOf(FEEDBACK_FORMATS),
  input: shaped({
    sequence,
    catalog,
    validation: optional(validation),
    repair: optional(result),
    resultName: optional(string),
  }),
});

export const totalCost = checked(heals.totalCost, { edits: arrayOf(shaped({ cost: number }, 'an edit')) });
export const healToolCalls = checked(heals.healToolCalls, { raw: anything, options: healOptions });
export const healValues = checked(heals.healValues, { sequence, catalog, options: healOptions });
export const repairArgumentText = checked(heals.repairArgumentText, { text: string });
export const healWeight = checked(heals.healWeight, { kind: oneOf(heals.HEAL_KINDS), options: healOptions });
