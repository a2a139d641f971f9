import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { createMcpServer } from '../src/mcp/server.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const text = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0].text);

describe('MCP server (in-memory transport)', () => {
  const client = new Client({ name: 'test', version: '1.0.0' });
  beforeAll(async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer().connect(serverSide);
    await client.connect(clientSide);
  });
  afterAll(() => client.close());

  it('lists validate, fix and compress', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['validate', 'fix', 'compress']);
    expect(Object.keys(tools[1].inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['sequence', 'catalog', 'catalogPath', 'memory', 'costModel', 'weights']),
    );
  });

  it('validates a sequence against a catalog file', async () => {
    const result = await client.callTool({
      name: 'validate',
      arguments: { catalogPath: CATALOG, sequence: 'var1 = SkyScrapperSearchAirport(qurey="Rome")' },
    });
    expect(text(result)).toMatchObject({
      valid: false,
      issues: [{ tag: 'unknown_parameter' }, { tag: 'missing_parameter' }],
    });
  });

  it('fixes OpenAI tool calls with malformed arguments against an inline catalog', async () => {
    const catalog = [
      {
        name: 'getWeather',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'integer' } },
          required: ['city'],
        },
      },
    ];
    const sequence = [
      {
        id: 'a',
        type: 'function',
        function: { name: 'getWeather', arguments: '{"cty": "Rome", "days": "3"' },
      },
    ];
    const result = text(await client.callTool({ name: 'fix', arguments: { catalog, sequence } }));
    expect(result.status).toBe('repaired');
    expect(result.sequence).toEqual([
      { name: 'getWeather', arguments: { city: 'Rome', days: 3 }, label: 'var1' },
    ]);
    expect(result.heal.map((e: { kind: string }) => e.kind)).toEqual(['repairJson', 'coerce']);
  });

  it('compresses away a repeated call', async () => {
    const sequence = [
      'var1 = SkyScrapperSearchAirport(query="New York")',
      'var2 = SkyScrapperSearchAirport(query="New York")',
      'var_result(a="$var1.skyId$")',
    ].join('\n');
    const result = text(
      await client.callTool({ name: 'compress', arguments: { catalogPath: CATALOG, sequence } }),
    );
    expect(result.sequence.map((s: { label?: string }) => s.label)).toEqual(['var1', undefined]);
  });

  it('answers bad input with a tool error naming the field', async () => {
    const missing = await client.callTool({ name: 'validate', arguments: { sequence: [] } });
    expect(missing.isError).toBe(true);
    expect(text(missing).error.field).toBe('catalog');
    const bad = await client.callTool({ name: 'fix', arguments: { catalog: { tools: 3 }, sequence: [] } });
    expect(text(bad).error).toMatchObject({
      field: 'catalog.tools',
      problem: 'expected array, received number',
    });
  });

  it('uses the server’s default catalog when a call names none', async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const catalog = parseCatalog([{ name: 'ping', parameters: {} }]);
    await createMcpServer({ catalog }).connect(serverSide);
    const other = new Client({ name: 'test', version: '1.0.0' });
    await other.connect(clientSide);
    expect(text(await other.callTool({ name: 'validate', arguments: { sequence: 'ping()' } })).valid).toBe(
      true,
    );
    await other.close();
  });
});

describe('MCP server (stdio)', () => {
  it('serves over standard input/output in a child process', async () => {
    const script = "import { serveStdio } from './src/mcp/server.ts'; await serveStdio();";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', '--input-type=module', '--eval', script],
      cwd: process.cwd(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({
      name: 'fix',
      arguments: { catalogPath: CATALOG, sequence: 'var1 = SkyScrapperSearchAirport(qurey="Rome")' },
    });
    expect(text(result).sequence).toEqual([
      { name: 'SkyScrapperSearchAirport', arguments: { query: 'Rome' }, label: 'var1' },
    ]);
    await client.close();
  }, 30_000);
});
