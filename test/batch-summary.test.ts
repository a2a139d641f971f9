import { describe, expect, it } from 'vitest';
import { renderSvg } from '../src/batch/plot.ts';
import { outcomeOf, SummaryAccumulator } from '../src/batch/summary.ts';
import { summaryChart } from '../src/batch/summary-chart.ts';
import { lengthChange, summaryLine, summaryMarkdown } from '../src/batch/summary-report.ts';
import type { Outcome } from '../src/batch/types.ts';
import { GOLD, seq } from './helpers.ts';
import { parseRecords } from '../src/read/records.ts';

const ask = (slot: string) => ({ name: 'ask', arguments: { slot }, label: slot });

describe('labelled records', () => {
  it('read their gold and their mistake kinds, as a list or joined by +', () => {
    const [a, b, c] = parseRecords(
      [
        JSON.stringify({ id: 'a', sequence: GOLD, gold: GOLD, kinds: ['param_name', 'ref_label'] }),
        JSON.stringify({ id: 'b', sequence: GOLD, gold: GOLD, kind: 'api_name+ref_label' }),
        JSON.stringify({ id: 'c', sequence: GOLD, kinds: 7 }),
      ].join('\n'),
    );
    expect(a.gold).toEqual(seq(GOLD));
    expect(a.kinds).toEqual(['param_name', 'ref_label']);
    expect(b.kinds).toEqual(['api_name', 'ref_label']);
    expect(c.error).toMatch(/^line 3: kinds: /);
  });
});

describe('batch summary: what the repairs did', () => {
  it('digests edit kinds and asked parameters from a result line', () => {
    const line = {
      id: 'x',
      status: 'repaired',
      sequence: [ask('date'), {}, ask('query')],
      edits: [{ kind: 'slotFill' }, { kind: 'slotFill' }, { kind: 'renameParam' }],
      isExecutable: false,
      timeMs: 1,
    };
    const outcome = outcomeOf({ id: 'x', sequence: seq(GOLD) }, line);
    expect(outcome.editKinds).toEqual({ slotFill: 2, renameParam: 1 });
    expect(outcome.askedSlots).toEqual(['date', 'query']);
  });

  it('counts edits by kind, asks per answered record and the parameters asked for most', () => {
    const acc = new SummaryAccumulator();
    const add = (id: string, status: Outcome['status'], extra: Partial<Outcome>) =>
      acc.add({
        id,
        status,
        success: true,
        inputLength: 4,
        outputLength: 5,
        edits: 0,
        timeMs: 1,
        issues: [],
        ...extra,
      });
    add('a', 'repaired', { editKinds: { slotFill: 1, insertCall: 1 }, askedSlots: ['date'], edits: 2 });
    add('b', 'repaired', { editKinds: { slotFill: 3 }, askedSlots: ['date', 'date', 'geoId'], edits: 3 });
    add('c', 'valid', {});
    add('d', 'error', { outputLength: 0 });
    const s = acc.result();
    expect(s.editKinds).toEqual({ slotFill: 4, insertCall: 1 });
    expect(Object.keys(s.editKinds)).toEqual(['slotFill', 'insertCall']);
    expect(s.asksPerRecord).toEqual({ '0': 1, '1': 1, '2': 0, '3+': 1 });
    expect(s.askedSlots).toEqual([
      { slot: 'date', asks: 3 },
      { slot: 'geoId', asks: 1 },
    ]);
    // 10 steps out for 8 in: plans got longer, and the summary says so.
    expect(s.lengthRatio).toBeCloseTo(1.25);
    expect(summaryLine(s)).toContain('repaired plans 25.0% longer');
    expect(summaryLine(s)).not.toContain('compression');
    const md = summaryMarkdown(s, 'summary.svg');
    expect(md).toContain('| 1.250 (25.0% longer) |');
    expect(md).toContain('## Edits by kind');
    expect(md).toContain('| `date` | 3 |');
    expect(md).toContain('![batch summary](summary.svg)');
  });

  it('says shorter, longer or same length', () => {
    expect(lengthChange(1.057)).toBe('5.7% longer');
    expect(lengthChange(0.8)).toBe('20.0% shorter');
    expect(lengthChange(1)).toBe('same length');
  });

  it('charts edits and asks on axes from zero', async () => {
    const acc = new SummaryAccumulator();
    acc.add({
      id: 'a',
      status: 'repaired',
      success: false,
      inputLength: 3,
      outputLength: 4,
      edits: 1,
      editKinds: { slotFill: 1 },
      askedSlots: ['date'],
      timeMs: 1,
      issues: [],
    });
    const spec = summaryChart(acc.result());
    const svg = await renderSvg(spec);
    expect(svg).toContain('slotFill');
    expect(svg).toContain('Asks per answered record');
    const panels = (spec as { hconcat: { encoding: { x: { scale: { zero: boolean } } } }[] }).hconcat;
    expect(panels.every((p) => p.encoding.x.scale.zero)).toBe(true);
    // Repairs that carry a confidence add a panel of them per band.
    acc.add({
      id: 'c',
      status: 'repaired',
      success: true,
      inputLength: 2,
      outputLength: 2,
      edits: 1,
      confidence: 0.85,
      timeMs: 1,
      issues: [],
    });
    const withConfidence = await renderSvg(summaryChart(acc.result()));
    expect(withConfidence).toContain('Repairs by confidence (expected wrong 0.1)');
  });
});
