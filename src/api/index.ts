/**
 * The request vocabulary and its renderings: the schemas every front end derives its input from, the one
 * way from a request to the pipeline (`requestSettings` → `makeCall` → `runCall`), and the JSON and text
 * answers.
 */
export * from './request.ts';
export * from './result.ts';
export * from './call.ts';
export { checkGoals } from './goals.ts';
export * from './render.ts';
export * from './parse.ts';
