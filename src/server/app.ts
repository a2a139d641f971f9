/**
 * `buildServer(options)`: the refract HTTP API as a fastify instance (test it with `inject`, or `listen`).
 * Solves run in a worker pool and catalogs are parsed in a worker of their own; every limit of the
 * service (time-outs, admission, catalog registry) is set here from `ServerOptions` (see
 * docs/server.md, "Limits"). Closing the instance finishes in-flight requests, then stops the workers.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { isPlainObject } from '../read/json.ts';
import { packageVersion } from '../read/package-files.ts';
import { installAdmission, type Admission } from './admission.ts';
import { CatalogParser } from './catalog-parser.ts';
import { CatalogStore, type CatalogLimits } from './catalogs.ts';
import { SERVER_DEFAULTS, ServerOptionsSchema } from './defaults.ts';
import { parseAt } from '../model/errors.ts';
import { answerClientError, toHttpError } from './errors.ts';
import { installGuards } from './guards.ts';
import { installJsonParser } from './json-body.ts';
import { registerRoutes } from './routes.ts';
import { SolvePool } from './solve.ts';

export interface ServerOptions {
  /** Bearer token required on every route but /v1/health. */
  readonly token?: string;
  /** More tokens, one per client (`--token-file`); a catalog belongs to the client that registered it. */
  readonly tokens?: readonly string[];
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
  /** Time to receive a whole request, headers and body (default 10 s); past it 408. */
  readonly bodyTimeoutMs?: number;
  /** Time to receive a request's headers (default 5 s, at most `bodyTimeoutMs`); past it 408. */
  readonly headersTimeoutMs?: number;
  /** Bytes of request bodies that may be arriving at once over all requests (default 64 MiB); past it 503. */
  readonly receiveBudget?: number;
  /** Open connections (default 1024); more are closed at once. */
  readonly maxConnections?: number;
  /** Registry limits: catalogs, their total bytes, depth of output paths, inline cache bytes. */
  readonly catalogLimits?: Partial<CatalogLimits>;
  /** pino level: fatal, error, warn, info, debug, trace or silent (default silent). */
  readonly logLevel?: string;
  /** Lets jobs with ids `test:block:<ms>` / `test:exit:<code>` / `test:sleep:<ms>` misbehave (tests only). */
  readonly testHooks?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The admission state: requests holding a slot, bytes of bodies arriving, refusals. */
    readonly admission: Admission;
  }
}

export { SERVER_DEFAULTS };

/** Share of the request time limit the work may use; the rest covers queueing, decoding, answering. */
const SOLVER_SHARE = 0.8;

export function buildServer(options: ServerOptions = {}): FastifyInstance {
  parseAt(ServerOptionsSchema, options, ['options']);
  const bodyLimit = options.bodyLimit ?? SERVER_DEFAULTS.bodyLimit;
  const maxInflight = options.maxInflight ?? SERVER_DEFAULTS.maxInflight;
  const requestTimeoutMs = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? SERVER_DEFAULTS.bodyTimeoutMs;
  const headersTimeoutMs = Math.min(
    options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs,
    bodyTimeoutMs,
  );
  const parser = new CatalogParser({ timeoutMs: requestTimeoutMs });
  const store = new CatalogStore(options.catalogDir, { limits: options.catalogLimits, parser });
  for (const [name, json] of Object.entries(options.catalogs ?? {})) store.add(name, json);

  const app = Fastify({
    bodyLimit,
    logger: { level: options.logLevel ?? 'silent' },
    // Node cuts a request whose headers or body arrive too slowly (408), checked every quarter second.
    requestTimeout: bodyTimeoutMs,
    http: {
      requestTimeout: bodyTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(250, headersTimeoutMs),
    },
    // Catalog names run to 128 characters; a longer URL part is refused in the service's shape.
    routerOptions: { maxParamLength: 256 },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      const http = toHttpError(error);
      void reply.code(http.statusCode as never).send(http.body as never);
    },
  });
  app.server.maxConnections = options.maxConnections ?? SERVER_DEFAULTS.maxConnections;
  const pool = new SolvePool({
    workers: options.workers,
    timeoutMs: requestTimeoutMs,
    testHooks: options.testHooks,
    onReplace: (slot, reason) => app.log.warn({ worker: slot, reason }, 'worker replaced'),
  });

  installJsonParser(app);
  const tokens = [...(options.token !== undefined ? [options.token] : []), ...(options.tokens ?? [])];
  installGuards(app, { tokens });
  const admission = installAdmission(app, {
    maxInflight,
    receiveBudget: options.receiveBudget ?? SERVER_DEFAULTS.receiveBudget,
    requestTimeoutMs,
    workShare: SOLVER_SHARE,
  });
  app.decorate('admission', admission);
  // Registering a catalog parses it in a worker: it is admitted like a solve.
  app.addHook('onRoute', (route) => {
    if (route.method === 'PUT' && route.url.startsWith('/v1/catalogs/')) {
      route.config = { ...route.config, admit: true };
    }
  });
  // An inline catalog is parsed in the catalog worker before the route reads it, and kept meanwhile.
  app.addHook('preHandler', async (request, reply) => {
    const body = request.body;
    if (!request.work || !isPlainObject(body) || body.catalog === undefined) return;
    if (body.catalogName !== undefined || request.method !== 'POST') return;
    const release = await request.work.hold(store.prepareInline(body.catalog, request.work.signal));
    reply.raw.once('close', release);
  });

  // While closing, answers end their connection, so keep-alive clients do not hold the close open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await Promise.all([pool.close(), parser.close()]);
  });

  app.setErrorHandler((error, request, reply) => {
    const http = toHttpError(error);
    if (http.statusCode >= 500) request.log.error({ err: error }, http.body.error);
    else request.log.info({ field: http.body.field, status: http.statusCode }, http.body.error);
    return reply
      .code(http.statusCode)
      .headers(http.headers ?? {})
      .send(http.body);
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
    version: packageVersion(),
  });
  return app;
}
