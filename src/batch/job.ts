/**
 * One record → its result line: the repair result (`resultJson`), the step-by-step report when asked,
 * or an error line. Runs inside a worker; kept apart from the worker plumbing so it can be tested alone.
 */
import type { RecordItem } from '../read/records.ts';
import { errorMessage } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { makeCall, runCall, type Settings } from '../api/call.ts';
import { recordSubject } from '../api/record-subject.ts';
import { answerJson } from '../api/render.ts';
import { checkStepByStep } from './step-by-step.ts';
import { errorDone } from './lines.ts';
import { outcomeOf } from './summary.ts';
import type { Outcome } from './types.ts';

export interface JobContext {
  /** The shared catalog (`--catalog`); a record's own catalog takes precedence. */
  readonly catalog?: Catalog;
  /** The request's settings (a fix), resolved once per worker. */
  readonly settings: Settings;
  readonly stepByStep: boolean;
}

export type JobResult =
  | { readonly kind: 'done'; readonly line: string; readonly outcome: Outcome }
  | { readonly kind: 'fault'; readonly reason: string };

/** Reasons of an `error` status that come from a broken solver runtime rather than from the record. */
const SOLVER_FAULT = /RuntimeError|Aborted\(|\bthrew:/;

/** Repairs one record. A solver fault (or a throw) is returned as a fault, for the pool to retire the worker. */
export async function runJob(record: RecordItem, ctx: JobContext): Promise<JobResult> {
  const subject = recordSubject(ctx.settings, record);
  if (!subject) return { kind: 'done', ...errorDone(record, record.error ?? 'the record has no sequence') };
  const catalog = record.catalog ?? ctx.catalog;
  if (!catalog)
    return { kind: 'done', ...errorDone(record, 'no catalog: pass --catalog or give the record a catalog') };
  const call = makeCall(ctx.settings, {
    id: record.id,
    ...subject,
    catalog,
    memory: record.memory,
    executed: record.executed,
    goals: record.goals,
  });
  try {
    const answer = await runCall(call);
    const result = answer.kind === 'fix' || answer.kind === 'compress' ? answer.result : undefined;
    if (result?.status === 'error' && result.reason && SOLVER_FAULT.test(result.reason)) {
      return { kind: 'fault', reason: result.reason };
    }
    const line = answerJson(answer);
    if (ctx.stepByStep) Object.assign(line, checkStepByStep(call.sequence, catalog, call.options));
    return { kind: 'done', line: JSON.stringify(line), outcome: outcomeOf(record, line, catalog) };
  } catch (error) {
    return { kind: 'fault', reason: `the repair threw: ${errorMessage(error)}` };
  }
}
