/**
 * The server's default limits, apart from the server itself so that the command line can show them in its
 * help without loading fastify.
 */
import { z } from 'zod';

export const SERVER_DEFAULTS = {
  bodyLimit: 1024 * 1024,
  maxInflight: 128,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: 10_000,
  headersTimeoutMs: 5_000,
  receiveBudget: 64 * 1024 * 1024,
  maxConnections: 1024,
} as const;

const positive = z.number().int().positive().optional();
const millis = z.number().finite().positive().optional();

/** `buildServer`'s options checked before anything starts (`options.workers: expected number`). */
export const ServerOptionsSchema = z.looseObject({
  token: z.string().min(1).optional(),
  tokens: z.array(z.string().min(1)).optional(),
  workers: z.number().int().min(1).max(1024).optional(),
  catalogDir: z.string().min(1).optional(),
  catalogs: z.record(z.string(), z.unknown()).optional(),
  bodyLimit: positive,
  maxInflight: positive,
  requestTimeoutMs: millis,
  bodyTimeoutMs: millis,
  headersTimeoutMs: millis,
  receiveBudget: positive,
  maxConnections: positive,
  catalogLimits: z
    .strictObject({
      maxCatalogs: positive,
      maxCatalogBytes: positive,
      maxOutputDepth: positive,
      inlineCacheBytes: z.number().int().min(0).optional(),
    })
    .optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  testHooks: z.boolean().optional(),
});
