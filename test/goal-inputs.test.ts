/**
 * Goals are input: a goal naming an API the catalog lacks, or an empty field name, is refused by the request
 * layer with the field named (CLI: the flag, one line, exit 2; HTTP: 400 with `field`; MCP: a tool error;
 * library: an `InputError`), never a repair that ends in status `error`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkGoals,
  InputError,
  parseSequence,
  repair as repairLibrary,
  requestSettings,
} from '../src/index.ts';
import { frontEnds } from './front-end-clients.ts';
import { runRealCli } from './cli-run.ts';
import { executable } from './helpers.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const catalog = JSON.parse(readFileSync(CATALOG, 'utf8'));
const sequence = readFileSync('samples/broken-flight.txt', 'utf8');

/** Bad goals, the field each names, and the same goals as flags with the flag named. */
const CASES = [
  {
    goals: { apis: ['SkyScrapperSearchAirport', 'Nope'] },
    field: 'goals.apis[1]',
    flags: ['--goal-api', 'SkyScrapperSearchAirport', '--goal-api', 'Nope'],
    flag: '--goal-api',
  },
  { goals: { fields: [''] }, field: 'goals.fields[0]', flags: ['--goal-field', ''], flag: '--goal-field' },
  {
    // A field no API outputs, no mapping feeds and memory does not hold: no repair could meet it.
    goals: { fields: ['geoId', 'nonsenseField'] },
    field: 'goals.fields[1]',
    flags: ['--goal-field', 'geoId', '--goal-field', 'nonsenseField'],
    flag: '--goal-field',
  },
  {
    goals: { steps: [{ name: 'Nope', arguments: {} }] },
    field: 'goals.steps[0].name',
    flags: ['--goal-step', 'Nope()'],
    flag: '--goal-step',
  },
  {
    goals: { steps: [{ name: 'SkyScrapperSearchAirport', arguments: { zz: 1 } }] },
    field: 'goals.steps[0].arguments.zz',
    flags: ['--goal-step', 'SkyScrapperSearchAirport(zz=1)'],
    flag: '--goal-step',
  },
];

describe('goals checked at the request layer', () => {
  const { app, mcp } = frontEnds();

  it.each(CASES)('library: $field', async ({ goals, field }) => {
    const reachable = (goals.fields ?? []).every((f) => f !== '' && f !== 'nonsenseField');
    if (!reachable && goals.fields?.[0] !== '') expect(checkGoals(goals, executable)).toEqual(goals);
    else expect(() => checkGoals(goals, executable)).toThrow(InputError);
    await expect(repairLibrary(parseSequence(sequence), executable, { goals })).rejects.toThrow(
      expect.objectContaining({ field: `options.${field}` }),
    );
    const settle = () => requestSettings('fix', { sequence, goals }, { files: false, catalog: executable });
    expect(settle).toThrow(expect.objectContaining({ field }));
  });

  it.each(CASES)('HTTP: 400 naming $field', async ({ goals, field }) => {
    const r = await app().inject({ method: 'POST', url: '/v1/fix', payload: { sequence, catalog, goals } });
    expect(r.statusCode).toBe(400);
    expect(r.json().field).toBe(field);
  });

  it.each(CASES)('MCP: a tool error naming $field', async ({ goals, field }) => {
    const result = await mcp.callTool({ name: 'fix', arguments: { sequence, catalog, goals } });
    expect(result.isError).toBe(true);
    const text = (result as { content: { text: string }[] }).content[0].text;
    // A shape error is the SDK's own (its input check runs first), naming the path in its text.
    if (text.startsWith('MCP error')) expect(text).toContain(` at ${field}`);
    else expect(JSON.parse(text).error.field).toBe(field);
  });

  it.each(CASES)('CLI: one line naming $flag, exit 2', async ({ flags, flag }) => {
    for (const command of ['fix', 'compress', 'modes', 'export']) {
      const { code, err } = await runRealCli([
        command,
        '--catalog',
        CATALOG,
        ...flags,
        'samples/broken-flight.txt',
      ]);
      expect(code).toBe(2);
      expect(err).toMatch(new RegExp(`^refract: ${flag}: [^\\n]+\\n$`));
    }
  });

  it('a field goal that memory holds is met', async () => {
    const memory = { m1: { nonsenseField: 1 } };
    const fix = async (payload: object) =>
      app().inject({ method: 'POST', url: '/v1/fix', payload: { sequence, catalog, ...payload } });
    expect((await fix({ goals: { fields: ['nonsenseField'] }, memory })).statusCode).toBe(200);
    const repaired = await repairLibrary(parseSequence(sequence), executable, {
      goals: { fields: ['nonsenseField'] },
      memory,
    });
    expect(repaired.status).not.toBe('error');
  });

  it('good goals still repair', async () => {
    const goals = { apis: ['TripadvisorSearchLocation'], fields: ['geoId'] };
    const r = await app().inject({ method: 'POST', url: '/v1/fix', payload: { sequence, catalog, goals } });
    expect(r.statusCode).toBe(200);
    expect(r.json().status).toBe('repaired');
  });
});
