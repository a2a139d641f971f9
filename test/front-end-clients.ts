/** An HTTP server (one worker) and an MCP client on an in-memory transport, opened and closed with the suite. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createMcpServer } from '../src/mcp/server.ts';
import { buildServer } from '../src/server/app.ts';

export function frontEnds(): { readonly app: () => FastifyInstance; readonly mcp: Client } {
  let app: FastifyInstance;
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  beforeAll(async () => {
    app = buildServer({ workers: 1 });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer().connect(serverSide);
    await mcp.connect(clientSide);
  });
  afterAll(async () => {
    await mcp.close();
    await app.close();
  });
  return { app: () => app, mcp };
}
