import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSequence } from '../src/read/sequence.ts';
import { registerLoop, registerPick } from '../src/cli/loop.ts';
import { readCandidates } from '../src/loop/fixers/scripted.ts';
import { broken, gold, worse } from './fixtures/loop/samples.ts';
import { runCommands } from './cli-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'refract-loop-'));
const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const brokenFile = write('broken.json', broken);
const candidatesFile = write('candidates.json', [worse, gold]);
const CATALOG = 'data/nestful/executable-spec.json';

const run = (...args: string[]) => runCommands([registerLoop, registerPick], args);

afterEach(() => vi.restoreAllMocks());

describe('refract loop', () => {
  it('prints the JSON summary', async () => {
    const { out, code } = await run(
      'loop',
      '--catalog',
      CATALOG,
      '--fixer',
      'scripted',
      '--candidates',
      candidatesFile,
      brokenFile,
    );
    const json = JSON.parse(out);
    expect(code).toBe(0);
    expect(json).toMatchObject({
      rounds: 2,
      accepted: 1,
      stalled: 1,
      history: [3, 3, 0],
      stop: 'solved',
      leftover: [],
    });
    expect(json.sequence).toEqual(gold);
  });

  it('prints a readable report, exit code 1 when issues are left', async () => {
    const { out, code } = await run(
      'loop',
      '--catalog',
      CATALOG,
      '--fixer',
      'command',
      '--fixer-command',
      'exit 4',
      '--format',
      'text',
      brokenFile,
    );
    expect(code).toBe(1);
    expect(out).toContain(
      'stop: stalled after 2 round(s): 0 accepted, 2 stalled\nissue count: 3 -> 3 -> 3\n',
    );
    expect(out).toContain('round 0: rejected: fixer command exit code 4\n');
    expect(out).toContain(
      'left for a human (3):\n  - [unknown_parameter] step 3 (var3 = SkyScrapperFlightSearch)',
    );
  });

  it.each([
    [['--max-rounds', 'x'], 'refract loop: --max-rounds: expected an integer in [0, 50], received "x"'],
    [['--fixer', 'scripted'], 'refract loop: --candidates: required with --fixer scripted'],
    [
      ['--fixer', 'magic'],
      'refract loop: --fixer: expected one of milp, command, openai, scripted, received "magic"',
    ],
    [
      ['--feedback', 'poem'],
      'refract loop: --feedback: expected one of verdict, issues, suggestions, explain, trace, received "poem"',
    ],
    [['--fixer', 'openai', '--model', 'm'], 'refract loop: --base-url: required with --fixer openai'],
    [
      ['--fixer-timeout', '0'],
      'refract loop: --fixer-timeout: expected a number of seconds written out (2.5, not 25e-1 or 0x10) in (0, 86400], received "0"',
    ],
  ])('bad option %j: exit code 2 and the field named', async (extra, message) => {
    const { err, code, out } = await run('loop', '--catalog', CATALOG, ...extra, brokenFile);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`${message}\n`);
  });

  it('bad files: exit code 2 and the field named', async () => {
    const bad = await run(
      'loop',
      '--catalog',
      CATALOG,
      '--fixer',
      'scripted',
      '--candidates',
      'test/fixtures/loop/bad-candidates.json',
      brokenFile,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^refract loop: test\/fixtures\/loop\/bad-candidates\.json: candidates\[1\]\[0\]\.arguments: /,
    );
    const missing = await run('loop', brokenFile);
    expect(missing).toMatchObject({ code: 2, err: 'refract loop: --catalog: required catalog file\n' });
    const seq = await run('loop', '--catalog', CATALOG, write('bad.json', '[{"arguments": {}}]'));
    expect(seq.code).toBe(2);
    expect(seq.err).toMatch(/sequence\[0\]\.name/);
  });
});

