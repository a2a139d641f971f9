import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { countRecords } from '../src/batch/count.ts';
import { progressText } from '../src/batch/progress.ts';
import { ReorderBuffer } from '../src/batch/reorder.ts';
import { cutTornLine, PriorResults } from '../src/batch/resume.ts';
import { checkStepByStep } from '../src/batch/step-by-step.ts';
import { outcomeOf, SummaryAccumulator } from '../src/batch/summary.ts';
import { summaryLine, summaryMarkdown } from '../src/batch/summary-report.ts';
import type { Outcome } from '../src/batch/types.ts';
import { corrupt, executable, GOLD, seq } from './helpers.ts';
import { tempDir } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('step-by-step checking', () => {
  it('reports the first call that cannot run with the memory the earlier calls leave', () => {
    const broken = seq(corrupt(GOLD, 'destinationSkyId="$var2.skyId$"', 'destinationSkyId="$var9.skyId$"'));
    const report = checkStepByStep(broken, executable);
    // Steps are numbered from 1: the third call cannot run.
    expect(report.firstFailingStep).toBe(3);
    expect(report.steps.map((s) => s.valid)).toEqual([true, true, false, true, true, true]);
    expect(report.steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(report.steps[2].issues.map((x) => [x.tag, x.step])).toEqual([['unknown_label', 3]]);
    expect(checkStepByStep(seq(GOLD), executable).firstFailingStep).toBeNull();
  });

  it('treats a label defined only later as missing at the step that uses it', () => {
    const swapped = GOLD.split('\n');
    [swapped[0], swapped[2]] = [swapped[2], swapped[0]];
    const report = checkStepByStep(seq(swapped.join('\n')), executable);
    expect(report.firstFailingStep).toBe(1);
    expect(report.steps[0].issues.map((x) => x.tag)).toContain('unknown_label');
    expect(report.steps.slice(1).every((s) => s.valid)).toBe(true);
  });

  it('uses the given memory', () => {
    const lone = seq(
      'var3 = TripadvisorSearchHotels(geoId="$var4.geoId$", checkIn="2024-08-15", checkOut="2024-08-18")',
    );
    expect(checkStepByStep(lone, executable).firstFailingStep).toBe(1);
    expect(checkStepByStep(lone, executable, { memory: { var4: { geoId: 1 } } }).firstFailingStep).toBeNull();
  });
});

const outcome = (id: string, status: Outcome['status'], extra: Partial<Outcome> = {}): Outcome => ({
  id,
  status,
  success: status === 'valid',
  inputLength: 4,
  outputLength: 4,
  edits: 0,
  timeMs: 1,
  issues: [],
  ...extra,
});

describe('summary', () => {
  it('counts statuses, rates, latency percentiles, tags, failing APIs and the most edited records', () => {
    const acc = new SummaryAccumulator({ top: 2 });
    for (let i = 1; i <= 6; i++) acc.add(outcome(`v${i}`, 'valid', { timeMs: i }));
    const err = (tag: Outcome['issues'][number]['tag'], api?: string) => ({
      tag,
      severity: 'error' as const,
      api,
    });
    acc.add(
      outcome('a', 'repaired', {
        success: true,
        inputLength: 5,
        outputLength: 4,
        edits: 3,
        timeMs: 100,
        issues: [err('unknown_api', 'Foo'), err('unknown_label', 'Foo')],
      }),
    );
    acc.add(
      outcome('b', 'repaired', {
        inputLength: 3,
        outputLength: 4,
        edits: 5,
        timeMs: 10,
        issues: [err('unknown_api', 'Bar')],
      }),
    );
    acc.add(
      outcome('c', 'repaired', {
        success: true,
        inputLength: 2,
        outputLength: 2,
        edits: 3,
        timeMs: 7,
        issues: [err('unknown_label', 'Foo'), { tag: 'type_mismatch', severity: 'warning', api: 'Foo' }],
      }),
    );
    acc.add(
      outcome('d', 'error', { inputLength: 0, outputLength: 0, timeMs: 0, reason: 'line 9: not JSON' }),
    );
    const s = acc.result();
    expect(s.records).toBe(10);
    expect(s.statuses).toEqual({
      valid: 6,
      repaired: 3,
      partial: 0,
      uncertain: 0,
      exhausted: 0,
      timeout: 0,
      error: 1,
    });
    expect(s.successRate).toBeCloseTo(0.8);
    expect(s.lengthRatio).toBeCloseTo(10 / 10);
    // Latencies 1..6, 100, 10, 7 (the error line never reached the repair), nearest rank of 9 samples.
    expect(s.latencyMs).toEqual({ p50: 5, p90: 100, p99: 100, max: 100 });
    expect(s.issueTags).toEqual({ unknown_api: 2, unknown_label: 2 });
    expect(s.warningTags).toEqual({ type_mismatch: 1 });
    expect(s.failingApis).toEqual([
      { api: 'Foo', errors: 3, tags: { unknown_label: 2, unknown_api: 1 } },
      { api: 'Bar', errors: 1, tags: { unknown_api: 1 } },
    ]);
    expect(s.mostEdits).toEqual([
      { id: 'b', edits: 5 },
      { id: 'a', edits: 3 },
    ]);
    expect(summaryLine(s)).toBe(
      '10 records: 6 valid, 3 repaired, 0 partial, 0 uncertain, 0 exhausted, 0 timeout, 1 error; success 80.0%; repaired plans same length; most records without a repair: 1 error, not JSON; p50 5.00 ms, p90 100 ms, p99 100 ms, max 100 ms',
    );
    const md = summaryMarkdown(s);
    // Where in the input a reason was found is the record's: one slip on many lines is one reason.
    const slips = new SummaryAccumulator();
    for (const [i, at] of [3, 9, 40].entries())
      slips.add(
        outcome(`e${i}`, 'error', {
          inputLength: 0,
          outputLength: 0,
          timeMs: 0,
          reason: `line ${at}: invalid JSON (position ${at * 7})`,
        }),
      );
    expect(slips.result().failures).toEqual([
      { status: 'error', reason: 'invalid JSON (position N)', records: 3, first: 'e0' },
    ]);
    // Nor are the call's place, id and API: malformed arguments on many records are one reason.
    const calls = new SummaryAccumulator();
    for (const [i, [at, id, api]] of [
      [0, 'call_KzlNfoFalH', 'get_forecast'],
      [2, 'call_V1UGm7DM1H', 'log_activity'],
    ].entries())
      calls.add(
        outcome(`c${i}`, 'error', {
          inputLength: 0,
          outputLength: 0,
          timeMs: 0,
          reason:
            `line ${i + 4}: sequence.tool_calls[${at}].function.arguments: arguments of call ${Number(at) + 1} ` +
            `(id "${id}") to ${api} are not valid JSON (Expected ',' or '}' after property value in JSON at position ${30 + i})`,
        }),
      );
    expect(calls.result().failures).toEqual([
      {
        status: 'error',
        reason:
          'sequence.tool_calls[N].function.arguments: arguments of call N (id "…") to … are not valid JSON ' +
          "(Expected ',' or '}' after property value in JSON at position N)",
        records: 2,
        first: 'c0',
      },
    ]);
    expect(md).toContain('| 10 | 6 | 3 | 0 | 0 | 0 | 0 | 1 | 80.0% | 1.000 (same length) |');
    expect(md).toContain('| `Foo` | 3 | unknown_label 2, unknown_api 1 |');
  });

  it('says why records got no repair: the most frequent reasons first, the distinct ones bounded', () => {
    const acc = new SummaryAccumulator({ top: 2, maxReasons: 2 });
    const noCatalog = 'no catalog: pass --catalog or give the record a catalog';
    acc.add(outcome('a', 'timeout', { reason: 'time limit of 10 ms reached' }));
    for (const id of ['b', 'c', 'd']) acc.add(outcome(id, 'error', { reason: noCatalog }));
    acc.add(outcome('e', 'error', { reason: 'a | b\nc' }));
    acc.add(outcome('f', 'error', { reason: 'never seen before' }));
    acc.add(outcome('g', 'repaired', { reason: 'not a failure' }));
    const s = acc.result();
    // Two distinct reasons are tracked: the two later ones are pooled, and the top two listed.
    expect(s.failures).toEqual([
      { status: 'error', reason: noCatalog, records: 3, first: 'b' },
      { status: 'error', reason: '(other reasons)', records: 2, first: 'e' },
    ]);
    const all = new SummaryAccumulator({ maxReasons: 2 });
    for (const id of ['a', 'b', 'c']) all.add(outcome(id, 'error', { reason: `reason ${id}` }));
    expect(all.result().failures.map((f) => [f.reason, f.records])).toEqual([
      ['reason a', 1],
      ['reason b', 1],
      ['(other reasons)', 1],
    ]);
    expect(summaryLine(s)).toContain(`; most records without a repair: 3 error, ${noCatalog};`);
    const long = new SummaryAccumulator();
    long.add(outcome('l', 'error', { reason: 'x'.repeat(1000) }));
    expect(long.result().failures[0].reason).toBe(`${'x'.repeat(299)}…`);
    const md = summaryMarkdown(new SummaryAccumulator().result());
    expect(md).not.toContain('## Why records got no repair');
    const piped = new SummaryAccumulator();
    piped.add(outcome('e', 'error', { reason: 'a | b\nc' }));
    expect(summaryMarkdown(piped.result())).toContain(
      '## Why records got no repair\n\n| status | reason | records | first record |\n| --- | --- | --- | --- |\n| error | a \\| b c | 1 | `e` |',
    );
  });

  it('keeps latency samples bounded and exact extremes', () => {
    const acc = new SummaryAccumulator({ reservoir: 100 });
    for (let i = 1; i <= 10_000; i++) acc.add(outcome(String(i), 'valid', { timeMs: i }));
    const l = acc.result().latencyMs!;
    expect(l.max).toBe(10_000);
    expect(l.p50).toBeGreaterThan(2_500);
    expect(l.p50).toBeLessThan(7_500);
  });

  it('digests a result line with the APIs of the input steps', () => {
    const record = { id: 'x', sequence: seq(GOLD) };
    const line = {
      id: 'x',
      status: 'repaired',
      sequence: [{}, {}],
      edits: [{}],
      timeMs: 2,
      isExecutable: true,
      issues: [{ tag: 'unknown_api', severity: 'error', step: 3 }],
    };
    expect(outcomeOf(record, line)).toEqual({
      id: 'x',
      status: 'repaired',
      success: true,
      inputLength: 6,
      outputLength: 2,
      edits: 1,
      timeMs: 2,
      issues: [{ tag: 'unknown_api', severity: 'error', api: 'SkyScrapperFlightSearch' }],
    });
    // The reason is read for a record that got no repair, not for one held back or repaired.
    const failed = { id: 'y', status: 'timeout', sequence: null, timeMs: 5, reason: 'time limit' };
    expect(outcomeOf(record, failed).reason).toBe('time limit');
    expect(
      outcomeOf(record, { ...line, status: 'uncertain', reason: 'confidence 0.5' }).reason,
    ).toBeUndefined();
  });
});

describe('batch plumbing', () => {
  it('puts results back into input order', () => {
    const out: number[] = [];
    const buffer = new ReorderBuffer<number>((x) => out.push(x));
    for (const seqNo of [2, 0, 3, 1, 5, 4]) buffer.put(seqNo, seqNo * 10);
    expect(out).toEqual([0, 10, 20, 30, 40, 50]);
    expect(buffer.held).toBe(0);
    expect(() => buffer.put(1, 0)).toThrow(/twice/);
  });

  it('cuts a torn last line and reads earlier results back', async () => {
    const path = tmp.file('torn.jsonl');
    writeFileSync(path, '{"id":"a","status":"valid"}\n{"id":"b","status":"valid"}\n{"id":"c","sta');
    expect(await cutTornLine(path)).toBe(14);
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a","status":"valid"}\n{"id":"b","status":"valid"}\n');
    expect(await cutTornLine(path)).toBe(0);
    const prior = new PriorResults(path);
    const a = (await prior.next())!;
    expect(() => prior.expect(a, 'a')).not.toThrow();
    const b = (await prior.next())!;
    expect(() => prior.expect(b, 'x')).toThrow(/line 2 holds record "b" where the input has "x"/);
    expect(await prior.next()).toBeUndefined();
    prior.close();
    writeFileSync(path, 'no newline at all');
    await cutTornLine(path);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('counts the records of a JSONL file, not of a JSON document', async () => {
    const jsonl = tmp.file('count.jsonl');
    writeFileSync(jsonl, '{"id":1}\n{"id":2}\n{"id":3}');
    expect(await countRecords(jsonl)).toBe(3);
    // Blank lines are no records: progress would end at 3/5.
    writeFileSync(jsonl, '{"id":1}\n\n{"id":2}\r\n \t\r\n{"id":3}\n\n');
    expect(await countRecords(jsonl)).toBe(3);
    const doc = tmp.file('count.json');
    writeFileSync(doc, '[\n  {"id": 1},\n  {"id": 2}\n]\n');
    expect(await countRecords(doc)).toBeUndefined();
  });

  it('formats progress with and without a known total', () => {
    expect(progressText({ done: 50, total: 200, rate: 25 }, true)).toBe(
      '[######------------------] 25% 50/200 records 25 rec/s ETA 0:06',
    );
    expect(progressText({ done: 50, rate: 2.5 }, false)).toBe('50 records 2.5 rec/s');
  });
});
