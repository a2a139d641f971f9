/**
 * Bad input on the command line is one line naming the flag, exit code 2, never an internal error with a
 * stack trace: a port in use or a host that is not this machine's, an `--out` folder that is a file, JSON
 * whose syntax error quotes lines of the input, unreadable files of --catalog/--memory/--mappings/--gold,
 * research outputs that cannot be written (found before the work), a bad --seed and a --result-name that
 * is not a label.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { registerFit, registerSweep } from '../research/cli/research.ts';
import { requestSettings } from '../src/api/call.ts';
import { InputError } from '../src/model/errors.ts';
import { expectRefusal, runRealCli } from './cli-run.ts';
import { CATALOG, tempDir } from './fixtures/batch/records.ts';
import { writeLabelled } from './labelled.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

const FLIGHT = 'samples/broken-flight.txt';

/** A file whose JSON syntax error quotes an excerpt spanning lines. */
function brokenJson(name: string): string {
  const path = tmp.file(name);
  writeFileSync(path, '{"a":\n\n x1234\n\n}\n');
  return path;
}

describe('operating-system errors from the user input', () => {
  it('serve: a port in use names --port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runRealCli(['serve', '--port', String(port), '--log-level', 'silent']);
      expectRefusal(r, new RegExp(`^refract: --port: 127\\.0\\.0\\.1:${port} is in use$`, 'm'));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('serve: a host that is no address of this machine names --host', async () => {
    const r = await runRealCli(['serve', '--host', '999.1.1.1', '--port', '0', '--log-level', 'silent']);
    expectRefusal(r, /^refract: --host: cannot listen on 999\.1\.1\.1 \(E[A-Z_]+\)/);
  });

  it('export: an --out that is a file names --out', async () => {
    const file = tmp.file('models-file');
    writeFileSync(file, 'x');
    const r = await runRealCli(['export', '--format', 'lp', '--out', file, '--catalog', CATALOG, FLIGHT]);
    expectRefusal(r, /^refract: --out: .*models-file exists and is not a folder/);
  });
});

describe('JSON syntax errors stay on one line', () => {
  it('in a --catalog file', async () => {
    const r = await runRealCli(['fix', '--catalog', brokenJson('catalog.json'), FLIGHT]);
    expectRefusal(r, /catalog\.json: invalid JSON/);
  });

  it('in a cost-model file', async () => {
    const r = await runRealCli([
      'fix',
      '--catalog',
      CATALOG,
      '--cost-model',
      brokenJson('cost.json'),
      FLIGHT,
    ]);
    expectRefusal(r, /cost\.json: cost-model: invalid JSON/);
  });

  it('in a cost model: the request names costModel, the command line cost-model', async () => {
    const weights = tmp.file('weights.json');
    writeFileSync(weights, JSON.stringify({ weights: { nope: 1 } }));
    for (const [given, field] of [
      ['/nonexistent', 'costModel'],
      [weights, 'costModel.weights'],
    ] as const) {
      let error: unknown;
      try {
        requestSettings('fix', { costModel: given }, { files: true });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field.startsWith(field)).toBe(true);
    }
    const missing = await runRealCli(['fix', '--catalog', CATALOG, '--cost-model', '/nonexistent', FLIGHT]);
    expectRefusal(missing, /^refract: cost-model: no preset or file named "\/nonexistent"/);
    const bad = await runRealCli(['fix', '--catalog', CATALOG, '--cost-model', weights, FLIGHT]);
    expectRefusal(bad, /weights\.json: cost-model\.weights: Unrecognized key: "nope"/);
  });

  it('in a catalog of serve --catalog-dir', async () => {
    const dir = tmp.file('catalog-dir');
    mkdirSync(dir);
    writeFileSync(`${dir}/flights.json`, '{"a":\n\n x1234\n\n}\n');
    const r = await runRealCli(['serve', '--catalog-dir', dir, '--port', '0', '--log-level', 'silent']);
    expectRefusal(r, /^refract: catalog-dir: .*flights\.json: /);
  });

  it('in a catalog of serve --catalog name=file', async () => {
    const r = await runRealCli(['serve', '--catalog', `f=${brokenJson('named.json')}`, '--port', '0']);
    expectRefusal(r, /^refract: --catalog: .*named\.json is not valid JSON/);
  });
});

describe('unreadable files name their flag', () => {
  const missing = tmp.file('missing.json');
  for (const [flag, args] of [
    ['--catalog', ['fix', '--catalog', missing, FLIGHT]],
    ['--memory', ['fix', '--catalog', CATALOG, '--memory', missing, FLIGHT]],
    ['--mappings', ['fix', '--catalog', CATALOG, '--mappings', missing, FLIGHT]],
    ['--catalog', ['batch', '--catalog', missing, 'samples/broken-nestful.jsonl']],
    ['--catalog', ['maps', '--catalog', missing]],
  ] as const) {
    it(`${args[0]} ${flag}`, async () => {
      const r = await runRealCli(args);
      expectRefusal(r, new RegExp(`^refract: ${flag}: cannot read .*missing\\.json \\(ENOENT\\)$`, 'm'));
    });
  }

  it('tags --gold says the path once', async () => {
    const r = await runRealCli(['tags', '--catalog', CATALOG, '--gold', missing, FLIGHT]);
    expectRefusal(r, /^refract: --gold: cannot read \S*missing\.json \(ENOENT\)$/m);
    expect(r.err.split('missing.json')).toHaveLength(2);
  });
});

describe('research commands check their flags before the work', () => {
  const labelled = writeLabelled(tmp.dir);
  const research = (...args: string[]) => runRealCli([...args, '--quiet'], [registerSweep, registerFit]);
  const blocker = tmp.file('not-a-folder');
  writeFileSync(blocker, 'x');

  for (const command of ['sweep', 'fit'] as const) {
    it(`${command} --out in a folder that cannot exist names --out`, async () => {
      const grid = command === 'sweep' ? ['--grid', 'renameParam=1,2'] : ['--rounds', '0'];
      const r = await research(
        command,
        '--data',
        labelled,
        '--catalog',
        CATALOG,
        ...grid,
        '--out',
        `${blocker}/x.md`,
      );
      expectRefusal(r, /^refract: --out: cannot use .*not-a-folder\/x\.md \(ENOTDIR\)/);
    });
  }

  it('sweep --out onto its --data file is refused', async () => {
    const r = await research(
      'sweep',
      '--data',
      labelled,
      '--catalog',
      CATALOG,
      '--grid',
      'renameParam=1',
      '--out',
      labelled,
    );
    expectRefusal(r, /^refract: --out: .* is the --data file/);
  });

  it('sweep --seed must be a number with --grid too', async () => {
    const r = await research('sweep', '--data', labelled, '--grid', 'renameParam=1,2', '--seed', 'abc');
    expectRefusal(r, /^refract: --seed: expected an integer/);
  });
});

describe('--result-name is a label', () => {
  it('refuses a name a reference could not name (fix, maps)', async () => {
    const fix = await runRealCli(['fix', '--catalog', CATALOG, '--result-name', 'a b', FLIGHT]);
    expectRefusal(fix, /^refract: --result-name: expected a label/);
    const maps = await runRealCli(['maps', '--catalog', CATALOG, '--result-name', 'a.b']);
    expectRefusal(maps, /^refract: --result-name: expected a label/);
  });
});
