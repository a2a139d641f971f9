/** Batch repair of large datasets: the run, the step-by-step check and the summary. */
export { runBatch, type BatchOptions, type BatchReport } from './run.ts';
export { checkStepByStep, type StepByStep, type StepCheck } from './step-by-step.ts';
export {
  CONFIDENCE_BANDS,
  FAILED,
  SummaryAccumulator,
  outcomeOf,
  type FailureReason,
  type Summary,
  type SummaryOptions,
} from './summary.ts';
export { summaryLine, summaryMarkdown } from './summary-report.ts';
export { createProgress, progressText, type Progress } from './progress.ts';
export type { Outcome, InjectedFault } from './types.ts';
