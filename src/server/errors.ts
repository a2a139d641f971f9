/**
 * Every failure as an HTTP status and a JSON body of one shape, `{error, field}`: 4xx name the request
 * field at fault, 5xx say why the sequence is undecided (`field` null, plus `status`, `determination`,
 * `reason`). This covers fastify's own errors (body parsing, limits, bad URLs) and the answers Node
 * writes before fastify sees a request (malformed HTTP, headers too large, time-outs).
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { InputError, LimitError } from '../model/errors.ts';
import type { ErrorJson } from '../api/result.ts';
import { PoolError } from '../workers/pool.ts';

/** A refusal with its own status (403 not yours, 404 no such thing, 409 conflict), naming the field. */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    readonly field: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

export interface HttpError {
  readonly statusCode: number;
  readonly body: ErrorJson;
  readonly headers?: Record<string, string>;
}

/** Fastify's own errors (body parsing, limits, URLs) by code. */
const FASTIFY: Record<string, { statusCode: number; error: string; field: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, error: 'request body too large', field: 'body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, error: 'empty JSON body', field: 'body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, error: 'malformed JSON body', field: 'body' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    error: 'unsupported media type: send application/json',
    field: 'content-type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    error: 'content-length does not match the body',
    field: 'body',
  },
  FST_ERR_BAD_URL: { statusCode: 400, error: 'malformed URL (bad percent-encoding)', field: 'url' },
  FST_ERR_MAX_PARAM_LENGTH: { statusCode: 414, error: 'URL part too long', field: 'url' },
};

const POOL: Record<string, { statusCode: number; error: string; status: 'timeout' | 'error' }> = {
  timeout: { statusCode: 504, error: 'request time limit exceeded', status: 'timeout' },
  closed: { statusCode: 503, error: 'the server is shutting down', status: 'error' },
  cancelled: { statusCode: 499, error: 'the client went away', status: 'error' },
};

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpProblem) {
    return { statusCode: error.statusCode, body: { error: error.message, field: error.field } };
  }
  if (error instanceof LimitError) {
    const body = { error: error.message, field: error.field || 'body' };
    if (error.kind === 'busy') return { statusCode: 503, body, headers: { 'retry-after': '1' } };
    return { statusCode: error.kind === 'full' ? 507 : 413, body };
  }
  if (error instanceof InputError) {
    return { statusCode: 400, body: { error: error.message, field: error.field || 'body' } };
  }
  if (error instanceof PoolError) {
    const known = POOL[error.kind] ?? { statusCode: 500, error: 'the solve failed', status: 'error' };
    return {
      statusCode: known.statusCode,
      body: {
        error: known.error,
        field: null,
        status: known.status,
        determination: null,
        reason: error.message,
      },
    };
  }
  const e = error as { code?: string; statusCode?: number; message?: string; cause?: unknown } | undefined;
  const known = e?.code ? FASTIFY[e.code] : undefined;
  if (known) {
    const detail = e?.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { statusCode: known.statusCode, body: { error: known.error + detail, field: known.field } };
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
  return {
    statusCode: 500,
    body: { error: 'internal error', field: null, status: 'error', determination: null },
  };
}

/** Node's client errors (before any route): what went wrong, for the `{error, field}` answer. */
function clientError(code: string | undefined): { statusCode: number; error: string; field: string | null } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { statusCode: 408, error: 'request not received in time', field: 'body' };
    case 'HPE_HEADER_OVERFLOW':
      return { statusCode: 431, error: 'request headers too large', field: 'headers' };
    default:
      return { statusCode: 400, error: 'malformed HTTP request', field: null };
  }
}

/**
 * fastify's `clientErrorHandler`: answers in the service's shape and closes the connection. Nothing is
 * written over a response already under way (that would corrupt it); the socket is closed all the same.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { statusCode, error: message, field } = clientError(error.code);
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: message, field });
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
