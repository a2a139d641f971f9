/**
 * A batch run never writes over what it reads or what an earlier run wrote: `--out` and the `--summary`
 * files are checked against the input and the --catalog, --memory, --mappings and --cost-model files (by
 * path, symbolic link or hard link) before any work, a non-empty `--out` is kept unless `--resume` or
 * `--overwrite` is given, and an empty input is an error that writes nothing. Every refusal is one line
 * naming the flag, with exit code 2.
 */
import { copyFileSync, existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRefusal, runRealCli } from './cli-run.ts';
import { CATALOG, readLines, tempDir, writeDataset } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

const batch = (...args: string[]) => runRealCli(['batch', '--workers', '1', '-q', ...args]);

/** A copy of a file in the temporary folder, with its bytes (to check it is left as it was). */
function copy(from: string, name: string): { path: string; bytes: Buffer } {
  const path = tmp.file(name);
  copyFileSync(from, path);
  return { path, bytes: readFileSync(path) };
}

function dataset(name: string, count = 3): { path: string; bytes: Buffer } {
  const path = tmp.file(name);
  writeDataset(path, count);
  return { path, bytes: readFileSync(path) };
}

describe('batch --summary', () => {
  it('refuses a summary that would replace the input, before any work', async () => {
    const input = dataset('data.json');
    const out = tmp.file('summary-input-out.jsonl');
    const r = await batch('--catalog', CATALOG, input.path, '--out', out, '--summary', tmp.file('data'));
    expectRefusal(r, /^refract: --summary: .*data\.json is the input file/);
    expect(readFileSync(input.path)).toEqual(input.bytes);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a summary that would replace the results (--out res.json --summary res.json)', async () => {
    const input = dataset('res-in.jsonl');
    const out = tmp.file('res.json');
    const r = await batch('--catalog', CATALOG, input.path, '--out', out, '--summary', out);
    expectRefusal(r, /^refract: --summary: .*res\.json is the --out file/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a summary onto the --catalog file, through a symbolic link', async () => {
    const catalog = copy(CATALOG, 'summary-catalog.json');
    const link = tmp.file('summary-link.json');
    symlinkSync(catalog.path, link);
    const input = dataset('summary-cat-in.jsonl');
    const r = await batch('--catalog', catalog.path, input.path, '--summary', link);
    expectRefusal(r, /^refract: --summary: .*summary-link\.json is the --catalog file/);
    expect(readFileSync(catalog.path)).toEqual(catalog.bytes);
  });

  it('creates a missing summary folder up front, and refuses one it cannot create before the run', async () => {
    const input = dataset('folder-in.jsonl');
    const made = join(tmp.dir, 'new', 'summaries', 'run');
    const ok = await batch(
      '--catalog',
      CATALOG,
      input.path,
      '--out',
      tmp.file('folder-out.jsonl'),
      '--summary',
      made,
    );
    expect(ok).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(readFileSync(`${made}.json`, 'utf8'))).toMatchObject({ records: 3 });

    const blocker = tmp.file('a-file');
    writeFileSync(blocker, 'x');
    const out = tmp.file('blocked-out.jsonl');
    const r = await batch(
      '--catalog',
      CATALOG,
      input.path,
      '--out',
      out,
      '--summary',
      join(blocker, 'sub', 's'),
    );
    expectRefusal(r, /^refract: --summary: cannot use .*a-file\/sub\/s\.json \(ENOTDIR\)/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('batch --out never replaces a file the run reads', () => {
  const input = dataset('reads-in.jsonl');
  const cases: [string, string, (path: string) => string[]][] = [
    ['--catalog', CATALOG, (path) => ['--catalog', path]],
    ['--memory', '', (path) => ['--catalog', CATALOG, '--memory', path]],
    ['--mappings', 'samples/airport-mappings.json', (path) => ['--catalog', CATALOG, '--mappings', path]],
    ['--cost-model', 'models/default.json', (path) => ['--catalog', CATALOG, '--cost-model', path]],
  ];
  for (const [flag, source, flags] of cases) {
    it(`refuses --out equal to the ${flag} file, by name, hard link and symbolic link`, async () => {
      const name = flag.slice(2);
      const file = source
        ? copy(source, `${name}.json`)
        : { path: tmp.file(`${name}.json`), bytes: Buffer.from('{}') };
      if (!source) writeFileSync(file.path, file.bytes);
      const hard = tmp.file(`${name}-hard.json`);
      linkSync(file.path, hard);
      const soft = tmp.file(`${name}-soft.json`);
      symlinkSync(file.path, soft);
      for (const out of [file.path, hard, soft]) {
        const r = await batch(...flags(file.path), '--out', out, input.path);
        expectRefusal(r, new RegExp(`^refract: --out: .* is the ${flag} file$`, 'm'));
        expect(readFileSync(file.path)).toEqual(file.bytes);
      }
    });
  }
});

describe('batch --out keeps earlier results', () => {
  it('refuses a non-empty --out without --resume or --overwrite, and replaces it with --overwrite', async () => {
    const input = dataset('again-in.jsonl', 4);
    const out = tmp.file('again-out.jsonl');
    expect((await batch('--catalog', CATALOG, '--out', out, input.path)).code).toBe(0);
    const first = readFileSync(out);
    const again = await batch('--catalog', CATALOG, '--out', out, input.path);
    expectRefusal(
      again,
      /^refract: --out: .*again-out\.jsonl already holds \d+ bytes: add --resume .* or --overwrite/,
    );
    expect(readFileSync(out)).toEqual(first);

    const both = await batch('--catalog', CATALOG, '--resume', '--overwrite', '--out', out, input.path);
    expectRefusal(both, /^refract: --overwrite: give either --resume or --overwrite/);

    writeFileSync(out, '{"id":"stale","status":"valid"}\n');
    const replaced = await batch('--catalog', CATALOG, '--overwrite', '--out', out, input.path);
    expect(replaced).toMatchObject({ code: 0, err: '' });
    expect(readLines(out).map((line) => line.id)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('writes into an empty --out without a flag', async () => {
    const input = dataset('empty-out-in.jsonl', 2);
    const out = tmp.file('empty-out.jsonl');
    writeFileSync(out, '');
    expect(await batch('--catalog', CATALOG, '--out', out, input.path)).toMatchObject({ code: 0, err: '' });
    expect(readLines(out)).toHaveLength(2);
  });

  it('resumes an output holding a partial result, and lists every result status when refusing a line', async () => {
    const input = tmp.file('partial-in.jsonl');
    writeFileSync(input, readFileSync('samples/broken-nestful.jsonl', 'utf8'));
    const ids = readLines(input).map((line) => line.id);
    const out = tmp.file('partial-out.jsonl');
    writeFileSync(out, `${JSON.stringify({ id: ids[0], status: 'partial' })}\n`);
    const resumed = await batch('--catalog', CATALOG, '--resume', '--out', out, input);
    expect(resumed.err).toBe('');
    expect(readLines(out).map((line) => line.id)).toEqual(ids);

    writeFileSync(out, `${JSON.stringify({ id: ids[0], status: 'fine' })}\n`);
    const bad = await batch('--catalog', CATALOG, '--resume', '--out', out, input);
    expectRefusal(bad, /\(valid, repaired, partial, exhausted, timeout, error\)/);
  });
});

describe('batch on an empty input', () => {
  for (const [name, text] of [
    ['an empty file', ''],
    ['blank lines', '\n  \n'],
    ['an empty array', '[]\n'],
    ['an empty array over lines', '[\n]\n'],
  ]) {
    it(`refuses ${name} with one line and exit 2, writing nothing`, async () => {
      const input = tmp.file(`empty-${name.replace(/ /g, '-')}.json`);
      writeFileSync(input, text);
      const out = tmp.file(`empty-${name.replace(/ /g, '-')}.jsonl`);
      const r = await batch('--catalog', CATALOG, '--out', out, '--summary', `${out}-summary`, input);
      expectRefusal(r, /^refract: input: empty input/);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}-summary.json`)).toBe(false);
    });
  }
});
