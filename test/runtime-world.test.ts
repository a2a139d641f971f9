import { describe, expect, it } from 'vitest';
import { memoryProvides } from '../src/validate/outputs.ts';
import { segments } from '../src/read/references.ts';
import { parseSequenceText } from '../src/read/sequence.ts';
import { loadSetCatalog } from '../research/bench/data.ts';
import { benchmarkRecords } from '../research/bench/records.ts';
import { memoryValue, runtimeRecord, runtimeRecords, RUNTIME_WORLD } from '../research/bench/runtime-data.ts';
import { repairRecord } from '../research/tuning/evaluate.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import type { LabelledRecord } from '../research/tuning/dataset.ts';
import { measureRuntime, runtimeSection } from '../research/bench/runtime-report.ts';
import type { Json } from '../src/model/types.ts';

const catalog = loadSetCatalog('glaive');
const seq = (...lines: string[]) => parseSequenceText(lines.join('\n'));

/** An SMS that reads a field the encryption does not output (the gold reads `encrypted_data`). */
const record: LabelledRecord = {
  id: 'wrong-field',
  kind: 'wrong_field',
  set: 'glaive',
  catalog,
  gold: seq(
    'var1 = encrypt_data(data="Hello John", encryption_key="secret")',
    'var2 = send_sms(message="$var1.encrypted_data$", phone_number="1234567890")',
    'var_result(sms="$var2$")',
  ),
  sequence: seq(
    'var1 = encrypt_data(data="Hello John", encryption_key="secret")',
    'var2 = send_sms(message="$var1.message$", phone_number="1234567890")',
    'var_result(sms="$var2$")',
  ),
};

describe('runtime world', () => {
  it('moves the steps before the mistake into executed calls and their results into memory', () => {
    const made = runtimeRecord(record)!;
    expect(made.set).toBe(RUNTIME_WORLD);
    expect(made.id).toBe('runtime/glaive/wrong-field');
    expect(made.options?.executed).toEqual(record.gold.slice(0, 1));
    expect(made.sequence).toEqual(record.sequence.slice(1));
    expect(made.gold).toEqual(record.gold.slice(1));
    const item = made.options!.memory!.var1 as Json;
    // The item holds what the gold reads and the API's declared outputs, never the mistaken field.
    expect(memoryProvides(item, segments('encrypted_data'))).toBe(true);
    expect(memoryProvides(item, segments('message'))).toBe(false);
  });

  it('replans the whole sequence under a tries limit of 1, the repeats of the calls that ran in it', async () => {
    const made = runtimeRecord(record, 'replanned')!;
    expect(made.id).toBe('runtime/replanned/glaive/wrong-field');
    expect(made.sequence).toEqual(record.sequence);
    expect(made.gold).toEqual(record.gold.slice(1));
    expect(made.options).toMatchObject({ maxTries: 1, executed: record.gold.slice(0, 1) });
    const outcome = await repairRecord(made, loadCostModel('default'));
    expect(outcome.restored).toBe(true);
    expect(outcome.edits.map((e) => e.kind).sort()).toEqual(['deleteStep', 'fromMemory']);
  });

  it('takes no record whose mistake is in its first step, or whose rest reads nothing done', () => {
    const first: LabelledRecord = {
      ...record,
      sequence: seq(
        'var1 = encrypt_data(data="Hello John")',
        'var2 = send_sms(message="$var1.encrypted_data$", phone_number="1234567890")',
        'var_result(sms="$var2$")',
      ),
    };
    expect(runtimeRecord(first)).toBeUndefined();
    const apart: LabelledRecord = {
      ...record,
      gold: seq(
        'var1 = encrypt_data(data="a", encryption_key="k")',
        'var2 = send_sms(message="hi", phone_number="1")',
      ),
      sequence: seq('var1 = encrypt_data(data="a", encryption_key="k")', 'var2 = send_sms(message="hi")'),
    };
    expect(runtimeRecord(apart)).toBeUndefined();
  });

  it('shapes a memory item by the declared outputs and the paths read, placeholders at the leaves', () => {
    const value = memoryValue(catalog, 'encrypt_data', [['encrypted_data'], ['extra', 0, 'id']]);
    expect(value).toEqual({ encrypted_data: '<encrypted_data>', extra: [{ id: '<id>' }] });
  });

  it('draws the same records on every run, and the default repairs the SMS from memory', async () => {
    const records = benchmarkRecords().slice(0, 400);
    const a = runtimeRecords(records, 2);
    expect(a.length).toBeGreaterThan(40);
    // Both forms of each record chosen: continued first, then the same records replanned.
    const half = a.length / 2;
    expect(a[half].id).toBe(a[0].id.replace('runtime/', 'runtime/replanned/'));
    expect(a[half].gold).toEqual(a[0].gold);
    expect(a[half].options?.maxTries).toBe(1);
    expect(a[half].sequence.length).toBe(a[0].sequence.length + a[0].options!.executed!.length);
    expect(JSON.stringify(runtimeRecords(records, 2))).toBe(JSON.stringify(a));
    const outcome = await repairRecord(runtimeRecord(record)!, loadCostModel('default'));
    expect(outcome.restored).toBe(true);
    expect(outcome.edits.map((e) => e.kind)).toEqual(['fromMemory']);
  });

  it('measures the world planned against part-way through, per kind and per set, for the restoration page', async () => {
    const summary = await measureRuntime({ every: 60, solver: 'highs' });
    const overall = summary.byKind.at(-1)!;
    expect(overall.name).toBe('overall');
    expect(overall.n).toBe(summary.bySet.at(-1)!.n);
    expect(overall.n).toBeGreaterThan(30);
    expect(summary.byKind.slice(0, -1).reduce((s, r) => s + r.n, 0)).toBe(overall.n);
    // Single mistakes by name, then several, then overall.
    const kinds = summary.byKind.map((r) => r.name);
    expect(kinds.indexOf('2 mistakes')).toBeGreaterThan(kinds.indexOf('wrong_field'));
    // Most repairs restore their gold either way (no memory item is a harder mistake than a planned call).
    for (const form of [overall.continued, overall.replanned]) {
      expect(form.unknowns).toBeGreaterThan(overall.n * 0.6);
      expect(form.asksToo).toBeLessThanOrEqual(form.unknowns);
    }
    const section = runtimeSection(summary);
    expect(section).toContain('## Runtime world: memory and executed calls');
    expect(section).toContain('every 60th record');
    expect(section).toMatch(/\| \*\*overall\*\* +\| +\d+ \| +\d+\.\d% \| +\d+\.\d% \|/);
  });
});
