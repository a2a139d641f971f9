import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { tempDir } from './fixtures/batch/records.ts';

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
      expect.arrayContaining([
        'sequence',
        'catalog',
        'catalogPath',
        'memory',
        'executed',
        'maxTries',
        'costModel',
        'weights',
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        required: ['sequence'],
        additionalProperties: false,
      });
      expect(tool.inputSchema.properties).not.toHaveProperty('catalogName');
    }
    expect(tools[0].inputSchema.properties).not.toHaveProperty('costModel');
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

  const tmp = tempDir();
  afterAll(() => tmp.remove());
  const failure = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    return text(result).error as { field: string; problem: string; message: string };
  };

  it('answers arguments the input schema refuses in the same shape, naming the field', async () => {
    const base = { catalogPath: CATALOG, sequence: [] };
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['fix', { ...base, timeout: -1 }, 'timeout', /expected number to be >0/],
      ['fix', { ...base, solver: 'x' }, 'solver', /expected one of/],
      ['validate', { catalogPath: CATALOG, sequence: 5 }, 'sequence', /expected string or array or object/],
      ['compress', { ...base, fixes: 500 }, 'fixes', /<=100/],
      ['fix', { ...base, mode: 'bad' }, 'mode', /expected one of/],
      ['validate', { catalogPath: CATALOG }, 'sequence', /expected/],
    ];
    for (const [tool, args, field, problem] of cases) {
      const error = await failure(tool, args);
      expect(error, JSON.stringify(args)).toMatchObject({ field, problem: expect.stringMatching(problem) });
      expect(error.message).toBe(`${field}: ${error.problem}`);
    }
  });

  it('docs/agents.md shows the errors these arguments get', async () => {
    const docs = readFileSync('docs/agents.md', 'utf8');
    const block = /as the HTTP API's 400s do:\n\n```json\n([^`]*)```/.exec(docs)?.[1] ?? '';
    const shown = block
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const args = [
      { catalogPath: CATALOG, sequence: [], timeout: -1 },
      { catalogPath: CATALOG, sequence: [], foo: 1 },
      { catalogPath: '/nonexistent.json', sequence: [] },
    ];
    const actual = [];
    for (const a of args) actual.push(text(await client.callTool({ name: 'fix', arguments: a })));
    expect(shown).toEqual(actual);
  });

  it('refuses unknown fields and catalogName (there is no registry here), like the HTTP API', async () => {
    const args = { catalogPath: CATALOG, sequence: [] };
    expect(await failure('validate', { ...args, foo: 1 })).toMatchObject({
      field: 'foo',
      problem: 'unknown field',
    });
    expect(await failure('fix', { sequence: [], catalogName: 'x' })).toMatchObject({
      field: 'catalogName',
      problem: expect.stringMatching(/no catalog registry.*catalog or catalogPath/),
    });
    expect(await failure('fix', { ...args, goals: { api: ['x'] } })).toMatchObject({ field: 'goals.api' });
    await expect(client.callTool({ name: 'repair', arguments: args })).rejects.toThrow(
      /-32602.*no tool named "repair"/,
    );
  });

  it('names catalogPath when the file cannot be read or is not JSON', async () => {
    expect(await failure('validate', { catalogPath: '/nonexistent.json', sequence: [] })).toMatchObject({
      field: 'catalogPath',
      problem: 'cannot read file (ENOENT)',
    });
    const notJson = tmp.file('not-json.json');
    writeFileSync(notJson, 'secret-token-123\n');
    const error = await failure('validate', { catalogPath: notJson, sequence: [] });
    expect(error.field).toBe('catalogPath');
    expect(error.message).not.toContain('secret');
  });

  it('reads a cost-model file by path (stdio runs as the user) but never quotes the file in errors', async () => {
    const secret = tmp.file('secret.txt');
    writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    for (const tool of ['fix', 'compress']) {
      const error = await failure(tool, { catalogPath: CATALOG, sequence: [], costModel: secret });
      expect(error.field).toBe('costModel');
      expect(error.message).toMatch(/invalid JSON/);
      expect(error.message).not.toContain('root:x');
    }
    const model = tmp.file('model.json');
    writeFileSync(model, JSON.stringify({ weights: { nope: 1 } }));
    expect((await failure('fix', { catalogPath: CATALOG, sequence: [], costModel: model })).field).toMatch(
      /^costModel\.weights/,
    );
    const missing = await failure('fix', { catalogPath: CATALOG, sequence: [], costModel: '/nonexistent' });
    expect(missing.field).toBe('costModel');
  });

  it('re-reads a catalog file that changed between two calls', async () => {
    const file = tmp.file('catalog.json');
    const catalog = (name: string) => JSON.stringify([{ name, parameters: {} }]);
    writeFileSync(file, catalog('OldTool'));
    const call = async () =>
      text(
        await client.callTool({
          name: 'validate',
          arguments: { catalogPath: file, sequence: 'MyNewTool()' },
        }),
      );
    expect((await call()).issues[0].tag).toBe('unknown_api');
    writeFileSync(file, catalog('MyNewTool'));
    expect((await call()).valid).toBe(true);
    // Same size, same second: the content decides.
    writeFileSync(file, catalog('MyOldTool'));
    expect((await call()).issues[0].tag).toBe('unknown_api');
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
  it('answers a tools/call whose arguments are no object with -32602 in one line naming the field', async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer().connect(serverSide);
    const replies: unknown[] = [];
    clientSide.onmessage = (message) => replies.push(message);
    await clientSide.start();
    const call = (id: number, params: unknown) =>
      clientSide.send({ jsonrpc: '2.0', id, method: 'tools/call', params } as never);
    await call(1, { name: 'fix', arguments: 'notanobject' });
    await call(2, { name: 'fix', arguments: [1, 2] });
    await call(3, { name: 7 });
    await call(4, { name: 'validate', arguments: { sequence: 'x()', catalog: [{ name: 'x' }] } });
    await new Promise((done) => setTimeout(done, 200));
    const byId = new Map(replies.map((r) => [(r as { id: number }).id, r as Record<string, unknown>]));
    expect(byId.get(1)).toMatchObject({
      error: {
        code: -32602,
        message: 'MCP error -32602: params.arguments: expected an object, received string',
      },
    });
    expect(byId.get(2)).toMatchObject({
      error: {
        code: -32602,
        message: 'MCP error -32602: params.arguments: expected an object, received array',
      },
    });
    expect(byId.get(3)).toMatchObject({
      error: {
        code: -32602,
        message: 'MCP error -32602: params.name: expected a tool name, received number',
      },
    });
    expect(text(byId.get(4)!.result)).toMatchObject({ valid: true });
    await clientSide.close();
  });

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
