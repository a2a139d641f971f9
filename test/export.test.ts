import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import highsModule, { type Highs, type Model } from 'highs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MilpModel } from '../src/model/milp.ts';
import type { Catalog } from '../src/model/types.ts';
import { compileFor } from '../src/repair/repair.ts';
import { FAST_PROFILE, PortfolioBackend } from '../src/solvers/index.ts';
import { EXACT_GAPS } from '../src/solvers/highs.ts';
import { toLpText, toMpsText, type ModelFormat } from '../src/solvers/model-text.ts';
import { registerExport } from '../src/cli/export.ts';
import { flowCatalog } from '../research/bench/flow-data.ts';
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

/** A row as the text should state it: bounds and merged non-zero terms (variable → coefficient). */
interface ExpectedRow {
  readonly name: string;
  readonly lower: number;
  readonly upper: number;
  readonly terms: ReadonlyMap<number, number>;
}

/** The model's rows as the text should state them, in order: a ranged row is two rows in LP. */
function expectedRows(model: MilpModel, format: ModelFormat): ExpectedRow[] {
  return model.rows.flatMap((row, i) => {
    if (row.lower === -Infinity && row.upper === Infinity) return [];
    const terms = new Map<number, number>();
    row.vars.forEach((v, k) => terms.set(v, (terms.get(v) ?? 0) + row.coefs[k]));
    for (const [v, c] of terms) if (c === 0) terms.delete(v);
    const ranged = row.lower > -Infinity && row.upper < Infinity && row.lower !== row.upper;
    return ranged && format === 'lp'
      ? [
          { name: `c${i}_lo`, lower: row.lower, upper: Infinity, terms },
          { name: `c${i}_hi`, lower: -Infinity, upper: row.upper, terms },
        ]
      : [{ name: `c${i}`, lower: row.lower, upper: row.upper, terms }];
  });
}

/**
 * The variable behind each column HiGHS reads: MPS keeps the file's column order; the LP reader numbers
 * variables in order of first appearance. Spot checks with HiGHS's own names confirm the mapping (asking
 * for every name costs more than reading the model).
 */
function columnOrder(text: string, format: ModelFormat, n: number): number[] {
  if (format === 'mps') return Array.from({ length: n }, (_, j) => j);
  const seen = new Set<number>();
  const order: number[] = [];
  for (const m of text.replace(/^\\.*$/gm, '').matchAll(/\bx(\d+)\b/g)) {
    const j = Number(m[1]);
    if (seen.has(j)) continue;
    seen.add(j);
    order.push(j);
  }
  return order;
}

/** Reads the text back into HiGHS; the first way it differs from the model, or null when it is the model. */
function readBackDifference(model: MilpModel, text: string, format: ModelFormat): string | null {
  reader.readModel({ format, data: text });
  const lp = reader.getLp('csr');
  const rows = expectedRows(model, format);
  if (lp.numCols !== model.numVars || lp.numRows !== rows.length)
    return `size ${lp.numCols}×${lp.numRows}, expected ${model.numVars}×${rows.length}`;
  const order = columnOrder(text, format, lp.numCols);
  for (const k of [0, lp.numCols >> 1, lp.numCols - 1].filter((k) => k >= 0 && k < lp.numCols))
    if (reader.getColName(k) !== `x${order[k]}`) return `column ${k} is ${reader.getColName(k)}`;
  const continuous = new Set(model.continuous ?? []);
  for (let k = 0; k < lp.numCols; k++) {
    const j = order[k];
    const type = continuous.has(j) ? 0 : 1;
    if (
      lp.colCost[k] !== model.cost[j] ||
      lp.colLower[k] !== 0 ||
      lp.colUpper[k] !== 1 ||
      lp.integrality[k] !== type
    )
      return `x${j}: cost ${lp.colCost[k]} [${lp.colLower[k]}, ${lp.colUpper[k]}] type ${lp.integrality[k]}`;
  }
  const { starts, indices, values } = lp.matrix;
  for (let i = 0; i < lp.numRows; i++) {
    const want = rows[i];
    if (i === 0 || i === lp.numRows - 1)
      if (reader.getRowName(i) !== want.name)
        return `row ${i} is ${reader.getRowName(i)}, expected ${want.name}`;
    if (lp.rowLower[i] !== want.lower || lp.rowUpper[i] !== want.upper)
      return `${want.name}: bounds [${lp.rowLower[i]}, ${lp.rowUpper[i]}]`;
    if (starts[i + 1] - starts[i] !== want.terms.size)
      return `${want.name}: ${starts[i + 1] - starts[i]} terms`;
    for (let e = starts[i]; e < starts[i + 1]; e++)
      if (want.terms.get(order[indices[e]]) !== values[e])
        return `${want.name}: x${order[indices[e]]} has ${values[e]}`;
  }
  return null;
}

