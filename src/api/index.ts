/** Zod schemas of the HTTP API's request and result shapes (also the source of `/openapi.json`). */
export * from './request.ts';
export * from './result.ts';
