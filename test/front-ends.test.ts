/**
 * One request, three front ends: the same requests sent through the CLI (in process), the HTTP server and
 * the MCP tools give the same JSON, timings aside. Includes the compress case that once differed (the
 * server and MCP dropped every call of a sequence without `var_result`), and `refract modes`, whose
 * compress row is priced as `refract compress` prices it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerFix } from '../src/cli/fix.ts';
import { registerModes } from '../src/cli/tags.ts';
import { registerLoop } from '../src/cli/loop.ts';
import { frontEnds } from './front-end-clients.ts';
import { AIRPORT_MAPPINGS } from './helpers.ts';
import { runCommands } from './cli-run.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const catalog = JSON.parse(readFileSync(CATALOG, 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'refract-fronts-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A sequence without `var_result` that repeats a call: compress keeps two calls. */
const REPEATED = [
  'var1 = SkyScrapperSearchAirport(query="New York")',
  'var2 = SkyScrapperSearchAirport(query="New York")',
  'var3 = TripadvisorSearchLocation(query="London")',
].join('\n');

const MISSING_ORIGIN = readFileSync('samples/broken-flight.txt', 'utf8');
const WRONG_LABEL = readFileSync('samples/wrong-label.txt', 'utf8');
const MEMORY = { var0: { skyId: 'NYCA', entityId: '27537542' } };

interface Case {
  readonly name: string;
  readonly kind: 'validate' | 'fix' | 'compress';
  readonly sequence: string;
  /** The request's options as JSON (HTTP, MCP). */
  readonly request: Record<string, unknown>;
  /** The same options as flags. */
  readonly flags: readonly string[];
}

const CASES: readonly Case[] = [
  { name: 'validate', kind: 'validate', sequence: MISSING_ORIGIN, request: {}, flags: [] },
  {
    name: 'validate with memory and strict types',
    kind: 'validate',
    sequence: MISSING_ORIGIN,
    request: { memory: MEMORY, types: 'strict' },
    flags: ['--memory', file('memory.json', JSON.stringify(MEMORY)), '--types', 'strict'],
  },
  { name: 'fix', kind: 'fix', sequence: MISSING_ORIGIN, request: {}, flags: [] },
  {
    name: 'fix with mappings, weights, a solver and two fixes',
    kind: 'fix',
    sequence: WRONG_LABEL,
    request: {
      mappings: AIRPORT_MAPPINGS,
      weights: { slotFill: 2 },
      solver: 'lp-solver',
      fixes: 2,
      costModel: 'prefer-maps',
    },
    flags: [
      '--mappings',
      file('mappings.json', JSON.stringify(AIRPORT_MAPPINGS)),
      '--weight',
      'slotFill=2',
      '--solver',
      'lp-solver',
      '--fixes',
      '2',
      '--cost-model',
      'prefer-maps',
    ],
  },
  {
    name: 'fix with goals, given APIs only, no insertions',
    kind: 'fix',
    sequence: MISSING_ORIGIN,
    request: {
      givenOnly: true,
      allowInsert: false,
      mode: 'valid',
      goals: {
        apis: ['SkyScrapperFlightSearch'],
        steps: [{ name: 'SkyScrapperSearchAirport', arguments: { query: 'London' } }],
      },
    },
    flags: [
      '--given-only',
      '--no-insert',
      '--mode',
      'valid',
      '--goal-api',
      'SkyScrapperFlightSearch',
      '--goal-step',
      'SkyScrapperSearchAirport(query="London")',
    ],
  },
  { name: 'compress without var_result', kind: 'compress', sequence: REPEATED, request: {}, flags: [] },
  { name: 'compress a repair', kind: 'compress', sequence: WRONG_LABEL, request: {}, flags: [] },
  {
    name: 'compress with a goal field and defensive confirms',
    kind: 'compress',
    sequence: MISSING_ORIGIN,
    request: { goals: { fields: ['geoId'] }, defensive: true },
    flags: ['--goal-field', 'geoId', '--defensive'],
  },
];

/** Timings differ from run to run; everything else must not. */
function untimed(json: Record<string, unknown>): Record<string, unknown> {
  const { timeMs: _timeMs, ...rest } = json;
  return rest;
}

const { app, mcp } = frontEnds();