/** Every record of every `benchmarks/data/*.jsonl` file, with the catalog of its set. */
function* shippedModels(): Generator<{ label: string; model: MilpModel }> {
  const catalogs = new Map<string, Catalog>();
  const catalogOf = (set: string) => catalogs.get(set) ?? catalogs.set(set, flowCatalog(set)).get(set)!;
  for (const file of readdirSync('benchmarks/data')
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const lines = readFileSync(join('benchmarks/data', file), 'utf8').split('\n');
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const record = JSON.parse(line) as { id: string; set: string; sequence: never };
      yield {
        label: `${file} ${record.id}`,
        model: compileFor(record.sequence, catalogOf(record.set)).model,
      };
    }
  }
}

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

  it('reads every shipped benchmark model back as itself, in both formats; a spread sample solves to the same optimum', async () => {
    // Reading back is cheap, solving is not: the read-back model is compared with the original term by
    // term on every model (identical models have the same optimum under any solver), and every 10th model
    // of each file is also solved from both texts against the original.
    let models = 0;
    let solved = 0;
    let file = '';
    let inFile = 0;
    for (const { label, model } of shippedModels()) {
      const name = label.split(' ')[0];
      inFile = name === file ? inFile + 1 : 0;
      file = name;
      for (const format of ['lp', 'mps'] as const) {
        const text = format === 'lp' ? toLpText(model) : toMpsText(model);
        const difference = readBackDifference(model, text, format);
        if (difference !== null) expect(difference, `${label} ${format}`).toBeNull();
      }
      if (inFile % 10 === 0) {
        await expectSameOptimum(model, label);
        solved++;
      }
      models++;
    }
    expect(models).toBeGreaterThan(3700);
    expect(solved).toBeGreaterThan(370);
  }, 300_000);
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

  it('refuses --fixes: the models of the next repairs hold cuts of optima no export has', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-export-'));
    const input = join(dir, 'one.txt');
    writeFileSync(input, broken);
    const r = await runCommands([registerExport], ['export', input, '--catalog', catalog, '--fixes', '3']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--fixes: export writes the model of the first repair/);
  });

  it('into a folder, leaves an unreadable record out and names it, writes the rest, and exits 2; --heal reads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-export-'));
    const input = join(dir, 'mixed.jsonl');
    const bad = [
      { type: 'function', function: { name: 'SkyScrapperSearchAirport', arguments: '{"query": "x"' } },
    ];
    writeFileSync(
      input,
      `${JSON.stringify({ id: 'good', sequence: broken })}\n${JSON.stringify({ id: 'bad', sequence: bad })}\n`,
    );
    const out = join(dir, 'models');
    const r = await runCommands([registerExport], ['export', input, '--catalog', catalog, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^refract export: 1 model written to .*; 1 unreadable record left out \(first: record bad: line 2: /,
    );
    expect(readdirSync(out).sort()).toEqual(['good.lp', 'good.mps', 'models.jsonl']);
    const healed = await runCommands(
      [registerExport],
      ['export', input, '--catalog', catalog, '--out', out, '--heal'],
    );
    expect(healed.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['bad.lp', 'bad.mps', 'good.lp', 'good.mps', 'models.jsonl']);
  });

  it('refuses two records of one id (1 and "1" alike): the index would leave a model out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-export-'));
    const input = join(dir, 'twice.jsonl');
    const line = (id: unknown) => JSON.stringify({ id, sequence: broken });
    writeFileSync(input, `${line(1)}\n${line('1')}\n`);
    const r = await runCommands(
      [registerExport],
      ['export', input, '--catalog', catalog, '--out', join(dir, 'm')],
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/input: record id "1" appears twice/);
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
    expect(text).toContain(`repair cost = objective + ${first.offset}, less the tie-breaks`);
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
    // The objective also holds the tie-breaks of the chosen variables (under 0.0001 each).
    const ties = back.objective + first.offset - repaired.cost;
    expect(ties).toBeGreaterThan(0);
    expect(ties).toBeLessThan(0.0001 * first.vars);
    // Exported again into the same folder with --id, one model is replaced and the index keeps the others.
    const ids = manifest.map((m) => m.id);
    const again = await runCommands(
      [registerExport],
      ['export', 'samples/broken-nestful.jsonl', '--catalog', catalog, '--out', out, '--id', ids[1]],
    );
    expect(again.code).toBe(0);
    const after = readFileSync(join(out, 'models.jsonl'), 'utf8').trim().split('\n');
    expect(after.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(ids);
  });
});
