/** The CLI as a user runs it: exit codes, JSON lines in input order, messages naming the bad field. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const CATALOG = 'data/nestful/executable-spec.json';

function refract(args: string[], input?: string) {
  const r = spawnSync('node', ['--import', 'tsx', 'bin/refract.ts', ...args], {
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('refract fix / validate', () => {
  it('repairs a file of records: one JSON line per record, in input order, with ids; exit 1', () => {
    const r = refract(['fix', '--catalog', CATALOG, '--format', 'json', 'samples/broken-nestful.jsonl']);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([
      'made-up-api',
      'wrong-label',
      'missing-label',
      'missing-parameter',
      'made-up-parameter',
      'made-up-variable',
      'made-up-property',
      'missing-step',
      'missing-required-date',
      'gold',
    ]);
    expect(lines.map((l) => l.status)).toEqual([...Array(9).fill('repaired'), 'valid']);
    for (const l of lines)
      expect(Object.keys(l)).toEqual(
        expect.arrayContaining([
          'determination',
          'sequence',
          'edits',
          'cost',
          'optimal',
          'issues',
          'diff',
          'solver',
          'timeMs',
        ]),
      );
  });

  it('validates the NESTFUL data array from standard input; exit 0 when all valid', () => {
    const gold = JSON.stringify([
      {
        input: 'x',
        output: [{ name: 'SkyScrapperSearchAirport', arguments: { query: 'Rome' }, label: 'var1' }],
      },
    ]);
    const r = refract(['validate', '--catalog', CATALOG, '--format', 'json'], gold);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: '0', valid: true, determination: true, issues: [] });
  });

  it('the same repair whichever solver (highs, lp-solver, portfolio)', () => {
    const costs = ['highs', 'lp-solver', 'portfolio'].map((solver) => {
      const r = refract([
        'fix',
        '--catalog',
        CATALOG,
        '--solver',
        solver,
        '--format',
        'json',
        'samples/made-up-parameter.txt',
      ]);
      const json = JSON.parse(r.stdout);
      return [json.cost, JSON.stringify(json.sequence)];
    });
    expect(costs[1]).toEqual(costs[0]);
    expect(costs[2]).toEqual(costs[0]);
  });

  it('bad input exits 2 with one line naming the field', () => {
    const badWeight = refract([
      'fix',
      '--catalog',
      CATALOG,
      '--weight',
      'slotFill=-1',
      'samples/made-up-parameter.txt',
    ]);
    expect(badWeight.code).toBe(2);
    expect(badWeight.stderr.trim()).toMatch(/^refract: weight\.slotFill: /);
    const badSolver = refract([
      'fix',
      '--catalog',
      CATALOG,
      '--solver',
      'cplex',
      'samples/made-up-parameter.txt',
    ]);
    expect(badSolver.code).toBe(2);
    expect(badSolver.stderr).toMatch(/--solver: expected one of highs, lp-solver, portfolio/);
    const badJson = refract(
      ['fix', '--catalog', CATALOG],
      '[{"name": "SkyScrapperSearchAirport", "arguments": {"query": ]',
    );
    expect(badJson.code).toBe(2);
    expect(badJson.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const noCatalog = refract(['fix', 'samples/made-up-parameter.txt']);
    expect(noCatalog.code).toBe(2);
    expect(noCatalog.stderr).toMatch(/--catalog: required/);
  });

  it('a malformed record becomes an error line and the others go on (exit 2)', () => {
    const input = [
      '{"id": "a", "sequence": "var1 = SkyScrapperSearchAirport(query=\\"Rome\\")"}',
      '{"id": "b", "sequence": 42}',
      '{"id": "c", "sequence": []}',
    ].join('\n');
    const r = refract(['fix', '--catalog', CATALOG, '--format', 'json'], input);
    expect(r.code).toBe(2);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.status])).toEqual([
      ['a', 'valid'],
      ['b', 'error'],
      ['c', 'valid'],
    ]);
    expect(lines[1].reason).toMatch(/sequence/);
  });
});
