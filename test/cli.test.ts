/**
 * The CLI as a user runs it: exit codes, JSON lines in input order, messages naming the bad field. The
 * commands run in process (`runCli`, as the executable runs them); one test spawns the executable itself,
 * for standard input and the exit status of a real process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli/main.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const dir = mkdtempSync(join(tmpdir(), 'refract-cli-'));
let files = 0;

afterEach(() => vi.restoreAllMocks());

/** Runs `refract args` in process; `input` is written to a file given as the last argument. */
async function refract(args: string[], input?: string) {
  const path = input === undefined ? [] : [join(dir, `input-${files++}`)];
  if (input !== undefined) writeFileSync(path[0], input);
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((stdout += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((stderr += String(c)), true));
  process.exitCode = 0;
  try {
    await runCli(['node', 'refract', ...args, ...path]);
  } finally {
    vi.restoreAllMocks();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}

describe('refract fix / validate', () => {
  it('repairs a file of records: one JSON line per record, in input order, with ids; exit 1', async () => {
    const r = await refract([
      'fix',
      '--catalog',
      CATALOG,
      '--format',
      'json',
      'samples/broken-nestful.jsonl',
    ]);
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

  it('the executable validates the NESTFUL data array from standard input; exit 0', () => {
    const gold = JSON.stringify([
      {
        input: 'x',
        output: [{ name: 'SkyScrapperSearchAirport', arguments: { query: 'Rome' }, label: 'var1' }],
      },
    ]);
    const args = ['--import', 'tsx', 'bin/refract.ts', 'validate', '-c', CATALOG, '--format', 'json'];
    const r = spawnSync('node', args, { encoding: 'utf8', input: gold, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: '0', valid: true, determination: true, issues: [] });
  });

  it('the executable refuses a batch whose --out holds results with one line and exit 2, its progress line stopped', () => {
    const out = join(dir, 'held.jsonl');
    writeFileSync(out, '{"id":"r0","status":"valid"}\n');
    const input = join(dir, 'held-input.jsonl');
    writeFileSync(input, '{"id":"r0","sequence":"var1 = SkyScrapperSearchAirport(query=\\"Rome\\")"}\n');
    const args = ['--import', 'tsx', 'bin/refract.ts', 'batch', '-c', CATALOG, '--out', out, input];
    const r = spawnSync('node', args, { encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^refract: --out: .*held\.jsonl already holds \d+ bytes: add --resume/m);
  });

  it('the executable says in one line when --out cannot take more (a file-size limit), keeping what it wrote', () => {
    const out = join(dir, 'limited.jsonl');
    const batch = `node --import tsx bin/refract.ts batch -c ${CATALOG} -q --out ${out} samples/labelled-plans.jsonl`;
    // 20 blocks of 1 KiB: the 60 results need more.
    const r = spawnSync('bash', ['-c', `ulimit -f 20; ${batch}`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^refract: --out: cannot write .*limited\.jsonl \(EFBIG\): the results written so far are kept; --resume finishes the run once there is room\n$/,
    );
    const kept = readFileSync(out, 'utf8');
    expect(kept.length).toBe(20 * 1024);
    const resumed = spawnSync('bash', ['-c', `${batch} --resume`], { encoding: 'utf8', timeout: 60_000 });
    expect(resumed.status).toBe(1);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(60);
  });

  it('the same repair whichever solver (highs, lp-solver, portfolio)', async () => {
    const costs: unknown[][] = [];
    for (const solver of ['highs', 'lp-solver', 'portfolio']) {
      const r = await refract([
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
      costs.push([json.cost, JSON.stringify(json.sequence)]);
    }
    expect(costs[1]).toEqual(costs[0]);
    expect(costs[2]).toEqual(costs[0]);
  });

  it('bad input exits 2 with one line naming the field', async () => {
    const badWeight = await refract([
      'fix',
      '--catalog',
      CATALOG,
      '--weight',
      'slotFill=-1',
      'samples/made-up-parameter.txt',
    ]);
    expect(badWeight.code).toBe(2);
    expect(badWeight.stderr.trim()).toMatch(/^refract: --weight slotFill: /);
    const badSolver = await refract([
      'fix',
      '--catalog',
      CATALOG,
      '--solver',
      'cplex',
      'samples/made-up-parameter.txt',
    ]);
    expect(badSolver.code).toBe(2);
    expect(badSolver.stderr).toMatch(/--solver: expected one of highs, lp-solver, portfolio/);
    const badJson = await refract(
      ['fix', '--catalog', CATALOG],
      '[{"name": "SkyScrapperSearchAirport", "arguments": {"query": ]',
    );
    expect(badJson.code).toBe(2);
    expect(badJson.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const noCatalog = await refract(['fix', 'samples/made-up-parameter.txt']);
    expect(noCatalog.code).toBe(2);
    expect(noCatalog.stderr).toMatch(/--catalog: required/);
  });

  it('a malformed record becomes an error line and the others go on (exit 2)', async () => {
    const input = [
      '{"id": "a", "sequence": "var1 = SkyScrapperSearchAirport(query=\\"Rome\\")"}',
      '{"id": "b", "sequence": 42}',
      '{"id": "c", "sequence": []}',
    ].join('\n');
    const r = await refract(['fix', '--catalog', CATALOG, '--format', 'json'], input);
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
