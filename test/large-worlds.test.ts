import { describe, expect, it } from 'vitest';
import { validate } from '../src/validate/validate.ts';
import { findReferences } from '../src/read/references.ts';
import { DEFAULT_RESULT_NAME } from '../src/model/constants.ts';
import { pruneWorldCaches, shippedCatalogs, shippedRecordSets } from '../research/bench/large-data.ts';
import { largeJsonl, largeRecords, largeWorld, unionSpec } from '../research/bench/worlds/large.ts';
import { FLAT_KINDS } from '../research/bench/worlds/flat.ts';
import { everyKth, type LargeSummary } from '../research/bench/large-run.ts';
import { restorationCli } from '../research/bench/restoration-cli.ts';
import { LARGE_BEGIN, LARGE_END, largeSection, spliceLargeSection } from '../research/bench/large-report.ts';
import { InputError } from '../src/model/errors.ts';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const catalogs = shippedCatalogs();
const shippedSets = shippedRecordSets();
const SIZE = 300;
const PLANS = 40;
const world = largeWorld(SIZE, catalogs);
const records = largeRecords(world, shippedSets, PLANS);

/** `patientId`, `patient_id` and `PatientId` are one name. */
const loose = (name: string) => name.replace(/[_.]/g, '').toLowerCase();
const COMMON = new Set(world.commonNames.map((n) => loose(n.split(':')[0])));

function leaves(entry: unknown): string[] {
  const out: string[] = [];
  const walk = (props: Record<string, { properties?: Record<string, unknown> }>) => {
    for (const [name, spec] of Object.entries(props)) {
      out.push(name);
      if (spec.properties) walk(spec.properties as Record<string, { properties?: Record<string, unknown> }>);
    }
  };
  walk(
    (entry as { output_parameters: Record<string, { properties?: Record<string, unknown> }> })
      .output_parameters,
  );
  return out;
}

