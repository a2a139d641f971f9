/**
 * The front ends' functions as the package exports them (the improvement loop and its fixers, the request
 * vocabulary and renderings, the batch's reports, the agent hooks), each behind checks of its arguments
 * (src/api/arguments.ts). The CLI, the batch and the server call the unchecked functions.
 */
import {
  anything,
  arrayOf,
  boolean,
  catalog,
  checked,
  checkedAsync,
  func,
  healOptions,
  nestedOptions,
  number,
  object,
  oneOf,
  optional,
  record,
  repairOptions,
  sequence,
  shaped,
  closed,
  integerIn,
  step,
  string,
  type Check,
} from '../api/arguments.ts';
import { FEEDBACK_FORMATS } from '../feedback/index.ts';
import * as loop from '../loop/index.ts';
import { parseRequest as parseRequestCore } from '../api/parse.ts';
import { REQUEST_KINDS, requestSchema, type RequestKind } from '../api/request.ts';
import * as call from '../api/call.ts';
import { checkGoals as checkGoalsCore } from '../api/goals.ts';
import * as render from '../api/render.ts';
import { runBatch as runBatchCore } from '../batch/run.ts';
import { checkStepByStep as checkStepByStepCore } from '../batch/step-by-step.ts';
import { outcomeOf as outcomeOfCore } from '../batch/summary.ts';
import * as reports from '../batch/summary-report.ts';
import * as progress from '../batch/progress.ts';
import * as hook from '../agents/hook.ts';
import * as toolcalls from '../agents/toolcalls.ts';
import {
  answer,
  batchSummary,
  edit,
  fixer,
  healEdit,
  issue,
  loopResult,
  pickResult,
  progressState,
  result,
  schema,
  validation,
  writable,
} from './shapes.ts';

const count = optional(number);
/** A loop's rounds: the bounds of the HTTP API's `maxRounds` and `stallLimit` (a stalling fixer ends). */
const rounds = optional(integerIn(0, 50));
const milliseconds = optional(integerIn(0, 86_400_000));
/** A loop's checks: a function of the sequence, or a shell command (`{command, timeoutMs?}`). */
const toolCallChecks: Check = (value, name, args) =>
  typeof value === 'function'
    ? value
    : closed({ command: string, timeoutMs: milliseconds }, 'a check function or {command, timeoutMs?}')(
        value,
        name,
        args,
      );
const feedbackFormat = oneOf(FEEDBACK_FORMATS);

/** Canned candidates, one per round: each a parsed sequence (`parseSequence`), checked now, not when proposed. */
export const scriptedFixer = checked(loop.scriptedFixer, { candidates: arrayOf(sequence) });

export const runLoop = checkedAsync(loop.runLoop, {
  options: closed({
    initial: anything,
    issues: func,
    fixer,
    feedback: func,
    checks: optional(func),
    maxRounds: rounds,
    stallLimit: rounds,
    proposeTimeoutMs: milliseconds,
    isState: optional(func),
  }),
});
export const loopToolCalls = checkedAsync(loop.loopToolCalls, {
  options: closed({
    sequence,
    catalog,
    fixer,
    feedback: optional(feedbackFormat),
    checks: optional(toolCallChecks),
    maxRounds: rounds,
    stallLimit: rounds,
    proposeTimeoutMs: milliseconds,
    validate: nestedOptions,
    repair: nestedOptions,
  }),
});
export const feedbackFor = checkedAsync(loop.feedbackFor, {
  format: feedbackFormat,
  sequence,
  catalog,
  options: optional(record({ validate: repairOptions(2), repair: repairOptions(2) })),
});
export const openIssues = checked(loop.openIssues, { sequence, catalog, options: repairOptions(1) });
export const pick = checkedAsync(loop.pick, {
  candidates: arrayOf(sequence),
  catalog,
  options: optional(record({ validate: repairOptions(1), repair: repairOptions(1) })),
});
export const loopSummary = checked(loop.loopSummary, { result: loopResult });
export const formatLoopReport = checked(loop.formatLoopReport, { result: loopResult });
export const formatPickReport = checked(loop.formatPickReport, { result: pickResult });
export const milpFixer = checked(loop.milpFixer, {
  options: shaped({ catalog, repair: nestedOptions, escalate: optional(boolean) }),
});
export const commandFixer = checked(loop.commandFixer, {
  options: shaped({ command: string, timeoutMs: count, format: optional(string) }),
});
export const openaiFixer = checked(loop.openaiFixer, {
  options: shaped({
    catalog,
    baseUrl: string,
    model: string,
    apiKey: optional(string),
    apiKeyEnv: optional(string),
    format: optional(string),
    timeoutMs: count,
    temperature: count,
    validate: nestedOptions,
  }),
});
export const parseCandidates = checked(loop.parseCandidates, { json: anything, field: optional(string) });
export const chatCompletionsUrl = checked(loop.chatCompletionsUrl, { baseUrl: string });
export const buildPrompt = checked(loop.buildPrompt, {
  sequence,
  catalog,
  feedback: string,
  format: string,
  issues: optional(arrayOf(issue)),
  resultName: optional(string),
});
export const relevantApis = checked(loop.relevantApis, {
  sequence,
  catalog,
  issues: arrayOf(issue),
  resultName: optional(string),
});

