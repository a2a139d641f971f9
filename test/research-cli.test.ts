import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import { registerCalibrate, registerCoverage, registerFit, registerSweep } from '../research/cli/research.ts';
import { prepareBenchOut, registerBench } from '../research/cli/bench.ts';
import { parseCostModel } from '../src/read/cost-models.ts';
import {
  ALTERNATIVE_EVIDENCE,
  CalibrationSchema,
  calibrationInForce,
  weightsDigest,
} from '../src/model/calibration.ts';
import {
  LABELLED_CATALOG as CATALOG,
  labelledRecords,
  writeLabelled,
  writeLabelledWithFlow,
} from './labelled.ts';

const dir = mkdtempSync(join(tmpdir(), 'refract-research-'));

const LABELLED = writeLabelled(dir);

function program(): Command {
  const p = new Command().exitOverride();
  registerSweep(p);
  registerFit(p);
  registerCoverage(p);
  registerCalibrate(p);
  return p;
}

const run = (...args: string[]) => program().parseAsync(['node', 'refract', ...args, '--quiet']);

/** The executable's way: exit code and the one-line message on standard error. */
async function cli(...args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  try {
    await runCli(['node', 'refract', ...args, '--quiet'], [registerSweep, registerFit, registerCalibrate]);
    return { code: Number(process.exitCode ?? 0), err };
  } finally {
    spy.mockRestore();
    process.exitCode = 0;
  }
}

