/**
 * A repair reads back: the `ask`/`confirm` pseudo-steps of a repaired sequence are pseudo-steps in any
 * input (library, CLI, HTTP, MCP, the agent hook), so the sequence validates (valid, not executable) and a
 * second `fix` keeps its asks as they are: nothing dropped, nothing asked twice. A catalog API named `ask`
 * is checked as the API it is.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkStep,
  checkToolCalls,
  isExecutable,
  loopToolCalls,
  milpFixer,
  openIssues,
  parseCatalog,
  repair,
  validate,
} from '../src/index.ts';
import { registerFix } from '../src/cli/fix.ts';
import { frontEnds } from './front-end-clients.ts';
import type { Sequence } from '../src/model/types.ts';
import { runCommands } from './cli-run.ts';
import { executable, seq, text } from './helpers.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const BROKEN = seq(readFileSync('samples/broken-flight.txt', 'utf8'));
const asks = (s: Sequence) => s.filter((step) => step.name === 'ask').map((step) => step.label);

/** The repair of the sample, as `refract fix --format json` prints it and a user saves it. */
async function repaired(): Promise<Sequence> {
  const result = await repair(BROKEN, executable);
  expect(asks(result.sequence)).toEqual(['date']);
  return JSON.parse(JSON.stringify(result.sequence));
}

describe('a repaired sequence read back by the library', () => {
  it('validates: valid, not executable', async () => {
    const again = await repaired();
    expect(validate(again, executable)).toEqual({ valid: true, issues: [] });
    const result = await repair(again, executable);
    expect(result).toMatchObject({ status: 'valid', determination: true, isExecutable: false, edits: [] });
    expect(result.sequence).toEqual(again);
    expect(result.dropped).toBeUndefined();
  });

  it('keeps its asks and numbers the edits of another mistake in the input steps', async () => {
    const again = text(await repaired())
      .replace('TripadvisorSearchLocation', 'TripadvisorSearchLocatoin')
      .replace('destinationSkyId="$var2.skyId$", ', '');
    const input = seq(again);
    const result = await repair(input, executable);
    expect(result.status).toBe('repaired');
    expect(asks(result.sequence)).toEqual(['date']);
    expect(result.sequence[2]).toEqual(input[2]);
    expect(result.edits.map((e) => [e.kind, e.step])).toEqual([
      ['newMap', 3],
      ['renameApi', 4],
    ]);
    expect(result.diff).toContain('\n  date = ask(slot="date")\n');
    expect(validate(result.sequence, executable).valid).toBe(true);
  });

  it('keeps a confirm before the call whose value it confirms', async () => {
    const input = seq(
      [
        'var1 = SkyScrapperSearchAirport(query="New York")',
        'confirm(query="London")',
        'var2 = SkyScrapperSearchAirport(query="London")',
        'var_result(a="$var1$", b="$var2$", c="$var9$")',
      ].join('\n'),
    );
    const result = await repair(input, executable);
    expect(result.status).toBe('repaired');
    expect(result.sequence.slice(0, 3)).toEqual(input.slice(0, 3));
    expect(result.edits.map((e) => [e.kind, e.step, e.detail])).toEqual([
      ['dropParam', 3, 'drop c="$var9$"'],
    ]);
  });

  it('labels an ask for a parameter whose name is no label (kebab-case, spaces, a leading digit) as a label', async () => {
    const catalog = parseCatalog([
      {
        name: 'lookupCity',
        parameters: { 'city-name': { type: 'string', required: true } },
        output_parameters: { 'city-id': { type: 'string' } },
      },
      {
        name: 'getForecast',
        parameters: {
          'city-id': { type: 'string', required: true },
          'Forecast Day': { type: 'string', required: true },
          '2fa-code': { type: 'string', required: true },
        },
      },
    ]);
    const input = seq('r1 = lookupCity()\nr2 = getForecast(city-id="$r1.city-id$")');
    const r = await repair(input, catalog);
    expect(r.status).toBe('repaired');
    expect(r.sequence.filter((s) => s.name === 'ask')).toEqual([
      { name: 'ask', arguments: { slot: 'city-name' }, label: 'city_name' },
      { name: 'ask', arguments: { slot: 'Forecast Day' }, label: 'Forecast_Day' },
      { name: 'ask', arguments: { slot: '2fa-code' }, label: '_2fa_code' },
    ]);
    // It reads back, in both forms, and a second repair keeps it as it is.
    expect(seq(text(r.sequence))).toEqual(r.sequence);
    expect(validate(r.sequence, catalog).valid).toBe(true);
    expect((await repair(r.sequence, catalog)).status).toBe('valid');
  });

  it('reports them as unknown APIs when told not to read pseudo-steps', async () => {
    const issues = validate(await repaired(), executable, { pseudoSteps: false }).issues;
    expect(issues.map((i) => [i.tag, i.step])).toEqual([['unknown_api', 2]]);
  });

  it('checks a step named ask as the API when the catalog has one', async () => {
    const spec = JSON.parse(readFileSync(CATALOG, 'utf8'));
    const withAsk = parseCatalog([
      ...spec,
      { name: 'ask', description: 'ask a person', parameters: { question: { type: 'str', required: true } } },
    ]);
    const issues = validate(await repaired(), withAsk).issues;
    expect(issues.map((i) => [i.tag, i.step])).toEqual([
      ['unknown_parameter', 2],
      ['missing_parameter', 2],
    ]);
  });

  it('repairs, loops over and checks a call of a catalog API named ask as the call it is', async () => {
    const spec = JSON.parse(readFileSync(CATALOG, 'utf8'));
    const withAsk = parseCatalog([
      ...spec,
      { name: 'ask', description: 'ask a person', parameters: { question: { type: 'str', required: true } } },
    ]);
    const call = { name: 'ask', arguments: { qestion: 'Which city?' }, label: 'var1' };
    const fixed = { name: 'ask', arguments: { question: 'Which city?' }, label: 'var1' };
    const repaired = await repair([call], withAsk);
    expect(repaired).toMatchObject({ status: 'repaired', sequence: [fixed], isExecutable: true });
    expect(isExecutable([fixed], withAsk)).toBe(true);
    expect(openIssues([fixed], withAsk)).toEqual([]);
    const loop = await loopToolCalls({
      sequence: [call],
      catalog: withAsk,
      fixer: milpFixer({ catalog: withAsk }),
    });
    expect(loop).toMatchObject({ stop: 'solved', state: [fixed] });
    const step = await checkStep(call, withAsk);
    expect(step).toMatchObject({ valid: false, corrected: fixed, pending: [] });
    expect(step.repair.isExecutable).toBe(true);
    // Without the API, the same name is a question for the user.
    expect(isExecutable([fixed], executable)).toBe(false);
  });

  it('the agent hook does not execute a call named ask that no tool bears', async () => {
    const calls = [{ id: 'c1', type: 'function', function: { name: 'ask', arguments: '{"slot":"date"}' } }];
    const check = await checkToolCalls(calls, { catalog: executable });
    expect(check).toMatchObject({ ok: false, executable: false, calls: [] });
  });
});

