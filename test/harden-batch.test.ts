/**
 * A batch run never destroys its input: `--out` naming the input file (same inode, hard links and
 * `--resume` included) or a directory is refused with one line and exit 2, a missing folder is created,
 * and `--resume` keeps only lines that are results of the matching input records.
 */
import { copyFileSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRealCli } from './cli-run.ts';
import { CATALOG, readLines, tempDir, writeDataset } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

/** The real command line in-process: exit code and standard error as a user sees them. */
const cli = (...args: string[]) =>
  runRealCli(['batch', '--catalog', CATALOG, '--workers', '1', '-q', ...args]);

function dataset(name: string, count = 3): { path: string; bytes: Buffer } {
  const path = tmp.file(name);
  writeDataset(path, count);
  return { path, bytes: readFileSync(path) };
}

describe('batch --out protects the input', () => {
  it('refuses --out equal to the input and leaves the input untouched', async () => {
    const input = dataset('same.jsonl');
    const r = await cli('--out', input.path, input.path);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--out: .*same\.jsonl is the input file/);
    expect(readFileSync(input.path)).toEqual(input.bytes);
  });

  it('refuses --out equal to the input with --resume, and a hard link to the input', async () => {
    const input = dataset('resume-same.jsonl');
    const resumed = await cli('--resume', '--out', input.path, input.path);
    expect(resumed.code).toBe(2);
    expect(resumed.err).toMatch(/is the input file/);
    const link = tmp.file('link.jsonl');
    linkSync(input.path, link);
    const linked = await cli('--out', link, input.path);
    expect(linked.code).toBe(2);
    expect(linked.err).toMatch(/is the input file/);
    expect(readFileSync(input.path)).toEqual(input.bytes);
  });

  it('refuses a directory with one line, no stack trace', async () => {
    const input = dataset('dir-in.jsonl');
    const dir = tmp.file('a-directory');
    mkdirSync(dir);
    const r = await cli('--out', dir, input.path);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--out: .*a-directory is a directory/);
  });

  it('creates the missing folders of --out', async () => {
    const input = dataset('nested-in.jsonl', 4);
    const out = join(tmp.dir, 'new', 'deeper', 'out.jsonl');
    const r = await cli('--out', out, input.path);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readLines(out).map((line) => line.id)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });
});

describe('batch --resume keeps only results', () => {
  it('refuses an output whose lines are input records (a copy of the input), leaving it as it was', async () => {
    const input = dataset('copy-in.jsonl');
    const copy = tmp.file('copy-out.jsonl');
    copyFileSync(input.path, copy);
    const r = await cli('--resume', '--out', copy, input.path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--resume: .*copy-out\.jsonl line 1 is not a result line/);
    expect(readFileSync(copy)).toEqual(input.bytes);
  });

  it('still resumes an output of real results', async () => {
    const input = dataset('real-in.jsonl', 4);
    const out = tmp.file('real-out.jsonl');
    expect((await cli('--out', out, input.path)).code).toBe(0);
    const first = readFileSync(out, 'utf8').split('\n').slice(0, 2).join('\n') + '\n';
    // The first two results only, as an interrupted run leaves them.
    const partial = tmp.file('partial.jsonl');
    writeFileSync(partial, first);
    const r = await cli('--resume', '--out', partial, input.path);
    expect(r.code).toBe(0);
    expect(readFileSync(partial, 'utf8').startsWith(first)).toBe(true);
    expect(readLines(partial).map((line) => [line.id, line.status])).toEqual(
      readLines(out).map((line) => [line.id, line.status]),
    );
  });
});
