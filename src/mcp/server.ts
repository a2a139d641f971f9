/**
 * The MCP server: `validate`, `fix` and `compress` over any MCP transport (stdio for `refract mcp`).
 * Results are the CLI's JSON results as text content. Every bad argument, whichever check finds it, is a
 * tool error `{"error": {field, problem, message}}` naming the field: the tools' arguments are checked by
 * src/mcp/tools.ts, not by the SDK's McpServer (whose own check answers in plain text), so the server is
 * built on the SDK's protocol-level `Server` with the two tool handlers written out here.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { InputError } from '../model/errors.ts';
import { catalog, optional, record } from '../api/arguments.ts';
import { isPlainObject, kindOf } from '../read/json.ts';
import { TOOL_NAMES, TOOL_SCHEMAS, runTool, type ToolDefaults, type ToolName } from './tools.ts';

export const SERVER_NAME = 'refract';
export const SERVER_VERSION = '0.1.0';

const DESCRIPTIONS: Record<ToolName, string> = {
  validate: 'Check a tool-call sequence against a tool catalog; returns {valid, determination, issues}.',
  fix: 'Repair a tool-call sequence at the lowest cost (MILP); returns the repaired sequence, edits, diff and issues.',
  compress:
    'Find the cheapest sequence that still meets the goals: repeated and unnecessary calls go (optimal mode).',
};

const TOOLS: Tool[] = TOOL_NAMES.map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  inputSchema: z.toJSONSchema(TOOL_SCHEMAS[name], { io: 'input', target: 'draft-7' }) as Tool['inputSchema'],
}));

const isTool = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

/** A tools/call as it may come: its name and arguments checked by the handler, one line each. */
const LooseCallSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({ name: z.unknown(), arguments: z.unknown().optional() }),
});

const textResult = (value: object, isError?: true): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError ? { isError } : {}),
});

/**
 * Runs a tool; an InputError is a tool error naming the field, any other failure a tool error with field
 * null (the client sees why, and the sequence stays undecided).
 */
async function answer(run: () => Promise<object>): Promise<CallToolResult> {
  try {
    return textResult(await run());
  } catch (error) {
    if (error instanceof InputError) {
      const { field, problem, message } = error;
      return textResult({ error: { field, problem, message } }, true);
    }
    const message = error instanceof Error ? error.message : String(error);
    return textResult({ error: { field: null, problem: message, message } }, true);
  }
}

/** A server with the three tools; `defaults.catalog` is used when a call passes no catalog. */
export function createMcpServer(defaults: ToolDefaults = {}): Server {
  record({ catalog: optional(catalog) })(defaults, 'defaults', [defaults]);
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  // Registered on the protocol layer with a loose schema: the SDK's own check of a tools/call (its Server
  // wrapper, and the parse against CallToolRequestSchema) answers `arguments: "x"` with a multi-line schema
  // dump as an internal error. Here it is -32602 in one line naming the field; tasks are not offered.
  const register = Object.getPrototypeOf(Server.prototype) as Pick<Server, 'setRequestHandler'>;
  register.setRequestHandler.call(server, LooseCallSchema, (request: z.infer<typeof LooseCallSchema>) => {
    const { name, arguments: args } = request.params;
    if (typeof name !== 'string')
      throw new McpError(
        ErrorCode.InvalidParams,
        `params.name: expected a tool name, received ${kindOf(name)}`,
      );
    if (args !== undefined && !isPlainObject(args))
      throw new McpError(
        ErrorCode.InvalidParams,
        `params.arguments: expected an object, received ${kindOf(args)}`,
      );
    if (!isTool(name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no tool named ${JSON.stringify(name)} (tools: ${TOOL_NAMES.join(', ')})`,
      );
    }
    return answer(() => runTool(name, args, defaults));
  });
  return server;
}

/** Serves over standard input/output until the client disconnects. */
export async function serveStdio(defaults: ToolDefaults = {}): Promise<Server> {
  const server = createMcpServer(defaults);
  await server.connect(new StdioServerTransport());
  return server;
}
