/**
 * The MCP tools `validate`, `fix` and `compress`: their input shapes are the request schemas of
 * src/api (without `catalogName`: there is no registry here), their handlers the request functions.
 * Catalogs come inline, from a file (`catalogPath`), or from the server's default; healing is on unless
 * a call turns it off.
 */
import { LRUCache } from 'lru-cache';
import { loadCatalog, parseCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { makeCall, requestSettings, runCall } from '../api/call.ts';
import { answerJson } from '../api/render.ts';
import { requestSchema, type ApiRequest } from '../api/request.ts';

function toolInput<K extends 'validate' | 'fix' | 'compress'>(kind: K) {
  const { catalogName: _registry, ...shape } = requestSchema(kind).shape;
  return shape;
}

export const validateInput = toolInput('validate');
export const fixInput = toolInput('fix');
export const compressInput = toolInput('compress');

/** A tool's arguments (the SDK checks them against the input shape before a handler runs). */
export type ToolArgs = { readonly [K in keyof ApiRequest]?: unknown };

export interface ToolDefaults {
  /** Catalog used when a call names none. */
  readonly catalog?: Catalog;
}

/** Catalog files read so far, by path (bounded: a client may name many files). */
const catalogCache = new LRUCache<string, Catalog>({ max: 16 });

function catalogOf(args: ApiRequest, defaults: ToolDefaults): Catalog {
  if (args.catalog !== undefined) return parseCatalog(args.catalog);
  if (args.catalogPath !== undefined) {
    let catalog = catalogCache.get(args.catalogPath);
    if (!catalog) catalogCache.set(args.catalogPath, (catalog = loadCatalog(args.catalogPath)));
    return catalog;
  }
  if (defaults.catalog) return defaults.catalog;
  throw new InputError('catalog', 'required: an inline catalog or a catalogPath (the server has no default)');
}

async function answer(kind: 'validate' | 'fix' | 'compress', input: ToolArgs, defaults: ToolDefaults) {
  const args = input as ApiRequest;
  const catalog = catalogOf(args, defaults);
  const request = kind === 'validate' ? args : { ...args, heal: args.heal ?? true };
  const settings = requestSettings(kind, request, { files: true, catalog });
  const outcome = await runCall(makeCall(settings, { id: args.id, input: args.sequence, catalog }));
  return answerJson(outcome);
}

export const validateTool = (args: ToolArgs, defaults: ToolDefaults = {}) =>
  answer('validate', args, defaults);

export const fixTool = (args: ToolArgs, defaults: ToolDefaults = {}) => answer('fix', args, defaults);

export const compressTool = (args: ToolArgs, defaults: ToolDefaults = {}) =>
  answer('compress', args, defaults);
