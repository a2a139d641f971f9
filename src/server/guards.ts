/**
 * The bearer-token guard: every route but those marked public needs one of the server's tokens (none
 * configured: the server is open). Each token is a client; `request.client` names it by a digest of its
 * token (never the token itself), so catalogs can belong to the client that registered them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without the token. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The client (a digest of its token; `anonymous` on an open server). */
    client?: string;
  }
}

export interface GuardOptions {
  /** Tokens accepted; empty: no token is asked for. */
  readonly tokens: readonly string[];
}

/** The client of an open server. */
export const ANONYMOUS = 'anonymous';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A client's name: the first 16 hex digits of its token's SHA-256. */
export function clientId(token: string): string {
  return digest(token).toString('hex').slice(0, 16);
}

/** The client whose token is `given`, compared in constant time against every token (hashed first). */
function clientOf(given: string, tokens: readonly { hash: Buffer; id: string }[]): string | undefined {
  const hash = digest(given);
  let found: string | undefined;
  for (const token of tokens) if (timingSafeEqual(hash, token.hash)) found ??= token.id;
  return found;
}

export function installGuards(app: FastifyInstance, options: GuardOptions): void {
  const tokens = options.tokens.map((token) => ({ hash: digest(token), id: clientId(token) }));
  if (tokens.length === 0) {
    app.addHook('onRequest', async (request) => {
      request.client = ANONYMOUS;
    });
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public) return;
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const client = given === undefined ? undefined : clientOf(given, tokens);
    if (client !== undefined) {
      request.client = client;
      return;
    }
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
