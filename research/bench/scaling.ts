/**
 * Scaling: repair time against sequence length (concatenated gold sequences), catalog size (cloned
 * catalogs up to 10,000 APIs) and mapping-table size (random mappings), all with HiGHS.
 */
import type { NestfulStep } from '../../src/read/sequence.ts';
import type { Catalog, Mapping } from '../../src/model/types.ts';
import { repair } from '../../src/repair/repair.ts';
import { apiByName, validate } from '../../src/validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../../src/model/constants.ts';
import { sample, warmUp, type BenchContext } from './context.ts';
import { applyMistakes } from './corrupt.ts';
import { MISTAKE_KINDS } from './mistakes.ts';
import { hashSeed, mulberry32, shuffled, type Rng } from '../../src/model/prng.ts';
import { max, median } from './stats.ts';
import { cloneCatalog, concatenateGold, randomMappings } from './synthetic.ts';

export interface Point {
  /** The x value: calls, catalog APIs, or mappings. */
  readonly x: number;
  readonly series: string;
  readonly times: number[];
  readonly vars: number[];
  /** First repair on a new catalog (builds the catalog index), catalog scaling only. */
  readonly coldMs?: number;
}

async function timedRepair(steps: NestfulStep[], catalog: Catalog, mappings?: Mapping[]) {
  const start = performance.now();
  const result = await repair(steps, catalog, { solver: 'highs', mappings });
  return { ms: performance.now() - start, vars: result.model?.vars ?? 0 };
}

/** `count` random mistakes that leave the sequence invalid (seeded by `rng`). */
export function corruptWith(rng: Rng, steps: NestfulStep[], count: number, catalog: Catalog): NestfulStep[] {
  const ctx = { apis: apiByName(catalog), resultName: DEFAULT_RESULT_NAME };
  for (let t = 0; t < 50; t++) {
    const kinds = Array.from({ length: count }, () => shuffled(rng, MISTAKE_KINDS)[0]);
    const out = applyMistakes(rng, steps, kinds, ctx);
    if (out !== null && !validate(out, catalog).valid) return out;
  }
  throw new Error(`could not corrupt a sequence of ${steps.length} steps`);
}

function executable(ctx: BenchContext) {
  return ctx.sets.find((s) => s.name === 'executable')!;
}

export async function scaleLength(ctx: BenchContext): Promise<Point[]> {
  const set = executable(ctx);
  const lengths = ctx.quick ? [5, 20, 80] : [5, 10, 20, 40, 60, 80];
  const reps = ctx.quick ? 3 : 8;
  await warmUp(ctx, { solver: 'highs' });
  const points: Point[] = [];
  for (const length of lengths) {
    const series = new Map<string, Point>();
    const add = (name: string, r: { ms: number; vars: number }) => {
      if (!series.has(name)) series.set(name, { x: length, series: name, times: [], vars: [] });
      series.get(name)!.times.push(r.ms);
      series.get(name)!.vars.push(r.vars);
    };
    for (let i = 0; i < reps; i++) {
      const rng = mulberry32(hashSeed(`length/${length}/${i}`));
      const gold = concatenateGold(rng, set.gold, length);
      add('gold (fast path)', await timedRepair(gold, set.catalog));
      add('2 mistakes', await timedRepair(corruptWith(rng, gold, 2, set.catalog), set.catalog));
      const many = Math.max(1, Math.round(length / 10));
      add(
        '1 mistake per 10 calls',
        await timedRepair(corruptWith(rng, gold, many, set.catalog), set.catalog),
      );
    }
    points.push(...series.values());
    ctx.log(`scaling length ${length}`);
  }
  return points;
}

export async function scaleCatalog(ctx: BenchContext): Promise<Point[]> {
  const set = executable(ctx);
  const base = set.catalog.apis.length;
  const sizes = ctx.quick ? [base, 1000, 10000] : [base, 100, 300, 1000, 3000, 10000];
  const records = sample(ctx.corrupted.executable, ctx.quick ? 15 : 60);
  await warmUp(ctx, { solver: 'highs' });
  const points: Point[] = [];
  for (const size of sizes) {
    const catalog = cloneCatalog(set.catalog, size);
    const cold = await timedRepair(records[0].sequence, catalog);
    const point: Point = { x: size, series: 'corrupted executable', times: [], vars: [], coldMs: cold.ms };
    for (const r of records) {
      const t = await timedRepair(r.sequence, catalog);
      point.times.push(t.ms);
      point.vars.push(t.vars);
    }
    points.push(point);
    ctx.log(`scaling catalog ${size}`);
  }
  return points;
}

export async function scaleMappings(ctx: BenchContext): Promise<Point[]> {
  const set = executable(ctx);
  const counts = ctx.quick ? [0, 100, 1000] : [0, 10, 100, 300, 1000];
  const records = sample(ctx.corrupted.executable, ctx.quick ? 15 : 60);
  await warmUp(ctx, { solver: 'highs' });
  const points: Point[] = [];
  for (const count of counts) {
    const mappings = randomMappings(mulberry32(hashSeed(`mappings/${count}`)), set.catalog, count);
    const point: Point = { x: count, series: 'corrupted executable', times: [], vars: [] };
    for (const r of records) {
      const t = await timedRepair(r.sequence, set.catalog, mappings);
      point.times.push(t.ms);
      point.vars.push(t.vars);
    }
    points.push(point);
    ctx.log(`scaling mappings ${count}`);
  }
  return points;
}

export function pointSummary(p: Point) {
  return { medianMs: median(p.times), maxMs: max(p.times), varsMedian: median(p.vars), varsMax: max(p.vars) };
}
