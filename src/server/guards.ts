/**
 * Request guards: the bearer token (every route but those marked public) and admission control (routes
 * marked `admit`: at most `maxInflight` in flight, running or queued; more get 503 with Retry-After).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without the token. */
    public?: boolean;
    /** Counted against the in-flight limit. */
    admit?: boolean;
  }
}

export interface GuardOptions {
  readonly token?: string;
  readonly maxInflight: number;
  /** Seconds a refused client is told to wait. */
  readonly retryAfterS?: number;
}

export interface Admission {
  /** Requests admitted and not yet answered. */
  readonly inflight: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares in constant time (both sides hashed to the same length first). */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function installGuards(app: FastifyInstance, options: GuardOptions): Admission {
  const state = { inflight: 0 };
  const expected = options.token;
  if (expected !== undefined) {
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.public) return;
      const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given !== undefined && sameToken(given, expected)) return;
      reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({
          error: given === undefined ? 'missing bearer token' : 'wrong bearer token',
          field: 'authorization',
        });
      return reply;
    });
  }
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.admit) return;
    if (state.inflight >= options.maxInflight) {
      reply
        .code(503)
        .header('retry-after', String(options.retryAfterS ?? 1))
        .send({
          error: `server busy: ${state.inflight} requests in flight (limit ${options.maxInflight})`,
          field: null,
        });
      return reply;
    }
    state.inflight++;
    let released = false;
    // 'close' comes for every response, sent or aborted, so the count cannot leak.
    reply.raw.once('close', () => {
      if (!released) state.inflight--;
      released = true;
    });
  });
  return state;
}