describe('the end-to-end example of docs/loop.md', () => {
  it('prints exactly the documented report', async () => {
    const { out, code } = await run(
      'loop',
      '--catalog',
      CATALOG,
      '--fixer',
      'scripted',
      '--candidates',
      'test/fixtures/loop/nestful-proposals.json',
      '--format',
      'text',
      'test/fixtures/loop/nestful-broken.json',
    );
    expect(code).toBe(0);
    expect(out).toBe(
      [
        'stop: solved after 2 round(s): 1 accepted, 1 stalled',
        'issue count: 3 -> 3 -> 0',
        'round 0: rejected (candidate: 4 issue(s)): not better: 4 issue(s), state has 3',
        'round 1: accepted (candidate: 0 issue(s)): better: 0 issue(s), state had 3',
        'sequence:',
        '  var1 = SkyScrapperSearchAirport(query="New York")',
        '  var2 = SkyScrapperSearchAirport(query="London")',
        '  var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15", returnDate="2024-08-18")',
        '  var4 = TripadvisorSearchLocation(query="London")',
        '  var5 = TripadvisorSearchHotels(geoId="$var4.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")',
        '  var_result(flights="$var3$", hotels="$var5$")',
        '',
      ].join('\n'),
    );
  });

  it('the fixture files are the corrupted sample and its two proposals', () => {
    expect(loadSequence('test/fixtures/loop/nestful-broken.json')).toEqual(broken);
    expect(readCandidates('test/fixtures/loop/nestful-proposals.json')).toEqual([worse, gold]);
  });
});

describe('refract pick', () => {
  it('prints the winner and why', async () => {
    const { out, code } = await run('pick', '--catalog', CATALOG, write('three.json', [broken, gold, gold]));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ index: 1, by: 'majority', votes: 2, sequence: gold });
    const text = await run(
      'pick',
      '--catalog',
      CATALOG,
      '--format',
      'text',
      write('two.json', [worse, broken]),
    );
    expect(text.out.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^winner: candidate 1 \(cheapest-repair\): repaired, confidence 0\.\d+$/),
      expect.stringMatching(/^no candidate is valid; candidate 1 has the cheapest repair \(cost [\d.]+\)$/),
    ]);
    expect(text.out).toMatch(/\n {2}candidate 0: \d+ error\(s\), repair cost [\d.]+, confidence 0\.\d+\n/);
    expect(text.out).toMatch(/\nedits:\n {2}\w+ \(step \d+, [\d.]+\): /);
  });

  it('a repaired winner: its repair as refract fix prints it, each repaired candidate’s confidence', async () => {
    const file = write('two-broken.json', [worse, broken]);
    const { out, code } = await run('pick', '--catalog', CATALOG, file);
    const json = JSON.parse(out);
    expect(code).toBe(0);
    expect(json).toMatchObject({ index: 1, by: 'cheapest-repair' });
    expect(json.repair).toMatchObject({
      status: 'repaired',
      sequence: json.sequence,
      cost: json.candidates[1].cost,
    });
    expect(json.repair.confidence).toBeGreaterThan(0);
    expect(json.repair.edits.length).toBeGreaterThan(0);
    for (const c of json.candidates)
      expect(c).toMatchObject({ status: 'repaired', confidence: expect.any(Number) });
    // The options of refract fix: a repair below --min-confidence is held back (exit 5, as fix gives it);
    // --no-confidence skips the confidence.
    const held = await run('pick', '--catalog', CATALOG, '--min-confidence', '0.9999', file);
    expect(held.code).toBe(5);
    expect(JSON.parse(held.out).repair.status).toBe('uncertain');
    const bare = JSON.parse((await run('pick', '--catalog', CATALOG, '--no-confidence', file)).out);
    expect(bare.repair.confidence).toBeUndefined();
    expect(bare.candidates[0].confidence).toBeUndefined();
  });

  it('bad input: exit code 2', async () => {
    expect(await run('pick', '--catalog', CATALOG, write('empty.json', []))).toMatchObject({
      code: 2,
      err: 'refract pick: candidates: expected at least one candidate\n',
    });
    expect((await run('pick', '--catalog', CATALOG, write('obj.json', { a: 1 }))).code).toBe(2);
    expect(await run('pick', write('none.json', [gold]))).toMatchObject({
      code: 2,
      err: 'refract pick: --catalog: required: the tool catalog to check against\n',
    });
    expect(
      await run('pick', '--catalog', CATALOG, '--min-confidence', '2', write('one.json', [gold])),
    ).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^refract pick: --min-confidence: /),
    });
  });
});
