/**
 * The published package as a user gets it: `npm pack`, the tarball installed into a fresh project, then the
 * library imported from plain Node (ESM, no TypeScript loader), a consumer type-checked with
 * `--module nodenext`, the `refract` bin run from the project, and the tarball's file list checked. Before
 * the build, `npx refract` is run in the repository (its link to `dist/bin/refract.js` is made then); after
 * it, the same link must still run: a rebuild leaves the command executable.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const CATALOG = join(ROOT, 'data/nestful/executable-spec.json');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
const { name, version } = manifest;

const dir = mkdtempSync(join(tmpdir(), 'refract-package-'));
const project = join(dir, 'project');
let files: string[] = [];
/** `npx refract --version` in the repository before and after the build, with an npm cache of its own. */
const npx: { before?: SpawnSyncReturns<string>; after?: SpawnSyncReturns<string> } = {};

function run(command: string, args: readonly string[], cwd = project): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
}

function ok(result: SpawnSyncReturns<string>): string {
  if (result.status !== 0) throw new Error(`exit ${result.status}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

function npxVersion(cache: string): SpawnSyncReturns<string> {
  // No scripts: npx would otherwise run the package's prepare (a second build) when it first links it.
  return spawnSync('npx', ['--offline', '--ignore-scripts', 'refract', '--version'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', npm_config_cache: cache },
  });
}

beforeAll(() => {
  const cache = join(dir, 'npm-cache');
  if (!existsSync(join(ROOT, 'dist/bin/refract.js'))) ok(run('npm', ['run', 'build', '--silent'], ROOT));
  npx.before = npxVersion(cache);
  // `npm pack` would run the build too, but its output would mix with the JSON: build first, quietly.
  ok(run('npm', ['run', 'build', '--silent'], ROOT));
  npx.after = npxVersion(cache);
  const [packed] = JSON.parse(
    ok(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT)),
  ) as { filename: string; files: { path: string }[] }[];
  files = packed.files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // Dependencies come from npm's cache when it has them (CI has just run `npm ci`); the optional peers are
  // installed to load the agent adapters.
  const peers = ['ai', '@langchain/core'].map((peer) => `${peer}@${manifest.devDependencies[peer]}`);
  ok(
    run('npm', [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      join(dir, packed.filename),
      ...peers,
    ]),
  );
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`the ${name} package`, () => {
  it('keeps `npx refract` runnable through a rebuild (the build leaves dist/bin/refract.js executable)', () => {
    expect(ok(npx.before!).trim()).toBe(version);
    expect(ok(npx.after!).trim()).toBe(version);
  });

  it('holds the build (the bundled command line too), the presets and mappings, README, the docs and LICENSE; no sources, tests or benchmarks', () => {
    expect(files.length).toBeGreaterThan(100);
    const allowed =
      /^(dist\/src\/.+\.(js|d\.ts|js\.map)|dist\/cli\/.+\.js(\.map)?|dist\/research\/(cli|tuning|bench)\/[\w-]+\.js(\.map)?|dist\/bin\/refract\.js(\.map)?|models\/.+\.json|docs\/[\w-]+\.md|package\.json|README\.md|LICENSE)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)(test|tests|benchmarks|data|scripts)\/|\.test\./.test(f))).toEqual([]);
    // The research commands on labelled records ship (sweep, fit, coverage, calibrate); `bench`'s runners,
    // which read the repository's data sets, do not.
    const research = files.filter((f) => f.startsWith('dist/research/') && f.endsWith('.js'));
    expect(research).toContain('dist/research/cli/calibrate.js');
    expect(research).toContain('dist/research/tuning/fit.js');
    expect(research.filter((f) => f.startsWith('dist/research/bench/')).sort()).toEqual(
      ['context', 'data', 'evaluate', 'markdown', 'stats'].map((m) => `dist/research/bench/${m}.js`),
    );
    expect(research).not.toContain('dist/research/cli/bench.js');
    for (const f of [
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/bin/refract.js',
      'dist/cli/main.js',
      'models/default.json',
      // The README's links into docs/ hold in the installed package too.
      'docs/formats.md',
    ])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('models/mappings/'))).toBe(true);
    // Every module is built from a source that exists: no output left over from a removed file.
    const orphans = files
      .filter((f) => f.startsWith('dist/src/') && f.endsWith('.js'))
      .filter((f) => !existsSync(f.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
    expect(orphans).toEqual([]);
    expect(files.some((f) => f.startsWith('dist/src/batch/worker'))).toBe(true);
  });

  it('imports from plain Node ESM (every entry point) and repairs a sequence', () => {
    writeFileSync(
      join(project, 'consumer.mjs'),
      `import { loadCatalog, parseSequenceText, repair } from '${name}';
import { buildServer } from '${name}/server';
import { serveStdio } from '${name}/mcp';
import { createRepairToolCall } from '${name}/ai-sdk';
import { repairToolCallsRunnable } from '${name}/langchain';
import pkg from '${name}/package.json' with { type: 'json' };
const broken = 'var1 = SkyScrapperSearchAirport(query="London")\\nvar2 = SkyScrapperSearchAirpot(query="Paris")';
const result = await repair(parseSequenceText(broken), loadCatalog(process.argv[2]));
console.log(JSON.stringify({
  status: result.status,
  edits: result.edits.map((e) => e.kind),
  entries: [buildServer, serveStdio, createRepairToolCall, repairToolCallsRunnable].map((f) => typeof f),
  version: pkg.version,
}));
`,
    );
    const out = JSON.parse(ok(run('node', ['consumer.mjs', CATALOG]))) as Record<string, unknown>;
    expect(out).toEqual({
      status: 'repaired',
      edits: ['renameApi'],
      entries: ['function', 'function', 'function', 'function'],
      version,
    });
  });

  it('type-checks a consumer with tsc --module nodenext, and its types are real', () => {
    const consumer = (
      body: string,
    ) => `import { loadCatalog, parseSequenceText, repair, type RepairResult } from '${name}';
import { buildServer, type ServerOptions } from '${name}/server';
import { serveStdio } from '${name}/mcp';
const result: RepairResult = await repair(parseSequenceText('f()'), loadCatalog('spec.json'));
const options: ServerOptions = { workers: 1 };
${body}
console.log(typeof buildServer, typeof serveStdio, options);
`;
    writeFileSync(
      join(project, 'good.ts'),
      consumer(
        `const status: 'valid' | 'repaired' | 'partial' | 'uncertain' | 'exhausted' | 'timeout' | 'error' = result.status;\nconsole.log(status);`,
      ),
    );
    writeFileSync(
      join(project, 'bad.ts'),
      consumer(`const status: number = result.status;\nconsole.log(status);`),
    );
    const config = (file: string) => {
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules/@types')],
          },
          files: [file],
        }),
      );
      return run('node', [TSC, '-p', 'tsconfig.json']);
    };
    expect(ok(config('good.ts'))).toBe('');
    // Were the package's types missing or `any`, this would pass too (and with `string`, good.ts would fail).
    const bad = config('bad.ts');
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/^bad\.ts\(6,\d+\): error TS2322: /);
  });

  it('runs the refract bin from the project: version, fix, batch in worker threads; bench, the repository’s, absent', () => {
    const bin = join(project, 'node_modules/.bin/refract');
    expect(ok(run(bin, ['--version'])).trim()).toBe(version);
    const fix = run(bin, ['fix', '--catalog', CATALOG, join(ROOT, 'samples/broken-flight.txt')]);
    expect(fix.status).toBe(1);
    expect(fix.stdout).toMatch(/^repaired, determination false/);
    const batch = run(bin, [
      'batch',
      '--catalog',
      CATALOG,
      '--workers',
      '1',
      '--quiet',
      join(ROOT, 'samples/broken-nestful.jsonl'),
    ]);
    expect(batch.stderr).toBe('');
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.length).toBeGreaterThan(5);
    expect(new Set(lines.map((l) => l.status))).toEqual(new Set(['valid', 'repaired']));
    const bench = run(bin, ['bench']);
    expect(bench.status).toBe(2);
    expect(bench.stderr).toMatch(
      /^refract: bench is a research command: it runs from a clone of the repository/,
    );
  });

  it('calibrates on labelled records of one’s own from the package (no clone), and says --data is needed without them', () => {
    const bin = join(project, 'node_modules/.bin/refract');
    const out = join(dir, 'calib.json');
    const calibrate = run(bin, [
      'calibrate',
      '--data',
      join(ROOT, 'samples/labelled-plans.jsonl'),
      '--catalog',
      CATALOG,
      '--alternatives',
      '0',
      '--refits',
      '0',
      '--quiet',
      '--out',
      out,
    ]);
    expect(calibrate.stderr).toBe('');
    expect(calibrate.status).toBe(0);
    const calibration = JSON.parse(readFileSync(out, 'utf8')) as { evidence: string[]; samples: number };
    expect(calibration.evidence.length).toBeGreaterThan(0);
    expect(ok(run(bin, ['--help']))).toMatch(/\n {2}calibrate \[options\]/);
    const noData = run(bin, ['fit', '--out', join(dir, 'fitted.json')]);
    expect(noData.status).toBe(2);
    expect(noData.stderr).toMatch(/^refract: --data: required: the labelled records to work on/);
  });
});
