/**
 * The server's default limits, apart from the server itself so that the command line can show them in its
 * help without loading fastify.
 */
export const SERVER_DEFAULTS = {
  bodyLimit: 1024 * 1024,
  maxInflight: 128,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: 10_000,
  headersTimeoutMs: 5_000,
  receiveBudget: 64 * 1024 * 1024,
  maxConnections: 1024,
} as const;
