/**
 * The MCP server: `validate`, `fix` and `compress` over any MCP transport (stdio for `refract mcp`).
 * Results are the CLI's JSON results as text content; bad input is a tool error naming the field.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InputError } from '../model/errors.ts';
import {
  compressInput,
  compressTool,
  fixInput,
  fixTool,
  validateInput,
  validateTool,
  type ToolDefaults,
} from './tools.ts';

export const SERVER_NAME = 'refract';
export const SERVER_VERSION = '0.1.0';

type Content = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Runs a handler; an InputError becomes a tool error (`{"error": {field, problem}}`), not a protocol error. */
async function answer(run: () => object | Promise<object>): Promise<Content> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await run()) }] };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const text = JSON.stringify({
      error: { field: error.field, problem: error.problem, message: error.message },
    });
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/** A server with the three tools; `defaults.catalog` is used when a call passes no catalog. */
export function createMcpServer(defaults: ToolDefaults = {}): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  server.registerTool(
    'validate',
    {
      description:
        'Check a tool-call sequence against a tool catalog; returns {valid, determination, issues}.',
      inputSchema: validateInput,
    },
    (args) => answer(() => validateTool(args, defaults)),
  );
  server.registerTool(
    'fix',
    {
      description:
        'Repair a tool-call sequence at the lowest cost (MILP); returns the repaired sequence, edits, diff and issues.',
      inputSchema: fixInput,
    },
    (args) => answer(() => fixTool(args, defaults)),
  );
  server.registerTool(
    'compress',
    {
      description:
        'Find the cheapest sequence that still meets the goals: repeated and unnecessary calls go (optimal mode).',
      inputSchema: compressInput,
    },
    (args) => answer(() => compressTool(args, defaults)),
  );
  return server;
}

/** Serves over standard input/output until the client disconnects. */
export async function serveStdio(defaults: ToolDefaults = {}): Promise<McpServer> {
  const server = createMcpServer(defaults);
  await server.connect(new StdioServerTransport());
  return server;
}
