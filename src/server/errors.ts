/** Every failure as an HTTP status and a JSON body: 4xx name the request field, 5xx say why it is undecided. */
import { InputError } from '../model/errors.ts';
import type { ErrorJson } from '../api/result.ts';
import { PoolError } from '../workers/pool.ts';

export interface HttpError {
  readonly statusCode: number;
  readonly body: ErrorJson;
  readonly headers?: Record<string, string>;
}

/** Fastify's own errors (body parsing, limits) by code. */
const FASTIFY: Record<string, { statusCode: number; error: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, error: 'request body too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, error: 'empty JSON body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, error: 'malformed JSON body' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, error: 'unsupported media type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, error: 'content-length does not match the body' },
};

export function toHttpError(error: unknown): HttpError {
  if (error instanceof InputError) {
    return { statusCode: 400, body: { error: error.message, field: error.field || 'body' } };
  }
  if (error instanceof PoolError) {
    const timeout = error.kind === 'timeout';
    return {
      statusCode: timeout ? 504 : error.kind === 'closed' ? 503 : 500,
      body: {
        error: timeout ? 'request time limit exceeded' : 'the solve failed',
        status: timeout ? 'timeout' : 'error',
        determination: null,
        reason: error.message,
      },
    };
  }
  const e = error as { code?: string; statusCode?: number; message?: string; cause?: unknown } | undefined;
  const known = e?.code ? FASTIFY[e.code] : undefined;
  if (known) {
    const detail = e?.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { statusCode: known.statusCode, body: { error: known.error + detail, field: 'body' } };
  }
  if (error instanceof SyntaxError || (e?.statusCode === 400 && e.code === undefined)) {
    return {
      statusCode: 400,
      body: { error: `malformed JSON: ${e?.message ?? 'parse error'}`, field: 'body' },
    };
  }
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return { statusCode: e.statusCode, body: { error: e.message ?? 'bad request', field: null } };
  }
  return { statusCode: 500, body: { error: 'internal error', status: 'error', determination: null } };
}