describe('a repaired sequence read back by the front ends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-pseudo-'));
  const catalog = JSON.parse(readFileSync(CATALOG, 'utf8'));
  const { app, mcp } = frontEnds();

  it('CLI: refract fix --format json, then validate and fix its sequence', async () => {
    const first = await runCommands(
      [registerFix],
      ['fix', '--catalog', CATALOG, '--format', 'json', 'samples/broken-flight.txt'],
    );
    const file = join(dir, 'repaired.json');
    writeFileSync(file, JSON.stringify(JSON.parse(first.out).sequence));
    const checked = await runCommands([registerFix], ['validate', '--catalog', CATALOG, file]);
    expect([checked.code, checked.out.trim()]).toEqual([0, 'valid']);
    const again = await runCommands([registerFix], ['fix', '--catalog', CATALOG, '--format', 'json', file]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ status: 'valid', isExecutable: false, edits: [] });
  });

  it('HTTP and MCP: validate and fix the sequence', async () => {
    const sequence = await repaired();
    for (const kind of ['validate', 'fix'] as const) {
      const http = await app().inject({ method: 'POST', url: `/v1/${kind}`, payload: { sequence, catalog } });
      expect(http.statusCode).toBe(200);
      const tool = await mcp.callTool({ name: kind, arguments: { sequence, catalog } });
      const viaMcp = JSON.parse((tool as { content: { text: string }[] }).content[0].text);
      for (const answer of [http.json(), viaMcp]) {
        if (kind === 'validate') expect(answer).toMatchObject({ valid: true, issues: [] });
        else expect(answer).toMatchObject({ status: 'valid', sequence, edits: [] });
      }
    }
  });
});
