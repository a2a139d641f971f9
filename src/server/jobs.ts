/**
 * The work a pool worker does: a prepared request (src/server/requests.ts) run on its catalog, answered
 * with the same JSON the CLI prints. Everything here was validated by the main thread.
 */
import type { Catalog } from '../model/types.ts';
import { runCall } from '../api/call.ts';
import { answerJson } from '../api/render.ts';
import type { CatalogRef } from './catalogs.ts';
import type { Job } from './requests.ts';

export type { Job };

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
  return answerJson(await runCall({ ...job, catalog }));
}