const requestKind = oneOf(REQUEST_KINDS);
export const parseRequest = checked(parseRequestCore, { schema, value: anything, root: optional(string) });
export const checkWeights = checked(call.checkWeights, { weights: record(), root: string });
export const checkGoals = checked(checkGoalsCore, { goals: anything, catalog, root: optional(string) });
export const requestSettings = checked(call.requestSettings, {
  kind: requestKind,
  request: (value, name, args) => parseRequestCore(requestSchema(args[0] as RequestKind), value, name),
  context: record({ files: boolean, timeoutCap: count, catalog: optional(catalog) }),
});
const subject: Check = (value, name, args) => {
  shaped({ catalog })(value, name, args);
  if ('sequence' in (value as object)) shaped({ sequence })(value, name, args);
  return value;
};
export const makeCall = checked(call.makeCall, {
  settings: shaped({ kind: requestKind, options: object }, 'settings (from requestSettings)'),
  subject,
});
export const runCall = checkedAsync(call.runCall, {
  call: shaped({ kind: requestKind, options: object, sequence, catalog }, 'a call (from makeCall)'),
  extras: optional(object),
});
export const answerJson = checked(render.answerJson, { answer });
export const answerText = checked(render.answerText, { answer });
export const resultJson = checked(render.resultJson, { result, id: optional(string) });
export const resultText = checked(render.resultText, { result });
export const validationJson = checked(render.validationJson, { validation, id: optional(string) });
export const validationText = checked(render.validationText, { validation });
export const loopJson = checked(render.loopJson, { result: loopResult });
export const issueLine = checked(render.issueLine, { issue });

export const runBatch = checkedAsync(runBatchCore, {
  options: shaped({
    input: optional(object),
    records: optional(object),
    inputPath: optional(string),
    out: optional(string),
    output: optional(writable),
    request: record(),
    workers: number,
    resume: optional(boolean),
    stepByStep: optional(boolean),
    recordTimeoutMs: count,
    progress: optional(object),
    window: count,
    faults: optional(arrayOf(object)),
    pool: optional(object),
  }),
});
export const checkStepByStep = checked(checkStepByStepCore, { sequence, catalog, options: repairOptions(1) });
export const outcomeOf = checked(outcomeOfCore, {
  record: optional(shaped({ id: string }, 'a record')),
  line: record(),
  catalog: optional(catalog),
});
export const summaryLine = checked(reports.summaryLine, { summary: batchSummary });
export const summaryMarkdown = checked(reports.summaryMarkdown, {
  summary: batchSummary,
  chart: optional(string),
});
export const createProgress = checked(progress.createProgress, {
  stream: writable,
  options: optional(record({ quiet: optional(boolean) })),
});
export const progressText = checked(progress.progressText, { state: progressState, bar: anything });

export const formatHealEdit = checked(hook.formatHealEdit, { edit: healEdit });
// Typed with the options as callers give them (executed tool calls too): `hookOptions` reads them.
export const checkToolCalls = checkedAsync(hook.checkToolCalls, {
  toolCalls: anything,
  options: hook.hookOptions,
}) as (toolCalls: readonly unknown[], options: hook.HookOptions) => Promise<hook.CheckResult>;
export const checkCall = checkedAsync(hook.checkCall, { call: anything, options: hook.hookOptions }) as (
  call: unknown,
  options: hook.HookOptions,
) => Promise<hook.CallCheck>;
export const originOf = checked(toolcalls.originOf, {
  input: sequence,
  output: sequence,
  edits: arrayOf(edit),
});
export const toSequence = checked(toolcalls.toSequence, {
  calls: arrayOf(),
  catalog,
  options: healOptions,
});
export const toToolCalls = checked(toolcalls.toToolCalls, {
  steps: arrayOf(step),
  origin: arrayOf(number),
  input: arrayOf(),
});
