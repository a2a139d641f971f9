/**
 * The MCP tools `validate`, `fix` and `compress`: their input is the request schema of src/api without
 * `catalogName` (there is no catalog registry here), checked here rather than by the SDK so that every bad
 * argument, an unknown one included, is an `InputError` naming the field, as over HTTP. Catalogs come
 * inline, from a file (`catalogPath`) or from the server's default; a cost model is a preset, inline, or a
 * file (`costModel`): the stdio server runs as the user who started it and reads what that user can read.
 * Files are re-read on every call and parsed again only when their content changed. Healing is on unless
 * a call turns it off.
 */
import { z } from 'zod';
import { parseCatalog } from '../read/catalog.ts';
import { FileMemo } from '../read/file-memo.ts';
import { naming, parseJsonFile } from '../read/files.ts';
import { isPlainObject } from '../read/json.ts';
import { InputError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { makeCall, requestSettings, runCall } from '../api/call.ts';
import { parseRequest } from '../api/parse.ts';
import { answerJson } from '../api/render.ts';
import { requestSchema, type ApiRequest } from '../api/request.ts';

export const TOOL_NAMES = ['validate', 'fix', 'compress'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

function toolSchema(kind: ToolName) {
  const { catalogName: _registry, ...shape } = requestSchema(kind).shape;
  return z.strictObject(shape);
}

/** Each tool's input: checked on every call, and listed (as JSON Schema) to clients. */
export const TOOL_SCHEMAS = {
  validate: toolSchema('validate'),
  fix: toolSchema('fix'),
  compress: toolSchema('compress'),
} as const;

export interface ToolDefaults {
  /** Catalog used when a call names none. */
  readonly catalog?: Catalog;
}

/** Catalog files read so far (bounded: a client may name many files). */
const catalogFiles = new FileMemo<Catalog>('mcp-catalog-files', 16);

function catalogOf(args: ApiRequest, defaults: ToolDefaults): Catalog {
  if (args.catalog !== undefined) return parseCatalog(args.catalog);
  const path = args.catalogPath;
  if (path !== undefined) {
    return naming('catalogPath', () => catalogFiles.load(path, (text) => parseCatalog(parseJsonFile(text))));
  }
  if (defaults.catalog) return defaults.catalog;
  throw new InputError('catalog', 'required: an inline catalog or a catalogPath (the server has no default)');
}

/** Runs the tool `kind` on a call's arguments (unchecked: as the client sent them). */
export async function runTool(kind: ToolName, input: unknown, defaults: ToolDefaults = {}): Promise<object> {
  if (isPlainObject(input) && 'catalogName' in input) {
    throw new InputError(
      'catalogName',
      'not available over MCP (there is no catalog registry): pass catalog or catalogPath',
    );
  }
  const args: ApiRequest = parseRequest(TOOL_SCHEMAS[kind], input ?? {}, 'arguments');
  const catalog = catalogOf(args, defaults);
  const request: ApiRequest = { ...args, ...(kind === 'validate' ? {} : { heal: args.heal ?? true }) };
  const settings = requestSettings(kind, request, { files: true, catalog });
  const outcome = await runCall(makeCall(settings, { id: args.id, input: args.sequence, catalog }));
  return answerJson(outcome);
}
