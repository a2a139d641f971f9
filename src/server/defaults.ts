/**
 * The server's default limits, apart from the server itself so that the command line can show them in its
 * help without loading fastify.
 */
export const SERVER_DEFAULTS = {
  bodyLimit: 1024 * 1024,
  maxInflight: 128,
  requestTimeoutMs: 30_000,
} as const;
