/**
 * Catalog parsing off the main thread: a large catalog takes a second or more to check, during which a
 * server parsing it inline would answer nothing (not even /v1/health). `CatalogParser` sends the JSON to
 * a worker of its own and gets the `Catalog` back; input problems come back as values naming the field,
 * so they are answered exactly as if the main thread had parsed the catalog itself.
 */
import { parseCatalog } from '../read/catalog.ts';
import { InputError, LimitError, type LimitKind } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { packageModule, WorkerPool } from '../workers/pool.ts';

export interface ParseRequest {
  readonly json: unknown;
  readonly maxOutputDepth: number;
}

export type ParseReply =
  | { readonly ok: true; readonly catalog: Catalog }
  | { readonly ok: false; readonly field: string; readonly problem: string; readonly limit?: LimitKind };

/** Parses in whichever thread calls it; problems with the input are part of the value. */
export function parseReply(request: ParseRequest): ParseReply {
  try {
    return { ok: true, catalog: parseCatalog(request.json, { maxOutputDepth: request.maxOutputDepth }) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return {
      ok: false,
      field: error.field,
      problem: error.problem,
      ...(error instanceof LimitError ? { limit: error.kind } : {}),
    };
  }
}

/** The catalog of a reply, or the input error it describes. */
export function catalogOf(reply: ParseReply): Catalog {
  if (reply.ok) return reply.catalog;
  throw reply.limit
    ? new LimitError(reply.field, reply.problem, reply.limit)
    : new InputError(reply.field, reply.problem);
}

export interface CatalogParserOptions {
  /** Worker threads (default 1: parsing is rare next to solving). */
  readonly workers?: number;
  /** Time limit of one parse. */
  readonly timeoutMs: number;
}

export class CatalogParser {
  private readonly pool: WorkerPool<ParseRequest, ParseReply>;

  constructor(private readonly options: CatalogParserOptions) {
    this.pool = new WorkerPool<ParseRequest, ParseReply>({
      entry: packageModule('src/server/catalog-worker'),
      size: options.workers ?? 1,
      unref: true,
    });
  }

  async parse(json: unknown, maxOutputDepth: number, signal?: AbortSignal): Promise<Catalog> {
    const reply = await this.pool.submit(
      { json, maxOutputDepth },
      { timeoutMs: this.options.timeoutMs, signal },
    );
    return catalogOf(reply);
  }

  close(): Promise<void> {
    return this.pool.terminate();
  }
}