async function viaCli(c: Case): Promise<Record<string, unknown>> {
  const input = file(`${c.name.replace(/\W+/g, '-')}.txt`, c.sequence);
  const args = [c.kind, '--catalog', CATALOG, '--format', 'json', ...c.flags, input];
  const { out, err } = await runCommands([registerFix], args);
  expect(err).toBe('');
  return JSON.parse(out);
}

async function viaHttp(c: Case): Promise<Record<string, unknown>> {
  const response = await app().inject({
    method: 'POST',
    url: `/v1/${c.kind}`,
    payload: { sequence: c.sequence, catalog, ...c.request },
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function viaMcp(c: Case): Promise<Record<string, unknown>> {
  // MCP heals by default; the other front ends do not, unless asked.
  const heal = c.kind === 'validate' ? {} : { heal: false };
  const result = await mcp.callTool({
    name: c.kind,
    arguments: { sequence: c.sequence, catalogPath: CATALOG, ...heal, ...c.request },
  });
  expect(result.isError).toBeFalsy();
  return JSON.parse((result as { content: { text: string }[] }).content[0].text);
}

describe('the same request through the CLI, HTTP and MCP', () => {
  it.each(CASES)('$name: the same answer', async (c) => {
    const cli = untimed(await viaCli(c));
    expect(untimed(await viaHttp(c))).toEqual(cli);
    expect(untimed(await viaMcp(c))).toEqual(cli);
  });

  it('compress keeps one of each distinct call of a sequence without var_result', async () => {
    const c = CASES.find((x) => x.name === 'compress without var_result')!;
    for (const answer of [await viaCli(c), await viaHttp(c), await viaMcp(c)]) {
      expect((answer.sequence as { label: string }[]).map((s) => s.label)).toEqual(['var1', 'var3']);
    }
  });

  it('MCP heals unless told not to; HTTP heals when asked, with the same edits', async () => {
    const calls = [
      {
        type: 'function',
        function: { name: 'SkyScrapperSearchAirport', arguments: '{"query": "Rome"' },
      },
    ];
    const http = await app().inject({
      method: 'POST',
      url: '/v1/fix',
      payload: { sequence: calls, catalog, heal: true },
    });
    const viaTool = await mcp.callTool({ name: 'fix', arguments: { sequence: calls, catalog } });
    const tool = JSON.parse((viaTool as { content: { text: string }[] }).content[0].text);
    expect(untimed(http.json())).toEqual(untimed(tool));
    expect(tool.heal.map((e: { kind: string }) => e.kind)).toEqual(['repairJson']);
  });
});

describe('the repair loop through the CLI and HTTP (MCP has no loop tool)', () => {
  it('gives the same answer with the same options', async () => {
    const input = file('loop.txt', MISSING_ORIGIN);
    const flags = ['--max-rounds', '3', '--feedback', 'suggestions', '--weight', 'slotFill=2'];
    const cli = await runCommands([registerLoop], ['loop', '-c', CATALOG, ...flags, input]);
    expect(cli.err).toBe('');
    const http = await app().inject({
      method: 'POST',
      url: '/v1/loop',
      payload: {
        sequence: MISSING_ORIGIN,
        catalog,
        maxRounds: 3,
        feedback: 'suggestions',
        weights: { slotFill: 2 },
      },
    });
    expect(http.statusCode).toBe(200);
    const answer = JSON.parse(cli.out);
    expect(http.json()).toEqual(answer);
    expect(answer.rounds).toBeGreaterThan(0);
  });
});

describe('refract modes', () => {
  it('prices the compress row as refract compress does', async () => {
    for (const sequence of [WRONG_LABEL, REPEATED, MISSING_ORIGIN]) {
      const input = file('modes.txt', sequence);
      const modes = await runCommands([registerModes], ['modes', '-c', CATALOG, '--format', 'json', input]);
      const row = JSON.parse(modes.out).modes.find((r: { mode: string }) => r.mode === 'compress');
      const compressed = await viaCli({ name: 'modes', kind: 'compress', sequence, request: {}, flags: [] });
      expect([row.status, row.cost, row.edits]).toEqual([
        compressed.status,
        compressed.cost,
        (compressed.edits as unknown[]).length,
      ]);
    }
  });
});
