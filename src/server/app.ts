/**
 * `buildServer(options)`: the refract HTTP API as a fastify instance (test it with `inject`, or `listen`).
 * Solves run in a worker pool; closing the instance finishes in-flight requests, then stops the workers.
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { CatalogStore } from './catalogs.ts';
import { answerClientError, toHttpError } from './errors.ts';
import { installGuards } from './guards.ts';
import { installJsonParser } from './json-body.ts';
import { registerRoutes } from './routes.ts';
import { SolvePool } from './solve.ts';

export interface ServerOptions {
  /** Bearer token required on every route but /v1/health. */
  readonly token?: string;
  /** Solve workers (default: the number of cores). */
  readonly workers?: number;
  /** Registered catalogs are persisted here and loaded from here at start-up. */
  readonly catalogDir?: string;
  /** Catalogs registered at start-up (name -> catalog JSON), kept in memory only. */
  readonly catalogs?: Readonly<Record<string, unknown>>;
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  readonly bodyLimit?: number;
  /** Most solve requests admitted at once, running or queued (default 128); more get 503. */
  readonly maxInflight?: number;
  /** Time limit of one request in milliseconds (default 30 s); the solver's limit is kept below it. */
  readonly requestTimeoutMs?: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent (default silent). */
  readonly logLevel?: string;
  /** Lets jobs with ids `test:block:<ms>` / `test:exit:<code>` stall or kill their worker (tests only). */
  readonly testHooks?: boolean;
}

export const SERVER_DEFAULTS = {
  bodyLimit: 1024 * 1024,
  maxInflight: 128,
  requestTimeoutMs: 30_000,
} as const;

/** Share of the request time limit the solver may use; the rest covers compiling, decoding, queueing. */
const SOLVER_SHARE = 0.8;

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export function buildServer(options: ServerOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? SERVER_DEFAULTS.bodyLimit;
  const maxInflight = options.maxInflight ?? SERVER_DEFAULTS.maxInflight;
  const requestTimeoutMs = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs;
  const store = new CatalogStore(options.catalogDir);
  for (const [name, json] of Object.entries(options.catalogs ?? {})) store.add(name, json);

  const app = Fastify({
    bodyLimit,
    logger: { level: options.logLevel ?? 'silent' },
    // Catalog names run to 128 characters; a longer URL part is refused in the service's shape.
    routerOptions: { maxParamLength: 256 },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      const http = toHttpError(error);
      void reply.code(http.statusCode as never).send(http.body as never);
    },
  });
  const pool = new SolvePool({
    workers: options.workers,
    timeoutMs: requestTimeoutMs,
    testHooks: options.testHooks,
    onReplace: (slot, reason) => app.log.warn({ worker: slot, reason }, 'worker replaced'),
  });

  installJsonParser(app);
  const admission = installGuards(app, { token: options.token, maxInflight });

  // While closing, answers end their connection, so keep-alive clients do not hold the close open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => pool.close());

  app.setErrorHandler((error, request, reply) => {
    const http = toHttpError(error);
    if (http.statusCode >= 500) request.log.error({ err: error }, http.body.error);
    else request.log.info({ field: http.body.field, status: http.statusCode }, http.body.error);
    return reply.code(http.statusCode).send(http.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `no route ${request.method} ${request.url.split('?')[0]}`, field: null }),
  );

  registerRoutes(app, {
    store,
    pool,
    admission,
    maxInflight,
    solverCapS: Math.max(0.05, (requestTimeoutMs / 1000) * SOLVER_SHARE),
    version: VERSION,
  });
  return app;
}
