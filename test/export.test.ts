import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import highsModule, { type Highs, type Model } from 'highs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MilpModel } from '../src/model/milp.ts';
import { compileFor } from '../src/repair/repair.ts';
import { FAST_PROFILE, PortfolioBackend } from '../src/solvers/index.ts';
import { EXACT_GAPS } from '../src/solvers/highs.ts';
import { toLpText, toMpsText, type ModelFormat } from '../src/solvers/model-text.ts';
import { registerExport } from '../src/cli/export.ts';
import { loadSetCatalog, SET_NAMES } from '../research/bench/data.ts';
import { runCommands } from './cli-run.ts';
import { corrupt, GOLD } from './helpers.ts';

const loader = ((highsModule as unknown as { default?: unknown }).default ??
  highsModule) as () => Promise<Highs>;
/** One native model, reloaded from text for every solve (cheaper than a model per solve). */
let reader: Model;
beforeAll(async () => {
  reader = (await loader()).createModel();
  reader.options.set({ output_flag: false, log_to_console: false, ...FAST_PROFILE, ...EXACT_GAPS });
});
afterAll(() => reader.dispose());

/** Reads the text back into HiGHS (its LP or MPS reader) and solves it to proven optimality. */
function solveText(data: string, format: ModelFormat): { status: number; objective: number } {
  reader.readModel({ format, data });
  const { modelStatus } = reader.run();
  return { status: modelStatus, objective: reader.getObjectiveValue() };
}

const OPTIMAL = 7;
const INFEASIBLE = 8;

/** The reference: the model as a repair solves it (lp-solver on small models, HiGHS on larger ones). */
const backend = new PortfolioBackend();

/** The optimum of the model itself equals that of its LP and MPS texts read back by HiGHS. */
async function expectSameOptimum(model: MilpModel, label: string): Promise<void> {
  const reference = await backend.solve(model);
  expect(reference.status, label).toBe('optimal');
  for (const [format, text] of [
    ['lp', toLpText(model)],
    ['mps', toMpsText(model)],
  ] as const) {
    const back = solveText(text, format);
    expect(back.status, `${label} ${format}`).toBe(OPTIMAL);
    expect(Math.abs(back.objective - reference.objective!), `${label} ${format}`).toBeLessThanOrEqual(
      1e-6 * Math.max(1, Math.abs(reference.objective!)),
    );
  }
}

describe('LP and MPS text', () => {
  // Ranged, equality, one-sided and free rows; a continuous variable; repeated and zero coefficients;
  // a variable in no row; negative and fractional costs.
  const model: MilpModel = {
    numVars: 5,
    cost: [-1, 2.5, -0.125, 0, 3],
    continuous: [2],
    rows: [
      { vars: [0, 1, 2], coefs: [1, 1, 1], lower: 1, upper: 2 },
      { vars: [0, 0, 1], coefs: [0.5, 0.5, -1], lower: 0, upper: 0 },
      { vars: [1, 2], coefs: [1, 0], lower: -Infinity, upper: 1 },
      { vars: [2], coefs: [1], lower: -Infinity, upper: Infinity },
    ],
  };

  it('uses only generated names', () => {
    const names = (text: string) => new Set(text.match(/\b[A-Za-z_][\w]*\b/g));
    const lp = toLpText(model, { comments: ['made by a test'] });
    for (const name of names(lp.replace(/^\\.*$/gm, '')))
      expect(name).toMatch(/^(x\d+|c\d+(_lo|_hi)?|obj|Minimize|Subject|To|Bounds|Binary|End)$/);
    expect(lp).toContain('c0_lo:');
    expect(lp).toContain('c0_hi:');
    expect(lp).toContain('0 <= x2 <= 1');
    expect(lp).not.toContain('c3');
    const mps = toMpsText(model);
    expect(mps).toContain('RNG c0 1');
    expect(mps).toContain(' UP BND x2 1');
    expect(mps).toContain(' BV BND x4');
  });

  it('reads back through HiGHS with the same optimum', async () => {
    await expectSameOptimum(model, 'hand-made');
  });

  it('reads back an infeasible model as infeasible', () => {
    const infeasible: MilpModel = {
      numVars: 1,
      cost: [1],
      rows: [{ vars: [0], coefs: [1], lower: 2, upper: 3 }],
    };
    expect(solveText(toLpText(infeasible), 'lp').status).toBe(INFEASIBLE);
    expect(solveText(toMpsText(infeasible), 'mps').status).toBe(INFEASIBLE);
  });

  it('round-trips every shipped benchmark model with the same optimum', async () => {
    let models = 0;
    for (const set of SET_NAMES) {
      const catalog = loadSetCatalog(set);
      const lines = readFileSync(`benchmarks/data/corrupted-${set}.jsonl`, 'utf8').split('\n');
      for (const line of lines.filter((l) => l.trim() !== '')) {
        const record = JSON.parse(line) as { id: string; sequence: never };
        await expectSameOptimum(compileFor(record.sequence, catalog).model, `${set} ${record.id}`);
        models++;
      }
    }
    expect(models).toBeGreaterThan(1700);
  }, 120_000);
});

describe('refract export', () => {
  const catalog = 'data/nestful/executable-spec.json';
  const broken = corrupt(
    GOLD,
    'var2 = SkyScrapperSearchAirport(query="London")',
    'var2 = SkyScrapperSearchAirport(qry="London")',
  );

  it('prints one model, and refuses several without a folder', async () => {
    const input = join(mkdtempSync(join(tmpdir(), 'refract-export-')), 'one.txt');
    writeFileSync(input, broken);
    const lp = await runCommands([registerExport], ['export', input, '--catalog', catalog, '--format', 'lp']);
    expect(lp.code).toBe(0);
    expect(lp.out).toMatch(/^\\ refract export: record "0"\n/);
    expect(lp.out).toContain('Binary');
    const both = await runCommands([registerExport], ['export', input, '--catalog', catalog]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--out/);
  });

  it('writes a folder of models with the repair flags of fix, whose optimum is the repair cost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-export-'));
    const out = join(dir, 'models');
    const result = await runCommands(
      [registerExport],
      ['export', 'samples/broken-nestful.jsonl', '--catalog', catalog, '--out', out, '-w', 'slotFill=9'],
    );
    expect(result.code).toBe(0);
    const manifest = readFileSync(join(out, 'models.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; lp: string; mps: string; offset: number; vars: number });
    expect(readdirSync(out)).toHaveLength(2 * manifest.length + 1);
    const first = manifest[0];
    const text = readFileSync(join(out, first.lp), 'utf8');
    expect(text).toContain(`repair cost = objective + ${first.offset}`);
    // The exported model is the one fix solves under the same flags (here a raised slotFill weight).
    const { repair } = await import('../src/repair/repair.ts');
    const { parseRecords } = await import('../src/read/records.ts');
    const { loadCatalog } = await import('../src/read/catalog.ts');
    const { loadCostModel, withWeights } = await import('../src/read/cost-models.ts');
    const record = parseRecords(readFileSync('samples/broken-nestful.jsonl', 'utf8'))[0];
    const repaired = await repair(record.sequence!, loadCatalog(catalog), {
      cost: withWeights(loadCostModel('default'), { slotFill: 9 }),
    });
    const back = solveText(text, 'lp');
    expect(back.objective + first.offset).toBeCloseTo(repaired.cost, 5);
  });
});
