/** The API's routes: validation in the main thread (fast, no solver), every solve in the worker pool. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { runCall } from '../api/call.ts';
import { answerJson } from '../api/render.ts';
import type { RequestKind } from '../api/request.ts';
import type { CatalogStore } from './catalogs.ts';
import { checkCatalogName } from './catalogs.ts';
import { requestWork, type Admission } from './admission.ts';
import { openApiDocument } from './openapi.ts';
import { prepare } from './requests.ts';
import type { SolvePool } from './solve.ts';

export interface RouteContext {
  readonly store: CatalogStore;
  readonly pool: SolvePool;
  readonly admission: Admission;
  readonly maxInflight: number;
  readonly solverCapS: number;
  readonly version: string;
}

const admit = { config: { admit: true } };

export function registerRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const started = Date.now();

  app.post('/v1/validate', admit, async (request) => {
    const { job, catalog } = prepare('validate', request.body, ctx.store, ctx.solverCapS);
    return answerJson(await runCall({ ...job, catalog: catalog.catalog }));
  });

  const solving = (kind: RequestKind) => async (request: FastifyRequest) => {
    const prepared = prepare(kind, request.body, ctx.store, ctx.solverCapS);
    const result = await ctx.pool.run(prepared.job, prepared.catalog, requestWork(request));
    request.log.info(
      { catalog: prepared.catalog.ref.key, status: result.status ?? result.stop, timeMs: result.timeMs },
      'solved',
    );
    return result;
  };
  app.post('/v1/fix', admit, solving('fix'));
  app.post('/v1/compress', admit, solving('compress'));
  app.post('/v1/loop', admit, solving('loop'));

  app.get('/v1/health', { config: { public: true } }, async () => ({
    status: 'ok' as const,
    version: ctx.version,
    uptimeS: Math.round((Date.now() - started) / 1000),
    inflight: ctx.admission.inflight,
    maxInflight: ctx.maxInflight,
    workers: ctx.pool.stats(),
    catalogs: ctx.store.size,
  }));

  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', async () => (openapi ??= openApiDocument(ctx.version)));

  app.get('/v1/catalogs', async () => ({ catalogs: ctx.store.list() }));

  app.put(
    '/v1/catalogs/:name',
    async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
      const name = checkCatalogName(request.params.name);
      const { info, created } = await ctx.store.put(name, request.body, request.client, request.work);
      request.log.info({ catalog: name, apis: info.apis, version: info.version }, 'catalog registered');
      return reply.code(created ? 201 : 200).send(info);
    },
  );

  app.delete('/v1/catalogs/:name', async (request: FastifyRequest<{ Params: { name: string } }>, reply) => {
    const name = checkCatalogName(request.params.name);
    const info = ctx.store.list().find((c) => c.name === name);
    if (!info || !(await ctx.store.delete(name, request.client))) {
      return reply.code(404).send({ error: `no catalog named ${JSON.stringify(name)}`, field: 'name' });
    }
    return info;
  });
}
