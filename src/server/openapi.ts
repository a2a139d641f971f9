/** `/openapi.json`: an OpenAPI 3.1 document generated from the same zod schemas the routes parse with. */
import { z } from 'zod';
import { BODY_SCHEMAS } from './requests.ts';
import {
  CatalogInfoSchema,
  CatalogListSchema,
  ErrorSchema,
  HealthSchema,
  LoopJsonSchema,
  RepairJsonSchema,
  ValidationJsonSchema,
} from '../api/result.ts';

type JsonSchema = Record<string, unknown>;

/** A schema's JSON Schema with its `$defs` moved into `components` and its refs pointed there. */
function component(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
  const {
    $defs,
    $schema: _schema,
    ...root
  } = out as { $defs?: Record<string, JsonSchema>; $schema?: string };
  const relink = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(relink);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : relink(v),
      ]),
    );
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = relink(def) as JsonSchema;
  return relink(root) as JsonSchema;
}

const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
const ok = (schema: JsonSchema, description = 'ok') => ({ description, ...json(schema) });

export function openApiDocument(version: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const c = (schema: z.ZodType, io: 'input' | 'output' = 'output') => component(schema, io, components);
  const error = c(ErrorSchema);
  const errors = {
    '400': { description: 'bad request: `field` names the request field at fault', ...json(error) },
    '401': { description: 'missing or wrong bearer token', ...json(error) },
    '408': { description: 'the request did not arrive within the request timeout', ...json(error) },
    '413': { description: 'body larger than the body limit', ...json(error) },
    '414': { description: 'the URL is longer than the server reads', ...json(error) },
    '415': {
      description: 'the body is not JSON (content type), or is compressed (content-encoding)',
      ...json(error),
    },
    '431': { description: 'the request headers are larger than the server reads', ...json(error) },
    '503': { description: 'too many requests in flight (see Retry-After)', ...json(error) },
    '504': { description: 'the request time limit was exceeded; its worker was replaced', ...json(error) },
    '500': { description: 'the worker failed; determination is null', ...json(error) },
  };
  // A catalog another client registered, or the server at start-up, is not the caller's to replace or delete.
  const owned = {
    '403': { description: 'the catalog belongs to another client or to the server', ...json(error) },
  };
  const solve = (summary: string, request: z.ZodType, result: z.ZodType) => ({
    post: {
      summary,
      requestBody: { required: true, ...json(c(request, 'input')) },
      responses: { '200': ok(c(result), 'the result'), ...errors },
    },
  });
  const catalog = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  const paths = {
    '/v1/validate': solve(
      'check a sequence without repairing it',
      BODY_SCHEMAS.validate,
      ValidationJsonSchema,
    ),
    '/v1/fix': solve('repair a sequence at the lowest cost', BODY_SCHEMAS.fix, RepairJsonSchema),
    '/v1/compress': solve(
      'the cheapest sequence that meets the goals (refract compress): repeated and unnecessary calls go',
      BODY_SCHEMAS.compress,
      RepairJsonSchema,
    ),
    '/v1/loop': solve('repair in rounds with the optimiser as the fixer', BODY_SCHEMAS.loop, LoopJsonSchema),
    '/v1/health': {
      get: {
        summary: 'liveness and load (no token needed)',
        security: [],
        responses: { '200': ok(c(HealthSchema)) },
      },
    },
    '/v1/catalogs': {
      get: {
        summary: 'registered catalogs',
        responses: { '200': ok(c(CatalogListSchema)), '401': errors['401'] },
      },
    },
    '/v1/catalogs/{name}': {
      put: {
        summary: 'register or replace a catalog (body = the catalog JSON)',
        parameters: [catalog],
        requestBody: { required: true, content: { 'application/json': { schema: {} } } },
        responses: {
          '200': ok(c(CatalogInfoSchema), 'replaced'),
          '201': ok(c(CatalogInfoSchema), 'registered'),
          ...errors,
          ...owned,
          '413': {
            description: 'body larger than the body limit, or a catalog larger than the registry holds',
            ...json(error),
          },
          '507': {
            description: 'the registry is full (catalogs or bytes): delete one first',
            ...json(error),
          },
        },
      },
      delete: {
        summary: 'forget a catalog',
        parameters: [catalog],
        responses: {
          '200': ok(c(CatalogInfoSchema), 'deleted'),
          '401': errors['401'],
          ...owned,
          '404': ok(error, 'no such catalog'),
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'refract', version, description: 'check and optimally repair LLM tool-call sequences' },
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