describe('large-catalog worlds', () => {
  it('are byte-identical on re-run, and a larger world extends a smaller one', () => {
    const again = largeWorld(SIZE, catalogs);
    expect(JSON.stringify(again.spec)).toBe(JSON.stringify(world.spec));
    expect(largeJsonl(largeRecords(again, shippedSets, PLANS))).toBe(largeJsonl(records));
    const larger = largeWorld(SIZE + 50, catalogs);
    expect(larger.spec.slice(0, SIZE)).toEqual(world.spec);
  });

  it('hold every shipped API once and distractors up to the size, each outputting a shared name', () => {
    const names = world.catalog.apis.map((a) => a.name);
    expect(names).toHaveLength(SIZE);
    expect(new Set(names).size).toBe(SIZE);
    expect(world.shipped.size).toBe(unionSpec(catalogs).length);
    const distractors = world.spec.slice(world.shipped.size);
    expect(distractors.length).toBe(SIZE - world.shipped.size);
    expect(distractors.length).toBeGreaterThan(30);
    for (const d of distractors) {
      expect(world.shipped.has((d as { name: string }).name)).toBe(false);
      expect(
        leaves(d).some((leaf) => COMMON.has(loose(leaf))),
        JSON.stringify(d),
      ).toBe(true);
    }
    // Naming styles vary: snake, camel, Title_Case and dotted names are all there.
    const styles = distractors.map((d) => (d as { name: string }).name);
    expect(styles.some((n) => /^[a-z]+(_[a-z]+)+$/.test(n))).toBe(true);
    expect(styles.some((n) => /^[a-z]+[A-Z]/.test(n))).toBe(true);
    expect(styles.some((n) => /^[A-Z][a-z]+_[A-Z]/.test(n))).toBe(true);
    expect(styles.some((n) => /^[A-Z][a-z]+\.[A-Z]/.test(n))).toBe(true);
  });

  it("records of every recipe, each gold valid and each input invalid against the world's catalog", () => {
    const recipes = new Set(records.map((r) => r.recipe));
    expect([...recipes]).toEqual(['first', 'second', 'flat']);
    // Most shipped records carry over. synthetic-ids' actions lose their names to synthetic-snake's (the
    // first spec of a name is the world's), so its records, whose golds read those actions as its own
    // catalog writes them, are left out.
    const shipped = shippedSets.reduce((n, s) => n + s.records.length, 0);
    expect(records.filter((r) => r.recipe !== 'flat').length).toBeGreaterThan(shipped * 0.85);
    expect(world.shadowed.get('synthetic-ids')?.has('get_stock_quote')).toBe(true);
    expect(records.some((r) => r.from === 'synthetic-snake')).toBe(true);
    for (const r of records) {
      const shadowed = world.shadowed.get(r.from);
      expect(
        r.gold.some((step) => shadowed?.has(step.name)),
        r.id,
      ).toBe(false);
    }
    for (const r of records) {
      expect(validate(r.gold, world.catalog).valid, r.id).toBe(true);
      expect(validate(r.sequence, world.catalog).valid, r.id).toBe(false);
    }
    expect(new Set(records.map((r) => `${r.recipe}/${r.id}`)).size).toBe(records.length);
  });

  it('flat plans are independent calls: only the answer step reads an output', () => {
    const flat = records.filter((r) => r.recipe === 'flat');
    const kinds = new Set(flat.map((r) => (r.kind.includes('+') ? 'pair' : r.kind)));
    expect([...kinds].sort()).toEqual([...FLAT_KINDS, 'pair'].sort());
    for (const r of flat) {
      const calls = r.gold.filter((s) => s.name !== DEFAULT_RESULT_NAME);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls.length).toBeLessThanOrEqual(5);
      for (const call of calls) expect(findReferences(JSON.stringify(call.arguments)), r.id).toEqual([]);
    }
    // Some plans use distractors, some shipped APIs.
    const apis = flat.flatMap((r) => r.gold.map((s) => s.name));
    expect(apis.some((n) => world.shipped.has(n))).toBe(true);
    expect(apis.some((n) => n !== DEFAULT_RESULT_NAME && !world.shipped.has(n))).toBe(true);
  });

  it('every k-th record is taken per recipe and kind, so each kind keeps its share', () => {
    const picked = everyKth(records, 4);
    const count = (xs: typeof records, recipe: string, kind: string) =>
      xs.filter((r) => r.recipe === recipe && r.kind === kind).length;
    expect(count(picked, 'flat', 'missing_param')).toBe(
      Math.ceil(count(records, 'flat', 'missing_param') / 4),
    );
    expect(everyKth(records, 1)).toEqual(records);
  });

  it('run from bench:restoration with a cost-model file: per-world rows with strangers and unsupported wirings', async () => {
    let out = '';
    const io = { out: (text: string) => (out += text), log: () => {} };
    await restorationCli(
      ['--large', '1000', '--every', '150', '--recipe', 'flat', '--cost-model', 'models/hand.json', '--json'],
      io,
    );
    const summary = JSON.parse(out) as LargeSummary;
    expect(summary).toMatchObject({ model: 'models/hand.json', every: 150, solver: 'highs' });
    const [w] = summary.worlds;
    expect(w).toMatchObject({ world: 'large-1000', apis: 1000 });
    const rows = w.recipes.flat!;
    expect(rows.at(-1)!.kind).toBe('overall');
    expect(rows.at(-1)!.n).toBe(w.measured);
    expect(rows.at(-1)!.n).toBe(rows.slice(0, -1).reduce((n, r) => n + r.n, 0));
    for (const r of rows) {
      expect(r.strangers).toBeLessThanOrEqual(r.n);
      expect(r.small).toBeNull();
      expect(r.score.restoredModuloUnknowns).toBeLessThanOrEqual(r.n);
    }
    const dir = mkdtempSync(join(tmpdir(), 'refract-large-'));
    try {
      const page = join(dir, 'restoration.md');
      writeFileSync(page, '# Restoration\n\nearlier text\n');
      spliceLargeSection(page, largeSection(summary, 'cmd'));
      spliceLargeSection(page, largeSection(summary, 'cmd'));
      const text = readFileSync(page, 'utf8');
      expect(text.startsWith('# Restoration\n\nearlier text\n')).toBe(true);
      expect(text.split(LARGE_BEGIN)).toHaveLength(2);
      expect(text).toContain(LARGE_END);
      expect(text).toMatch(/\| \*\*overall\*\* +\| +\d+ \| +\d+\.\d%/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(restorationCli(['--large', '1000', '--every', '0'], io)).rejects.toThrow(InputError);
    await expect(restorationCli(['--large', '1000', '--recipe', 'nope'], io)).rejects.toThrow(/--recipe/);
  });

  it('keep a bounded cache: a fresh key removes all but the most recent ones, never itself or other files', () => {
    const root = mkdtempSync(join(tmpdir(), 'refract-worlds-'));
    try {
      const keys = ['aaaaaaaaaaa1', 'aaaaaaaaaaa2', 'aaaaaaaaaaa3', 'aaaaaaaaaaa4'];
      keys.forEach((key, i) => {
        mkdirSync(join(root, key));
        writeFileSync(join(root, key, 'large-1000.jsonl'), '');
        utimesSync(join(root, key), 1_000 + i, 1_000 + i);
      });
      writeFileSync(join(root, 'notes.txt'), 'kept');
      // The fresh key and the two most recent others stay.
      expect(pruneWorldCaches(root, 'bbbbbbbbbbbb', 3).sort()).toEqual(['aaaaaaaaaaa1', 'aaaaaaaaaaa2']);
      expect(readdirSync(root).sort()).toEqual(['aaaaaaaaaaa3', 'aaaaaaaaaaa4', 'notes.txt']);
      expect(pruneWorldCaches(join(root, 'missing'), 'bbbbbbbbbbbb')).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
