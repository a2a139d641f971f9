/**
 * Bad input found by trying the command line as a new user would: each gets one line naming the field and
 * exit 2, before anything is drawn or written; what is well formed keeps working. Real solver and files.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { scanChunks } from '../src/cluster/chunks.ts';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecords } from '../src/read/records.ts';
import { parseInput } from '../src/cli/input.ts';
import { loadMappings, parseMappings } from '../src/read/mappings.ts';
import { parseMemory } from '../src/read/memory.ts';
import { loadCatalog, parseCatalog } from '../src/read/catalog.ts';
import { loadSequence, parseSequence } from '../src/read/sequence.ts';
import {
  checkToolCalls,
  loopToolCalls,
  repair,
  runLoop,
  scriptedFixer,
  validate,
  withWeights,
} from '../src/index.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import { loadLabelled, parseLabelled } from '../research/tuning/dataset.ts';
import { verdicts } from '../research/tuning/fit-report.ts';
import { invalidGolds } from '../research/cli/data-flags.ts';
import { runRealCli, expectRefusal } from './cli-run.ts';
import { registerCalibrate, registerFit, registerSweep } from '../research/cli/research.ts';
import { tempDir } from './fixtures/batch/records.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const tmp = tempDir();
afterAll(() => tmp.remove());

describe('records', () => {
  it('a file of one record keeps its id and memory: it is a record, not a bare sequence', async () => {
    const line = readFileSync('samples/labelled-plans.jsonl', 'utf8').split('\n')[0];
    const one = parseInput(line);
    expect(one.single).toBe(false);
    expect(one.records.map((r) => r.id)).toEqual([JSON.parse(line).id]);
    const memory = { m1: { skyId: 'NYCA' } };
    const bare = parseInput(JSON.stringify({ sequence: 'var1 = f()', memory }));
    expect(bare.single).toBe(true);
    expect(bare.records[0].memory).toEqual(memory);
    const file = tmp.file('one.jsonl');
    writeFileSync(file, `${line}\n`);
    const fixed = await runRealCli(['fix', '-c', CATALOG, '--format', 'json', file]);
    expect(JSON.parse(fixed.out).id).toBe(JSON.parse(line).id);
    const exported = await runRealCli([
      'export',
      '-c',
      CATALOG,
      '--format',
      'lp',
      '--id',
      JSON.parse(line).id,
      file,
    ]);
    expect(exported.code).toBe(0);
  });

  it('an id that is neither a string nor a number makes its record an error, not one renamed by its index', () => {
    const items = parseRecords(
      ['{"id": {"n": 1}, "sequence": "f()"}', '{"id": "b", "sequence": "f()"}'].join('\n'),
    );
    expect(items.map((r) => [r.id, r.error])).toEqual([
      ['0', 'line 1: id: expected a string or a number, received object'],
      ['b', undefined],
    ]);
  });

  it('a JSONL line holding an array with no record is one malformed record: the ids after it keep their lines', () => {
    const text = ['{"sequence": "f()"}', '[1, 2]', '"var1 = f("', '{"sequence": "g()"}'].join('\n');
    const items = parseRecords(text);
    expect(items.map((i) => i.id)).toEqual(['0', '1', '2', '3']);
    expect(items[1].error).toBe('line 2: sequence[0]: expected object, received number');
    // A string-form error names the value it is in, after the line of the file.
    expect(items[2].error).toMatch(/^line 3: sequence: line 1, column \d+: /);
    expect(items[3].sequence?.[0].name).toBe('g');
    // A line listing records still splits, a malformed one among them an error item of its own.
    const listed = parseRecords('[{"sequence": "f()"}, 5]\n{"sequence": "g()"}');
    expect(listed.map((i) => i.id)).toEqual(['0', '1', '2']);
    expect(listed[1].error).toBe('line 1: expected a record object, received number');
  });

  it('a labelled file refuses an empty gold or input, names a missing catalog as resolved, and reads past a BOM', () => {
    const parse = (line: string) => () => parseLabelled(`${line}\n`, { source: join(tmp.dir, 'mine.jsonl') });
    expect(parse('{"id": "a", "sequence": "f()", "gold": "", "set": "executable"}')).toThrow(
      /mine\.jsonl: line 1: gold: empty/,
    );
    expect(parse('{"id": "a", "sequence": [], "gold": "f()", "set": "executable"}')).toThrow(
      /mine\.jsonl: line 1: sequence: empty/,
    );
    expect(parse('{"id": "a", "sequence": "f()", "gold": "f()", "catalog": "nope/cat.json"}')).toThrow(
      new RegExp(
        `line 1: catalog: no such file ${join(tmp.dir, 'nope', 'cat.json').replace(/[.\\/]/g, '\\$&')}`,
      ),
    );
    const record = '{"id": "a", "sequence": "f()", "gold": "f()", "set": "executable"}';
    expect(parseLabelled(`\ufeff${record}\n`, { source: 'bom.jsonl' })).toHaveLength(1);
  });

  it('a labelled record whose kind and kinds disagree is refused: the per-kind tables would guess', () => {
    const line = (extra: object) =>
      JSON.stringify({ id: 'a', sequence: 'x()', gold: 'x()', catalog: [{ name: 'x' }], ...extra });
    expect(() => parseLabelled(line({ kind: 'api_name', kinds: ['param_name'] }))).toThrow(
      /^data: line 1: kinds: says "param_name" where kind says "api_name": give one of them$/,
    );
    expect(parseLabelled(line({ kind: 'a+b', kinds: ['a', 'b'] }))[0].kind).toBe('a+b');
    // Either field takes either form, as a batch reads them.
    expect(parseLabelled(line({ kinds: 'a+b' }))[0].kind).toBe('a+b');
    expect(parseLabelled(line({ kind: ['a', 'b'] }))[0].kind).toBe('a+b');
  });

  it('a labelled file names the line, then the field in it', () => {
    const bad = (line: string) => () => parseLabelled(`${line}\n`, { source: 'mine.jsonl' });
    expect(bad('{"id": "a", "sequence": "f()"}')).toThrow(/^mine\.jsonl: line 1: gold: required/);
    expect(bad('{"id": "a", "sequence": "var1 = f(", "gold": "f()", "set": "executable"}')).toThrow(
      /^mine\.jsonl: line 1: sequence: line 1, column \d+: /,
    );
  });
});

describe('catalogs and mappings', () => {
  it('an empty catalog is refused: every call would be deleted', () => {
    expect(() => parseCatalog([])).toThrow(/^catalog: empty: expected at least one API$/);
    expect(() => parseCatalog({ tools: [] })).toThrow(/^catalog: empty/);
  });

  it('a JSON Schema required name with no property is refused, naming it: no call could give it', () => {
    const tool = (required: string[]) => ({
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required },
      },
    });
    expect(() => parseCatalog([tool(['city', 'qurey'])])).toThrow(
      /^catalog\[0\]\.function\.parameters\.required\[1\]: "qurey" is required but not among the properties$/,
    );
    expect(parseCatalog([tool(['city'])]).apis[0].params[0].required).toBe(true);
  });

  it('an OpenAI tool’s outputs are read beside function too; a key that reads like outputs is refused', () => {
    const fn = {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    };
    const outputs = { type: 'object', properties: { temperature: { type: 'number' } } };
    expect(parseCatalog([{ type: 'function', function: fn, 'x-outputs': outputs }]).apis[0].outputs).toEqual([
      { path: 'temperature', type: 'number' },
    ]);
    expect(() => parseCatalog([{ type: 'function', function: { ...fn, 'x-output': outputs } }])).toThrow(
      /^catalog\[0\]\.function\.x-output: unknown key: outputs go under output_parameters, x-outputs/,
    );
    expect(() => parseCatalog([{ type: 'function', function: fn, outputs }])).toThrow(
      /^catalog\[0\]\.outputs: unknown key/,
    );
    // A note under such a key is no schema: it is left alone.
    expect(parseCatalog([{ ...fn, output: 'the forecast' }]).apis[0].outputs).toBeNull();
  });

  it('a mapping table’s error names the entry at fault, in either form', () => {
    expect(() => parseMappings([{ from: 5 }])).toThrow(/^mappings\[0\]\.from: /);
    expect(() => parseMappings({ originSkyId: 5 })).toThrow(/^mappings\.originSkyId: expected an array/);
    expect(() => parseMappings({ originSkyId: [5] })).toThrow(/^mappings\.originSkyId\[0\]: /);
    expect(() => parseMappings({ originSkyId: { skyId: 2 } })).toThrow(
      /^mappings\.originSkyId\.skyId: expected a score in \(0, 1\]$/,
    );
    expect(() => parseMappings('x')).toThrow(/^mappings: expected an array of/);
    expect(parseMappings({ originSkyId: { skyId: 0.9 } })).toEqual([
      { from: 'skyId', to: 'originSkyId', score: 0.9 },
    ]);
  });
});

describe('library', () => {
  it('a file loader given anything but a path names it (a number would read a file descriptor)', () => {
    expect(() => loadCatalog(0 as unknown as string)).toThrow(
      /^path: expected a file path, received number$/,
    );
    expect(() => loadMappings({} as unknown as string)).toThrow(
      /^path: expected a file path, received object$/,
    );
    expect(() => loadSequence('')).toThrow(/^path: expected a file path, received an empty string$/);
  });
});

describe('hand-built sequences', () => {
  const catalog = loadCatalog(CATALOG);
  const step = (args: Record<string, unknown>, label?: string) =>
    [{ name: 'SkyScrapperSearchAirport', arguments: args, ...(label ? { label } : {}) }] as never;
  it('an argument that is no JSON value (undefined, NaN, a function) is refused, not read as given', async () => {
    const city: string | undefined = process.env.REFRACT_NO_SUCH_VARIABLE;
    expect(() => validate(step({ query: city }), catalog)).toThrow(
      /^sequence\[0\]\.arguments\.query: expected a JSON value, received undefined$/,
    );
    await expect(repair(step({ query: NaN }), catalog)).rejects.toThrow(
      /^sequence\[0\]\.arguments\.query: expected a finite number, received NaN$/,
    );
    expect(() => validate(step({ query: () => 'x' }), catalog)).toThrow(/received function$/);
  });

  it('a label no reference could name is refused as parseSequence refuses it', () => {
    expect(() => validate(step({ query: 'x' }, 'my label'), catalog)).toThrow(
      /^sequence\[0\]\.label: "my label" is not a label/,
    );
    expect(validate(step({ query: 'x' }, 'var1'), catalog).valid).toBe(true);
  });
});

describe('loop options', () => {
  const catalog = loadCatalog(CATALOG);
  const broken = parseSequence('var1 = SkyScrapperSearchAirport()');
  const good = parseSequence('var1 = SkyScrapperSearchAirport(query="Oslo")');
  it('checks may be a function, as the types and the docs say, in both loops', async () => {
    const tool = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: scriptedFixer([good]),
      checks: (s) => s.length === 1,
    });
    expect(tool.stop).toBe('solved');
    const counted = await runLoop<number, string>({
      initial: 2,
      issues: (n) => Array(n).fill('x'),
      fixer: { propose: async (n) => n - 1 },
      feedback: () => '',
      checks: (n) => n !== 1,
    });
    expect(counted.state).toBe(2);
    expect(counted.stop).toBe('stalled');
  });

  it('scripted candidates are checked when the fixer is made, naming the candidate', () => {
    expect(() => scriptedFixer(['var1 = f()'] as never)).toThrow(/^candidates\[0\]: expected a sequence/);
    expect(() => scriptedFixer([[{ name: 'x', arguments: [] }]] as never)).toThrow(
      /^candidates\[0\]\[0\]\.arguments: expected record, received array$/,
    );
  });

  it('rounds out of bounds, a slip in an option name or a feedback format is refused, naming it', async () => {
    const loop = (extra: object) =>
      loopToolCalls({ sequence: broken, catalog, fixer: scriptedFixer([good]), ...extra });
    for (const [extra, message] of [
      [{ maxRounds: Number.NaN }, 'options.maxRounds: expected an integer in [0, 50], received NaN'],
      [{ maxRounds: -1 }, 'options.maxRounds: expected an integer in [0, 50], received -1'],
      [{ stallLimit: 1e9 }, 'options.stallLimit: expected an integer in [0, 50], received 1000000000'],
      [{ maxRound: 3 }, 'options.maxRound: unknown option (did you mean maxRounds?)'],
      [
        { feedback: 'nope' },
        'options.feedback: expected one of "verdict", "issues", "suggestions", "explain", "trace", received "nope"',
      ],
      [{ checks: { comand: 'true' } }, 'options.checks.comand: unknown option (did you mean command?)'],
    ] as const)
      await expect(loop(extra), message).rejects.toThrow(message);
  });
});

describe('library options', () => {
  it('a key no entry point reads is refused, naming the one it may have meant', async () => {
    const catalog = loadCatalog(CATALOG);
    const sequence = parseSequence('var1 = SkyScrapperSearchAirport(qurey="New York")');
    await expect(repair(sequence, catalog, { minConfidance: 0.9 } as never)).rejects.toThrow(
      /^options\.minConfidance: unknown option \(did you mean minConfidence\?\)$/,
    );
    expect(() => validate(sequence, catalog, { foo: 1 } as never)).toThrow(
      /^options\.foo: unknown option \(known: cost, /,
    );
    // Every option of the repair, heal and hook options is known, wherever it is given.
    expect((await repair(sequence, catalog, { timeout: 5, memory: {}, coerce: true } as never)).status).toBe(
      'repaired',
    );
    const hook = await checkToolCalls([], { catalog, feedback: 'issues', repairJson: false });
    expect(hook.ok).toBe(true);
  });
});

describe('command line', () => {
  it('a cost-model file whose calibration was fitted for other weights is refused; calibrate refits it', async () => {
    const model = JSON.parse(readFileSync('models/default.json', 'utf8')) as {
      weights: Record<string, number>;
    };
    model.weights.slotFill += 1;
    const file = join(tmp.dir, 'edited.json');
    writeFileSync(file, JSON.stringify(model));
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '--cost-model', file, 'samples/wrong-label.txt']),
      /edited\.json: cost-model\.calibration\.weights: fitted for other weights than the file's .*refit it/,
    );
    // The commands that fit leave the stale calibration out.
    expect(loadCostModel(file, 'cost-model', 'drop').calibration).toBeUndefined();
    // A calibration alone (calibrate --out) is no cost model, and says what to write instead.
    const calibration = join(tmp.dir, 'calibration.json');
    writeFileSync(calibration, JSON.stringify(loadCostModel('default').calibration));
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '--cost-model', calibration, 'samples/wrong-label.txt']),
      /cost-model: a calibration, not a cost model: .*--model-out/,
    );
  });

  it('commander’s own errors are one line too, a suggestion included', async () => {
    expectRefusal(
      await runRealCli(['fit', '--kind', '1'], [registerFit]),
      /^refract: unknown option '--kind' \(did you mean --kinds\?\)$/m,
    );
    expectRefusal(await runRealCli(['nosuch']), /^refract: unknown command 'nosuch'$/m);
  });

  it('an unknown weight names the one a slip most likely meant, on the command line and in the library', async () => {
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '--weight', 'slotFil=1', 'samples/wrong-label.txt']),
      /^refract: --weight slotFil: unknown weight \(did you mean slotFill\?\)/,
    );
    expect(() => withWeights(loadCostModel('default'), { slotFil: 1 })).toThrow(
      /overrides\.slotFil: unknown weight \(did you mean slotFill\?\)/,
    );
  });

  it('gzip-compressed input is refused in one line saying so, not as invalid UTF-8 on every line', async () => {
    const gz = join(tmp.dir, 'plans.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync('samples/labelled-plans.jsonl')));
    const out = join(tmp.dir, 'from-gz.jsonl');
    const gzip = /^refract: input: gzip-compressed: decompress it first \(gunzip -c FILE\.gz > FILE/;
    expectRefusal(await runRealCli(['batch', '-c', CATALOG, '-q', '--out', out, gz]), gzip);
    expect(existsSync(out)).toBe(false);
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, gz]),
      /^refract: .*plans\.jsonl\.gz: gzip-compressed/,
    );
    await expect(scanChunks(gz, 10)).rejects.toThrow(/^input: gzip-compressed/);
  });

  it('a --weight is a decimal number, named as the flag; a record watchdog under a second is refused', async () => {
    const file = 'samples/wrong-label.txt';
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '-w', 'slotFill=0x10', file]),
      /^refract: --weight: expected name=number, got "slotFill=0x10"/,
    );
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '-w', 'slotFill=-1', file]),
      /^refract: --weight slotFill: /,
    );
    expectRefusal(
      await runRealCli(['batch', '-c', CATALOG, '--record-timeout', '0.01', 'samples/broken-nestful.jsonl']),
      /^refract: --record-timeout: expected at least 1 s, received "0\.01"/,
    );
  });

  it('batch refuses a bad --out or --resume in one line, with no progress drawn before it', async () => {
    const input = 'samples/broken-nestful.jsonl';
    expectRefusal(
      await runRealCli(['batch', '-c', CATALOG, '--out', tmp.dir, input]),
      /^refract: --out: .* is a directory$/m,
    );
    expectRefusal(await runRealCli(['batch', '-c', CATALOG, '--resume', input]), /^refract: --resume: /);
  });

  it('batch --resume with other repair flags than the run that wrote --out is refused; the same ones go on', async () => {
    const out = join(tmp.dir, 'stamped.jsonl');
    const args = ['batch', '-c', CATALOG, '--workers', '1', '-q', '--out', out];
    const input = 'samples/broken-nestful.jsonl';
    expect((await runRealCli([...args, input])).code).toBe(1);
    expect(JSON.parse(readFileSync(`${out}.settings.json`, 'utf8'))).toMatchObject({
      format: 'refract-batch-settings/1',
      stepByStep: false,
    });
    const before = readFileSync(out, 'utf8');
    expectRefusal(
      await runRealCli([...args, '--resume', '--min-confidence', '0.9', input]),
      /^refract: --resume: .*stamped\.jsonl was written with other settings \(request\)/,
    );
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect((await runRealCli([...args, '--resume', input])).code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe(before);
    // The settings file is an output: one that is the catalog or the input is refused, the file kept.
    const catalog = join(tmp.dir, 'kept.jsonl.settings.json');
    writeFileSync(catalog, readFileSync(CATALOG));
    const kept = join(tmp.dir, 'kept.jsonl');
    expectRefusal(
      await runRealCli(['batch', '-c', catalog, '-q', '--out', kept, input]),
      /^refract: --out: .*kept\.jsonl\.settings\.json is the --catalog file \(the run keeps its settings there/,
    );
    expect(readFileSync(catalog, 'utf8')).toBe(readFileSync(CATALOG, 'utf8'));
    const records = join(tmp.dir, 'in.jsonl.settings.json');
    writeFileSync(records, readFileSync(input));
    expectRefusal(
      await runRealCli(['batch', '-c', CATALOG, '-q', '--out', join(tmp.dir, 'in.jsonl'), records]),
      /^refract: --out: .*in\.jsonl\.settings\.json is the input/,
    );
    expect(readFileSync(records, 'utf8')).toBe(readFileSync(input, 'utf8'));
  });

  it('research commands refuse a run with nothing to train on, empty folds, or two outputs in one file', async () => {
    const data = ['--data', 'samples/labelled-plans.jsonl', '-c', CATALOG, '--quiet'];
    const out = (name: string) => join(tmp.dir, name);
    const research = (args: string[]) => runRealCli(args, [registerFit, registerCalibrate]);
    expectRefusal(
      await research(['fit', ...data, '--holdout', '0.999', '--out', out('f.json')]),
      /^refract: --holdout: no training record is left/,
    );
    expectRefusal(
      await research(['fit', ...data, '--folds', '20', '--out', out('f.json')]),
      /^refract: --folds: 20 folds of \d+ golds: at most one fold per training gold/,
    );
    expectRefusal(
      await research(['fit', ...data, '--out', out('same.json'), '--report', out('same.json')]),
      /^refract: --report: .*same\.json is the --out file: give each output a file of its own/,
    );
    expectRefusal(await research(['calibrate', ...data]), /^refract: --out: give --out .* --model-out/);
    expectRefusal(
      await research(['fit', ...data, '--epochs', '2', '--out', out('f.json')]),
      /^refract: --epochs: applies to --method perceptron only \(this fit is mert\)/,
    );
    expectRefusal(
      await research(['fit', ...data, '--no-guard', '--guard-slack', '0.1', '--out', out('f.json')]),
      /^refract: --guard-slack: applies to the guard/,
    );
  });

  it('a sweep refuses --range beside --grid and a hexadecimal grid value', async () => {
    const sweep = (args: string[]) =>
      runRealCli(
        ['sweep', '--data', 'samples/labelled-plans.jsonl', '-c', CATALOG, '--quiet', ...args],
        [registerSweep],
      );
    expectRefusal(
      await sweep(['--grid', 'renameParam=1,2', '--range', 'renameParam=0:2']),
      /^refract: --range: applies to --random, not to --grid/,
    );
    expectRefusal(
      await sweep(['--grid', 'renameParam=0x10,2']),
      /^refract: --grid: renameParam: expected a number/,
    );
  });

  it('modes with --min-confidence holds back the calibrated rows; the compress row, whose preset has no calibration, runs', async () => {
    const r = await runRealCli([
      'modes',
      '-c',
      CATALOG,
      '--min-confidence',
      '0.5',
      '--format',
      'json',
      'samples/lost-location.txt',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('labelled data files', () => {
  it('an empty --data file is named as empty, not as "no records selected"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-empty-data-'));
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    expect(() => loadLabelled([empty])).toThrow(`--data: ${empty}: empty input: expected labelled records`);
  });
});

describe('the fit report', () => {
  it('says how many training golds the model cannot hold, and that no weight moved when none did', () => {
    const score = { n: 10, restored: 7, restorationCi: { lo: 0.4, hi: 0.9 } } as never;
    const lines = verdicts({
      method: 'mert',
      before: { train: score },
      epochs: [],
      chosen: 0,
      model: {} as never,
      goldNotHeld: 3,
    });
    expect(lines[0]).toMatch(/^3 training golds could not be held by the repair model/);
    expect(lines.at(-1)).toMatch(/^No weight moved/);
    // One record more of ten is no clear win: the paired interval says so.
    const of = (outcomes: boolean[]) => ({
      n: outcomes.length,
      restored: outcomes.filter(Boolean).length,
      executable: 0,
      restorationCi: { lo: 0, hi: 1 },
      outcomes,
    });
    const before = of([...Array(7).fill(true), false, false, false]);
    const after = of([...Array(8).fill(true), false, false]);
    const won = verdicts({
      method: 'mert',
      before: { train: score, held: before },
      epochs: [
        {
          epoch: 1,
          updates: 1,
          inseparable: 0,
          skipped: 0,
          restoredInPass: 8,
          weights: {} as never,
          scores: { train: score, held: after },
        },
      ],
      chosen: 1,
      model: {} as never,
    });
    expect(won[0]).toMatch(
      /the fitted model beats the base by 1; paired 95% interval .* points: not a clear difference\.$/,
    );
  });
});

describe('a slip in a key of a step or a memory item', () => {
  it('is refused naming the key and the one it means; other keys of a step are an agent’s own', () => {
    const step = (extra: object) => [{ name: 'f', arguments: { q: 1 }, ...extra }];
    expect(() => parseSequence([{ name: 'f', argumnets: { q: 1 } }])).toThrow(
      'sequence[0].argumnets: unknown key (did you mean arguments?)',
    );
    expect(() => parseSequence(step({ lable: 'var1' }))).toThrow(
      'sequence[0].lable: unknown key (did you mean label?)',
    );
    const call = { type: 'function', function: { name: 'f', argument: '{}' } };
    expect(() => parseSequence([call])).toThrow(
      'sequence[0].function.argument: unknown key (did you mean arguments?)',
    );
    expect(parseSequence(step({ thought: 'look it up first', id: 'c1' }))).toEqual([
      { name: 'f', arguments: { q: 1 } },
    ]);
    // A chat transcript where the plan goes is named as one.
    expect(() => parseSequence([{ role: 'user', content: 'hi' }])).toThrow(
      'sequence[0]: a chat message (role "user"), not a step: give the assistant message, or its tool_calls',
    );
    // Memory items are this tool's own shape: any other key is refused.
    expect(() => parseMemory([{ label: 'var1', vaule: 1 }])).toThrow(
      'memory[0].vaule: unknown key (did you mean value?)',
    );
    expect(() => parseMemory([{ label: 'var1', value: 1, junk: 1 }])).toThrow(
      'memory[0].junk: unknown key (known: label, value, output)',
    );
  });
});

describe('labelled data whose gold the catalog refuses', () => {
  it('is named record by record, for the research commands to warn that no repair restores it', () => {
    const catalog = [{ name: 'f', parameters: { q: { type: 'string', required: true } } }];
    const line = (id: string, gold: string) => JSON.stringify({ id, sequence: 'f()', gold, catalog });
    const records = parseLabelled([line('ok', 'f(q="a")'), line('bad', 'g(q="a")')].join('\n'));
    expect(invalidGolds(records)).toEqual(['bad: unknown_api at step 1']);
  });
});

describe('JSON Schema as tool definitions write it', () => {
  it('reads local references and combinators: a Pydantic-style tool is checked as declared', () => {
    const catalog = parseCatalog([
      {
        type: 'function',
        function: {
          name: 'book',
          parameters: {
            type: 'object',
            $defs: {
              Date: { type: 'string', format: 'date' },
              Seat: { type: 'object', properties: { row: { type: 'integer' } } },
            },
            properties: {
              when: { $ref: '#/$defs/Date', description: 'the day' },
              seats: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
              mode: { oneOf: [{ const: 'air' }, { const: 'rail' }] },
              seat: { allOf: [{ $ref: '#/$defs/Seat' }] },
              ...(JSON.parse('{"__proto__": {"type": "string"}}') as object),
            },
            required: ['when', 'mode'],
          },
          'x-outputs': {
            type: 'object',
            $defs: { B: { type: 'object', properties: { ref: { type: 'string' } } } },
            properties: {
              booking: { $ref: '#/$defs/B' },
              node: { $ref: '#/$defs/Node' },
              ids: {
                type: 'array',
                items: { anyOf: [{ type: 'object', properties: { id: { type: 'string' } } }] },
              },
            },
          },
        },
      },
    ]);
    const [api] = catalog.apis;
    const param = (name: string) => api.params.find((p) => p.name === name);
    expect(param('when')).toMatchObject({ type: 'string', required: true, description: 'the day' });
    expect(param('seats')).toMatchObject({ type: 'integer', required: false });
    expect(param('mode')).toMatchObject({ type: 'string', required: true, enum: ['air', 'rail'] });
    expect(param('seat')).toMatchObject({ type: 'object' });
    expect(param('__proto__')).toMatchObject({ type: 'string' });
    const paths = (api.outputs ?? []).map((f) => `${f.path}:${f.type}`);
    expect(paths).toEqual(expect.arrayContaining(['booking.ref:string', 'ids[].id:string']));
    // A reference to no definition is an open value, not an error.
    expect(paths).toContain('node:any');
    // A definition that names itself four times is expanded a bounded number of times, not 4^16.
    const tree = { $ref: '#/$defs/N' };
    const node = { type: 'object', properties: { a: tree, b: tree, c: tree, d: tree } };
    const [bomb] = parseCatalog([
      { name: 'f', 'x-outputs': { type: 'object', $defs: { N: node }, properties: { root: tree } } },
    ]).apis;
    expect(bomb.outputs!.length).toBeLessThan(5000);
  });
});
