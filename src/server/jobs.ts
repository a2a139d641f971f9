/**
 * The work a pool worker does: a repair or a repair loop on a parsed request, answered with the same
 * JSON the CLI prints. Everything here is already validated by the main thread.
 */
import type { Catalog, Sequence } from '../model/types.ts';
import type { FeedbackFormat } from '../feedback/index.ts';
import { resultJson } from '../api/render.ts';
import { milpFixer } from '../loop/fixers/milp.ts';
import { loopSummary } from '../loop/report.ts';
import { loopToolCalls } from '../loop/toolcalls.ts';
import { repair } from '../repair/repair.ts';
import type { RepairOptions } from '../model/options.ts';
import type { CatalogRef } from './catalogs.ts';

export interface RepairJob {
  readonly kind: 'repair';
  readonly id?: string;
  readonly sequence: Sequence;
  readonly options: RepairOptions;
}

export interface LoopJob {
  readonly kind: 'loop';
  readonly id?: string;
  readonly sequence: Sequence;
  /** Base options of the optimiser's repairs (and the validator's memory, types, answer name). */
  readonly options: RepairOptions;
  readonly maxRounds?: number;
  readonly stallLimit?: number;
  readonly feedback?: FeedbackFormat;
  readonly escalate?: boolean;
}

export type Job = RepairJob | LoopJob;

/** What the main thread posts: the job, its catalog's reference, the catalog itself when the worker lacks it. */
export interface JobMessage {
  readonly job: Job;
  readonly catalog: CatalogRef;
  readonly catalogData?: Catalog;
  /** Cache keys the worker should forget (the main thread mirrors the worker's cache). */
  readonly drop?: readonly string[];
}

export type JobResult = Record<string, unknown>;

export async function runJob(job: Job, catalog: Catalog): Promise<JobResult> {
  if (job.kind === 'repair') {
    const result = await repair(job.sequence, catalog, job.options);
    return resultJson(result, job.id);
  }
  const { memory, resultName, types } = job.options;
  const result = await loopToolCalls({
    sequence: job.sequence,
    catalog,
    fixer: milpFixer({ catalog, repair: job.options, escalate: job.escalate }),
    feedback: job.feedback,
    maxRounds: job.maxRounds,
    stallLimit: job.stallLimit,
    validate: { memory, resultName, types },
    repair: job.options,
  });
  return { ...(job.id === undefined ? {} : { id: job.id }), ...loopSummary(result) };
}