describe('refract sweep on a labelled file of its own', () => {
  it('sweeps a weight and a candidate setting: per-kind rates, intervals, flips, chart and JSON', async () => {
    const [out, json, svg] = ['sweep.md', 'sweep.json', 'heat.svg'].map((f) => join(dir, f));
    await run(
      'sweep',
      ...['--data', LABELLED, '--catalog', CATALOG],
      ...['--grid', 'renameParam=1,2', '--grid', 'minSimilarity=0.5,0.95'],
      ...['--out', out, '--json', json, '--svg', svg],
    );
    type Row = {
      setting: Record<string, number>;
      n: number;
      restored: number;
      restorationRate: number;
      restorationCi: { lo: number; hi: number };
      byKind: Record<string, { n: number }>;
    };
    const doc = JSON.parse(readFileSync(json, 'utf8')) as {
      baseline: Row;
      rows: Row[];
      records: number;
      outcomes: { id: string; kind: string; base: boolean; restored: boolean[] }[];
    };
    expect(doc.rows).toHaveLength(4);
    expect(doc.baseline.n).toBe(4);
    expect(Object.keys(doc.baseline.byKind).sort()).toEqual([
      '2 mistakes',
      'api_name',
      'param_name',
      'ref_label',
    ]);
    for (const row of [doc.baseline, ...doc.rows]) {
      expect(row.restorationCi.lo).toBeLessThanOrEqual(row.restorationRate);
      expect(row.restorationCi.hi).toBeGreaterThanOrEqual(row.restorationRate);
    }
    // The base restores the misspelled parameter; no rename is a candidate at similarity 0.95.
    expect(doc.records).toBe(4);
    const typo = doc.outcomes.find((r) => r.id === 'typo')!;
    expect(typo.base).toBe(true);
    const strict = doc.rows.findIndex((r) => r.setting.minSimilarity === 0.95);
    expect(typo.restored[strict]).toBe(false);
    const page = readFileSync(out, 'utf8');
    // The page names the command that made it (its options in their declared order), in-process too: not the
    // test runner's arguments.
    expect(page).toContain(
      `Regenerate: \`refract sweep --grid renameParam=1,2 --grid minSimilarity=0.5,0.95 --out ${out} ` +
        `--json ${json} --svg ${svg} --data ${LABELLED} --catalog ${CATALOG} --quiet\`.`,
    );
    expect(page).toContain('## Restoration per mistake kind');
    expect(page).toContain('## Records that flip against the base');
    expect(page).toMatch(/minSimilarity=0\.95 \|\s+0 \|\s+\d+ \|[^|]+\| [^|]*`typo`/);
    expect(page).toContain('![restoration by setting](heat.svg)');
    expect(readFileSync(svg, 'utf8')).toContain('minSimilarity');
    const spec = JSON.parse(readFileSync(join(dir, 'heat.vl.json'), 'utf8')) as {
      layer: { encoding: { color?: { scale?: { domain: number[] } } } }[];
    };
    expect(spec.layer[0].encoding.color?.scale?.domain).toEqual([0, 1]);
  });

  it('draws a one-setting sweep as rates with intervals on a 0–100 % axis', async () => {
    const svg = join(dir, 'rates.svg');
    await run('sweep', '--data', LABELLED, '--catalog', CATALOG, '--grid', 'apiCandidates=1,5', '--svg', svg);
    const spec = JSON.parse(readFileSync(join(dir, 'rates.vl.json'), 'utf8')) as {
      layer: { encoding: { x: { scale?: { domain: number[] } } } }[];
    };
    expect(spec.layer[1].encoding.x.scale?.domain).toEqual([0, 1]);
    expect(existsSync(svg)).toBe(true);
  });

  it('refuses unknown names, unknown kinds and a catalog-less record: one line, exit 2', async () => {
    for (const [args, message] of [
      [
        ['--grid', 'minSimilarty=0.5'],
        /--grid: unknown setting "minSimilarty" \(weights: .*candidate generation: minSimilarity/,
      ],
      [
        ['--grid', 'slotFill=1', '--kinds', 'param_name,bogus'],
        /--kinds: unknown kind "bogus" \(the data has: 2 mistakes, api_name/,
      ],
      [['--grid', 'apiCandidates=0.5'], /apiCandidates: expected an integer/],
      [['--grid', 'slotFill=1', '--random', '2'], /--grid: give either/],
    ] as const) {
      const { code, err } = await cli('sweep', '--data', LABELLED, '--catalog', CATALOG, ...args);
      expect(code).toBe(2);
      expect(err).toMatch(message);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
    const { code, err } = await cli('sweep', '--data', LABELLED, '--grid', 'slotFill=1');
    expect(code).toBe(2);
    expect(err).toMatch(/mine\.jsonl: line 1: catalog: required/);
  });
});

describe('refract fit on a labelled file of its own', () => {
  it('writes a cost model that loads with --cost-model, and a report with intervals', async () => {
    const out = join(dir, 'mine-fitted.json');
    const report = join(dir, 'fit.md');
    await run(
      'fit',
      ...['--data', LABELLED, '--catalog', CATALOG],
      ...['--holdout', '0', '--rounds', '1', '--out', out, '--report', report],
    );
    // Named after its file, not the shipped `fitted` preset.
    expect(loadCostModel(out).name).toBe('mine-fitted');
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('Train: 4 records of mine');
    expect(page).toContain('held out: none.');
    expect(page).toMatch(/\(\d\/4; \d+\.\d–\d+\.\d%\)/);
  });

  it('--calibrate: the fitted model carries a calibration of its own weights, measured in the report', async () => {
    // The same records under other ids, held out as a set of their own.
    const theirs = join(dir, 'theirs.jsonl');
    writeFileSync(
      theirs,
      labelledRecords()
        .map((r) => JSON.stringify({ ...r, id: `their-${r.id}` }))
        .join('\n') + '\n',
    );
    const out = join(dir, 'fitted-calibrated.json');
    const report = join(dir, 'fit-calibrated.md');
    await run(
      'fit',
      ...['--data', LABELLED, '--data', theirs, '--catalog', CATALOG],
      ...['--holdout-sets', 'theirs', '--holdout', '0', '--rounds', '1', '--calibrate'],
      ...['--out', out, '--report', report],
    );
    const model = loadCostModel(out);
    // Tied to the fitted weights: a repair under this model reports a confidence.
    expect(model.calibration?.weights).toBe(weightsDigest(model.weights));
    expect(calibrationInForce(model)).toBeDefined();
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('### Confidence of the fitted weights (calibrated on the training records)');
    expect(page).toMatch(/\| theirs \(held-out set\) \| 4 \| \d+\.\d % \| [01]\.\d{3} \| 0\.\d{3} \|/);
  });

  it('--calibration-evidence picks what the calibration of --calibrate reads; alone, or unknown, it is refused', async () => {
    const data = writeLabelledWithFlow(dir, 'fit-flow.jsonl');
    const out = join(dir, 'fitted-form.json');
    const args = [
      'fit',
      '--data',
      data,
      '--catalog',
      CATALOG,
      '--holdout',
      '0',
      '--rounds',
      '1',
      '--out',
      out,
    ];
    await run(...args, '--calibrate', '--calibration-evidence', 'form', '--report', join(dir, 'fit-form.md'));
    expect(loadCostModel(out).calibration?.evidence).toContain('formOnly');
    const alone = await cli(...args, '--calibration-evidence', 'form');
    expect(alone.code).toBe(2);
    expect(alone.err.trim()).toBe('refract: --calibration-evidence: needs --calibrate');
    const unknown = await cli(...args, '--calibrate', '--calibration-evidence', 'shape');
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim()).toBe(
      'refract: --calibration-evidence: expected one of core, form, kinds, all, received "shape"',
    );
  });

  it('refuses a set that is both trained on and held out, and a set the data lacks', async () => {
    const both = await cli('fit', '--train-sets', 'sgd', '--holdout-sets', 'sgd', '--limit', '1');
    expect(both.err).toMatch(/--holdout-sets: sgd is also a training set/);
    const missing = await cli('fit', '--data', LABELLED, '--catalog', CATALOG, '--train-sets', 'theirs');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--train-sets: expected one of mine/);
    // An empty share is refused, not read as 0.
    const empty = await cli('fit', '--data', LABELLED, '--catalog', CATALOG, '--holdout', '');
    expect(empty.code).toBe(2);
    expect(empty.err.trim()).toBe('refract: --holdout: expected a fraction in [0, 1), received ""');
  });
});

describe('refract coverage', () => {
  it('counts the golds a solve constrained to them restores, and names the ones no edit can write', async () => {
    // A gold whose date is a template mixing a reference with text: no edit kind writes one.
    const [typo] = labelledRecords();
    const template = {
      ...typo,
      id: 'template',
      gold: typo.gold.replace('date="2024-08-15"', 'date="$var2.skyId$ 2024-08-15"'),
    };
    const data = join(dir, 'coverage.jsonl');
    writeFileSync(data, [...labelledRecords(), template].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const report = join(dir, 'coverage.md');
    await run('coverage', '--data', data, '--catalog', CATALOG, '--report', report);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('Candidate coverage: **80.0 %** (4 of 5 records');
    expect(page).toContain('| coverage | 5 | 4 | 80.0 |');
    expect(page).toMatch(
      /Not covered \(1\):\n\n- `template` \(coverage, param_name\): reference inside a value `\w+\(date\)`/,
    );
    expect(page).toContain('| reference inside a value | 1 |');
  });
});

describe('refract calibrate', () => {
  const calibrateOn = (out: string) => ['calibrate', '--data', LABELLED, '--catalog', CATALOG, '--out', out];

  it('fits a calibration on labelled records, writes it and a cost model that carries it, and reports', async () => {
    const [out, model, report] = ['calib.json', 'calibrated.json', 'calib.md'].map((f) => join(dir, f));
    await run(...calibrateOn(out), '--model-out', model, '--report', report);
    const calibration = CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(calibration.fitted.records).toBeGreaterThan(0);
    expect(parseCostModel(JSON.parse(readFileSync(model, 'utf8'))).calibration).toEqual(calibration);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain(
      '| world | repairs | right | mean confidence | ECE | ECE if calibrated | top 90 % | kept at 99 % | AUC |',
    );
    expect(page).toContain('(all, fitted)');
    // One world: nothing to hold out, and the page says so rather than heading a table of none.
    expect(page).not.toContain('Each world held out');
    expect(page).toMatch(
      /\nOne world \(the records’ `set`\): none to hold out, so the table has the fit on every repair alone/,
    );
    // The page names the evidence read; records of one world do not read the input's shape (minShapeWorlds).
    const names = calibration.evidence.map((n) => `\`${n}\``).join(', ');
    expect(page).toContain(`The score reads ${calibration.evidence.length} evidence values: ${names}.`);
    expect(page).toContain("Not the input's shape: the records are of one world");
    expect(calibration.evidence).not.toContain('namedRefs');
    // The alternatives (fix 2, 3, …) are fitted too, on the flows that differ from fix 1's.
    expect(calibration.alternatives?.fitted.records).toBeGreaterThan(0);
    for (const name of calibration.alternatives!.evidence)
      expect(Object.keys(ALTERNATIVE_EVIDENCE)).toContain(name);
    expect(calibration.alternatives?.evidence).not.toContain('sameFlow');
    expect(page).toContain('| world | alternatives | right | mean confidence | ECE |');
  });

  it('reads whether every edit is of form with --evidence form, and splits the page by it', async () => {
    // The labelled records only rename and relabel; one more loses an argument the repair links back.
    const data = writeLabelledWithFlow(dir, 'with-flow.jsonl');
    const [out, report] = ['calib-form.json', 'calib-form.md'].map((f) => join(dir, f));
    const args = ['calibrate', '--data', data, '--catalog', CATALOG, '--out', out, '--alternatives', '0'];
    args.push('--overwrite');
    await run(...args, '--evidence', 'form', '--report', report);
    const evidence = CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).evidence;
    expect(evidence).toContain('formOnly');
    expect(evidence.filter((n) => n.startsWith('kind.'))).toEqual([]);
    // Renamed parameters and APIs and relabelled steps only fix how calls are written; a linked argument is data flow.
    expect(readFileSync(report, 'utf8')).toMatch(/\| \(all, fitted\) \| 4 \| 100\.0 % \| [\d.]+ \| 1 \| /);
    // Read by default: not.
    await run(...args);
    expect(CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).evidence).not.toContain('formOnly');
    const { code, err } = await cli(...args, '--evidence', 'shape');
    expect(code).toBe(2);
    expect(err.trim()).toBe('refract: --evidence: expected one of core, form, kinds, all, received "shape"');
  });

  it('fits on the records of one plan that falls in the held-out share, leaving out the held-out-records table', async () => {
    // The first three records of the executable set share one gold plan, which the seeded 30 % holds out.
    const lines = readFileSync('benchmarks/data/corrupted-executable.jsonl', 'utf8').split('\n').slice(0, 3);
    expect(new Set(lines.map((l) => JSON.stringify(JSON.parse(l).gold))).size).toBe(1);
    const data = join(dir, 'one-plan.jsonl');
    writeFileSync(data, lines.join('\n') + '\n');
    const [out, report] = ['calib-one-plan.json', 'calib-one-plan.md'].map((f) => join(dir, f));
    await run('calibrate', '--data', data, '--out', out, '--report', report, '--alternatives', '0');
    expect(CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).fitted.records).toBe(3);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('(all, fitted)');
    expect(page).not.toContain('Held-out records of every world');
  });

  it('scores each held-out world again under refits on resampled plans (--refits), and refuses a bad count', async () => {
    const data = join(dir, 'two-worlds.jsonl');
    const records = ['mine', 'theirs'].flatMap((set) =>
      labelledRecords().map((r) => JSON.stringify({ ...r, id: `${set}-${r.id}`, set })),
    );
    writeFileSync(data, records.join('\n') + '\n');
    const [out, report] = ['calib-refits.json', 'calib-refits.md'].map((f) => join(dir, f));
    const args = ['calibrate', '--data', data, '--catalog', CATALOG, '--out', out, '--alternatives', '0'];
    args.push('--overwrite');
    await run(...args, '--refits', '3', '--report', report);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('The same held-out ECE under 3 calibrations fitted on resamples');
    expect(page).toMatch(/\| mine \| [\d.]+ \| [\d.]+ \| [\d.]+–[\d.]+ \| \d+ % \|/);
    expect(page).toMatch(/In most refits \d of 2 worlds are at 0\.03 or less; \d in none\./);
    await run(...args, '--refits', '0', '--report', report);
    expect(readFileSync(report, 'utf8')).not.toContain('calibrations fitted on resamples');
    for (const bad of ['-1', '1.5', 'some', '1001']) {
      const { code, err } = await cli(...args, '--refits', bad);
      expect(code).toBe(2);
      expect(err.trim()).toBe(`refract: --refits: expected an integer in [0, 1000], received "${bad}"`);
    }
    // An empty or negative penalty is refused, not read as 0.
    for (const bad of ['', '-1', 'x']) {
      const { code, err } = await cli(...args, '--l2', bad);
      expect(code).toBe(2);
      expect(err.trim()).toBe(`refract: --l2: expected a number in [0, 1000000], received "${bad}"`);
    }
  });

  it('refuses records none of which needs a repair, naming --data, and writes nothing', async () => {
    const data = join(dir, 'all-valid.jsonl');
    const { gold } = labelledRecords()[0];
    writeFileSync(data, JSON.stringify({ id: 'fine', gold, sequence: gold }) + '\n');
    const out = join(dir, 'calib-none-repaired.json');
    const { code, err } = await cli('calibrate', '--data', data, '--catalog', CATALOG, '--out', out);
    expect(code).toBe(2);
    expect(err.trim()).toBe(
      'refract: --data: no record was repaired (1 record: every input valid, or no repair found): nothing to calibrate on',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('keeps the outputs of an earlier run unless told to overwrite them, naming the flag', async () => {
    const [out, report] = ['calib-kept.json', 'calib-kept.md'].map((f) => join(dir, f));
    await run(...calibrateOn(out), '--alternatives', '0', '--report', report);
    const kept = readFileSync(out, 'utf8');
    const again = await cli(...calibrateOn(out), '--alternatives', '0', '--report', report);
    expect(again.code).toBe(2);
    expect(again.err.trim()).toBe(
      `refract: --out: ${out} already holds ${Buffer.byteLength(kept)} bytes: add --overwrite to replace it`,
    );
    expect(readFileSync(out, 'utf8')).toBe(kept);
    // A report of its own is refused the same way; --overwrite replaces both.
    const fresh = join(dir, 'calib-fresh.json');
    const onReport = await cli(...calibrateOn(fresh), '--alternatives', '0', '--report', report);
    expect(onReport.err).toMatch(/^refract: --report: .* already holds \d+ bytes: add --overwrite/);
    await run(...calibrateOn(out), '--alternatives', '0', '--report', report, '--overwrite');
  });

  it('fits no alternatives with --alternatives 0, and refuses a bad count naming the flag', async () => {
    const out = join(dir, 'calib-none.json');
    await run(...calibrateOn(out), '--alternatives', '0');
    expect(CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).alternatives).toBeUndefined();
    for (const bad of ['-1', '2.5', 'many', '11']) {
      const { code, err } = await cli(...calibrateOn(out), '--alternatives', bad, '--overwrite');
      expect(code).toBe(2);
      expect(err).toMatch(/--alternatives/);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('refract bench --out', () => {
  it('writes into a new or empty folder or an earlier run’s pages, and refuses any other, one line each', async () => {
    const mine = join(dir, 'my-notes');
    mkdirSync(mine);
    writeFileSync(join(mine, 'README.md'), 'my notes\n');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expect(() => prepareBenchOut(mine, false)).toThrow(
      `--out: ${mine} holds files that are no earlier benchmark's pages: give a new or empty folder, or add --overwrite to write into it`,
    );
    expect(() => prepareBenchOut(file, false)).toThrow(`--out: ${file} is not a folder`);
    expect(() => prepareBenchOut(join(file, 'sub'), false)).toThrow(
      `--out: cannot create the folder ${join(file, 'sub')} (ENOTDIR)`,
    );
    prepareBenchOut(mine, true);
    const earlier = join(dir, 'earlier-bench');
    mkdirSync(earlier);
    writeFileSync(join(earlier, 'README.md'), '# Benchmark results\n');
    prepareBenchOut(earlier, false);
    prepareBenchOut(join(dir, 'new-bench', 'deep'), false);
    expect(existsSync(join(dir, 'new-bench', 'deep'))).toBe(true);
    // From the command line: exit 2, one line, the notes kept.
    let err = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
    try {
      await runCli(['node', 'refract', 'bench', '--only', 'solvers', '--out', mine], [registerBench]);
      expect(process.exitCode).toBe(2);
    } finally {
      spy.mockRestore();
      process.exitCode = 0;
    }
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(join(mine, 'README.md'), 'utf8')).toBe('my notes\n');
  });
});
