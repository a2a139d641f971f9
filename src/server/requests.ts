/**
 * Request bodies → jobs. A body is the request schema of its kind (src/api/request.ts) without
 * `catalogPath` (a server never reads files named by its clients); every problem is an `InputError` naming
 * the request field (`solver`, `sequence[2].name`, `weights.slotFill`), which the server answers with 400.
 */
import { z } from 'zod';
import { makeCall, requestSettings, type Call } from '../api/call.ts';
import { parseRequest } from '../api/parse.ts';
import { REQUEST_FIELDS, requestSchema, type RequestKind } from '../api/request.ts';
import type { CatalogStore, ResolvedCatalog } from './catalogs.ts';

/** Most distinct repairs one request may ask for: each is another solve. */
const MAX_FIXES = 20;

function bodySchema(kind: RequestKind) {
  const { catalogPath: _files, ...shape } = requestSchema(kind).shape;
  if (!('fixes' in shape)) return z.strictObject(shape);
  return z.strictObject({
    ...shape,
    fixes: z.number().int().min(1).max(MAX_FIXES).optional().describe(REQUEST_FIELDS.fixes.description!),
  });
}

// fix and compress take the same fields.
const repairBody = bodySchema('fix').meta({ id: 'RepairRequest' });

/** The body schema of each route, also the source of `/openapi.json`. */
export const BODY_SCHEMAS = {
  validate: bodySchema('validate').meta({ id: 'ValidateRequest' }),
  fix: repairBody,
  compress: repairBody,
  loop: bodySchema('loop').meta({ id: 'LoopRequest' }),
} as const;

/** What a worker runs: the call without its catalog, which travels by reference (src/server/solve.ts). */
export type Job = Omit<Call, 'catalog'>;

export interface Prepared {
  readonly catalog: ResolvedCatalog;
  readonly job: Job;
}

/**
 * A body of `kind` → its job and catalog. `solverCapS` caps the solver's time limit so that a solve ends
 * before the request's own time limit.
 */
export function prepare(kind: RequestKind, body: unknown, store: CatalogStore, solverCapS: number): Prepared {
  const request = parseRequest(BODY_SCHEMAS[kind], body);
  const catalog = store.resolve(request.catalogName, request.catalog);
  const settings = requestSettings(kind, request, {
    files: false,
    timeoutCap: solverCapS,
    catalog: catalog.catalog,
  });
  const { catalog: _inline, ...job } = makeCall(settings, {
    id: request.id,
    input: request.sequence,
    catalog: catalog.catalog,
  });
  return { catalog, job };
}
