/**
 * `minConfidence`: a repair less likely right than the threshold is `uncertain` (kept in the result,
 * flagged; exit code 5), in the library, the CLI, the batch (its summary's bands, expected wrong repairs,
 * and a scored batch's calibration, rebuilt on resume), the agent hooks and the loop. Real solver.
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { repair } from '../src/repair/repair.ts';
import { loadCostModel, withWeights } from '../src/read/cost-models.ts';
import { parseSequenceText } from '../src/read/sequence.ts';
import { InputError } from '../src/model/errors.ts';
import { requestSettings } from '../src/api/call.ts';
import { checkCall, checkToolCalls } from '../src/agents/hook.ts';
import { createRepairToolCall } from '../src/agents/ai-sdk.ts';
import { repairToolCallsRunnable, type RepairNote } from '../src/agents/langchain.ts';
import { AIMessage } from '@langchain/core/messages';
import { milpFixer } from '../src/loop/fixers/milp.ts';
import { runBatch } from '../src/batch/run.ts';
import { CONFIDENCE_BANDS, bandName } from '../src/batch/summary.ts';
import * as library from '../src/index.ts';
import { statusExitCode } from '../src/cli/batch-shared.ts';
import { summaryLine, summaryMarkdown } from '../src/batch/summary-report.ts';
import { addToBins, emptyBins, reliability, reliabilityOfBins } from '../src/confidence/fit.ts';
import { registerFix } from '../src/cli/fix.ts';
import { runCommands, runRealCli, expectRefusal } from './cli-run.ts';
import { tempDir } from './fixtures/batch/records.ts';
import { executable } from './helpers.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const tmp = tempDir();
afterAll(() => tmp.remove());
afterEach(() => vi.restoreAllMocks());

const inputOf = (name: string) =>
  parseSequenceText(
    (JSON.parse(readFileSync(`test/cases/${name}.json`, 'utf8')) as { input: string[] }).input.join('\n'),
  );

/** A repair whose confidence is below 1 under the shipped, calibrated default. */
const missingStep = inputOf('missing-step');

describe('repair with minConfidence', () => {
  it('holds back a repair below the threshold as uncertain, the repair kept; at the threshold it is repaired', async () => {
    const plain = await repair(missingStep, executable);
    expect(plain.status).toBe('repaired');
    const c = plain.confidence!;
    expect(c).toBeGreaterThan(0);
    expect(c).toBeLessThan(1);

    const held = await repair(missingStep, executable, { minConfidence: Math.min(1, c + 0.001) });
    expect(held.status).toBe('uncertain');
    expect(held.sequence).toEqual(plain.sequence);
    expect(held.edits).toEqual(plain.edits);
    expect(held.confidence).toBe(c);
    expect(held.reason).toBe(`confidence ${c} is below minConfidence ${Math.min(1, c + 0.001)}`);

    const kept = await repair(missingStep, executable, { minConfidence: c });
    expect(kept.status).toBe('repaired');
    expect(kept.reason).toBeUndefined();
  });

  it('never holds back a valid input (confidence 1)', async () => {
    const valid = parseSequenceText('var1 = SkyScrapperSearchAirport(query="Rome")');
    expect((await repair(valid, executable, { minConfidence: 1 })).status).toBe('valid');
  });

  it('refuses a threshold it cannot honour, naming minConfidence', async () => {
    const refusal = (options: Parameters<typeof repair>[2]) => repair(missingStep, executable, options);
    await expect(refusal({ minConfidence: 0.5, cost: loadCostModel('compress') })).rejects.toThrow(
      /^minConfidence: needs a cost model with a calibration fitted for its weights .* this one has none$/,
    );
    const overridden = withWeights(loadCostModel('default'), { slotFill: 3 });
    await expect(refusal({ minConfidence: 0.5, cost: overridden })).rejects.toThrow(
      /fitted for other weights/,
    );
    await expect(refusal({ minConfidence: 0.5, confidence: false })).rejects.toThrow(
      /^minConfidence: needs the confidence/,
    );
    await expect(refusal({ minConfidence: 0.5, confidence: false })).rejects.toBeInstanceOf(InputError);
  });

  it('is refused by a request naming the field, before any sequence (HTTP, MCP, batch share this)', () => {
    expect(() => requestSettings('fix', { minConfidence: 0.9, costModel: 'hand' }, { files: false })).toThrow(
      /^minConfidence: needs a cost model/,
    );
    expect(() => requestSettings('compress', { minConfidence: 0.9 }, { files: false })).toThrow(
      /^minConfidence:/,
    );
    const settings = requestSettings('loop', { minConfidence: 0.9 }, { files: false });
    expect(settings.options.minConfidence).toBe(0.9);
  });
});

describe('refract fix --min-confidence', () => {
  it('exit code 5 for an uncertain repair, shown in the header line with the reason', async () => {
    const file = tmp.file('missing-step.txt');
    writeFileSync(
      file,
      (JSON.parse(readFileSync('test/cases/missing-step.json', 'utf8')) as { input: string[] }).input.join(
        '\n',
      ),
    );
    vi.spyOn(console, 'log').mockImplementation((...parts) => process.stdout.write(`${parts.join(' ')}\n`));
    const r = await runCommands([registerFix], ['fix', '-c', CATALOG, '--min-confidence', '0.999', file]);
    expect(r.code).toBe(5);
    expect(r.out).toMatch(/^uncertain, determination false, cost [\d.]+, optimal, confidence 0\.\d+, /);
    expect(r.out).toMatch(/\nreason: confidence 0\.\d+ is below minConfidence 0\.999\n/);
    const json = await runCommands(
      [registerFix],
      ['fix', '-c', CATALOG, '--format', 'json', '--min-confidence', '0.999', file],
    );
    expect(JSON.parse(json.out)).toMatchObject({ status: 'uncertain' });
    const low = await runCommands([registerFix], ['fix', '-c', CATALOG, '--min-confidence', '0', file]);
    expect(low.code).toBe(1);
  });

  it('a bad threshold or one without a calibration: one line naming --min-confidence, exit 2', async () => {
    const file = 'samples/wrong-label.txt';
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '--min-confidence', '1.5', file]),
      /--min-confidence: expected a number written out \(0.9, not 9e-1\) in \[0, 1\], received "1.5"/,
    );
    expectRefusal(
      await runRealCli(['fix', '-c', CATALOG, '--min-confidence', '0.9', '--cost-model', 'hand', file]),
      /--min-confidence: needs a cost model with a calibration/,
    );
    expectRefusal(
      await runRealCli(['batch', '-c', CATALOG, '--min-confidence', '0.9', '-w', 'slotFill=3', file]),
      /--min-confidence: needs a cost model .*fitted for other weights/,
    );
  });
});

describe('reliability bins', () => {
  it('kept as streaming sums give the diagram and ECE of the points', () => {
    const points = [0, 0.05, 0.1, 0.3, 0.3, 0.7, 0.7, 0.89, 0.9, 0.99, 1, 1].map((confidence, i) => ({
      confidence,
      right: i % 3 !== 0,
    }));
    const sums = emptyBins();
    for (const p of points) addToBins(sums, p);
    expect(reliabilityOfBins(sums)).toEqual(reliability(points));
    // Bin edges as the points' own comparisons put them: 0.3 in [0.3, 0.4), 1 in the last bin.
    expect(sums[3].n).toBe(2);
    expect(sums[9].n).toBe(4);
  });
});

describe('a batch with --min-confidence', () => {
  const labelled = readFileSync('samples/labelled-plans.jsonl', 'utf8').trim().split('\n').slice(0, 16);
  const input = tmp.file('labelled.jsonl');
  writeFileSync(input, labelled.join('\n') + '\n');
  const request = { catalogPath: CATALOG, minConfidence: 0.9 };

  it('counts uncertain records, the repairs per band, the expected wrong ones and the calibration; resume rebuilds them', async () => {
    const out = tmp.file('labelled-out.jsonl');
    const report = await runBatch({ input: createReadStream(input), out, request, workers: 1 });
    const s = report.summary;
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; confidence?: number });
    const repairs = lines.filter((l) => ['repaired', 'uncertain', 'partial'].includes(l.status));
    expect(lines.filter((l) => l.status === 'uncertain').every((l) => l.confidence! < 0.9)).toBe(true);
    expect(lines.filter((l) => l.status === 'repaired').every((l) => l.confidence! >= 0.9)).toBe(true);
    expect(s.statuses.uncertain).toBe(lines.filter((l) => l.status === 'uncertain').length);
    expect(s.statuses.uncertain).toBeGreaterThan(0);
    expect(s.statuses.repaired).toBeGreaterThan(0);
    expect(statusExitCode(s.statuses)).toBe(5);

    const c = s.confidence!;
    expect(c.repairs).toBe(repairs.length);
    expect(Object.keys(c.bands)).toEqual(CONFIDENCE_BANDS.map((_, i) => bandName(i)));
    // The bands are the library's too, for a reader of the summary.
    expect(library.CONFIDENCE_BANDS).toEqual([0, 0.5, 0.8, 0.9, 0.99]);
    expect(Object.values(c.bands).reduce((a, b) => a + b, 0)).toBe(repairs.length);
    const inBand = (lo: number, hi: number) =>
      repairs.filter((l) => l.confidence! >= lo && (hi === 1 ? true : l.confidence! < hi)).length;
    expect(c.bands['[0.8, 0.9)']).toBe(inBand(0.8, 0.9));
    expect(c.bands['[0.9, 0.99)']).toBe(inBand(0.9, 0.99));
    expect(c.expectedWrong).toBeCloseTo(
      repairs.reduce((a, l) => a + 1 - l.confidence!, 0),
      3,
    );

    const cal = s.scores!.calibration!;
    expect(cal.repairs).toBe(repairs.length);
    expect(cal.meanConfidence).toBeCloseTo(
      repairs.reduce((a, l) => a + l.confidence!, 0) / repairs.length,
      3,
    );
    expect(cal.ece).toBeGreaterThanOrEqual(0);
    expect(cal.bins.reduce((a, b) => a + b.n, 0)).toBe(repairs.length);

    expect(summaryLine(s)).toContain(`${s.statuses.uncertain} uncertain`);
    expect(summaryLine(s)).toContain(
      `expected wrong ${c.expectedWrong} of ${c.repairs} repairs (confidence [0, 0.5) `,
    );
    expect(summaryLine(s)).toContain(
      `calibration: mean confidence ${cal.meanConfidence} against ${(100 * cal.rightRate).toFixed(1)}% right of ${cal.repairs} repairs`,
    );
    const md = summaryMarkdown(s);
    expect(md).toContain('## Confidence of the repairs');
    expect(md).toContain('## Calibration of the confidence');

    // Resumed from the first lines: the summary is rebuilt from what was written.
    const part = tmp.file('labelled-part.jsonl');
    writeFileSync(part, readFileSync(out, 'utf8').split('\n').slice(0, 6).join('\n') + '\n');
    const resumed = await runBatch({
      input: createReadStream(input),
      out: part,
      request,
      workers: 1,
      resume: true,
    });
    const { latencyMs: _a, ...whole } = s;
    const { latencyMs: _b, ...again } = resumed.summary;
    expect(again).toEqual(whole);
  });
});

describe('the agent hook and the loop with minConfidence', () => {
  const call = (id: string, name: string, args: object) => ({
    id,
    type: 'function' as const,
    function: { name, arguments: JSON.stringify(args) },
  });
  const calls = missingStep.slice(0, -1).map((step, i) => call(`c${i}`, step.name, step.arguments));

  it('applies the repair at or above the threshold, and otherwise hands the feedback back', async () => {
    const applied = await checkToolCalls(calls, { catalog: executable });
    expect(applied.executable).toBe(true);
    const c = applied.repair!.confidence!;
    expect(c).toBeLessThan(1);
    const atIt = await checkToolCalls(calls, { catalog: executable, minConfidence: c });
    expect(atIt.executable).toBe(true);

    const held = await checkToolCalls(calls, { catalog: executable, minConfidence: 0.999 });
    expect(held.executable).toBe(false);
    expect(held.calls).toEqual([]);
    expect(held.repair?.status).toBe('uncertain');
    expect(held.feedback).toContain(`not applied: confidence ${c} is below minConfidence 0.999`);
    expect(held.feedback).toContain('repaired sequence:');
    // The issues alone (the AI SDK adapter's default) say the repair was held back too.
    const issues = await checkToolCalls(calls, {
      catalog: executable,
      minConfidence: 0.999,
      feedback: 'issues',
    });
    expect(issues.feedback).toContain(`not applied: confidence ${c} is below minConfidence 0.999`);
  });

  it('never applies a partial repair, threshold or none: it dropped a call, its confidence is 0', async () => {
    const unknown = [
      call('a', 'SkyScrapperSearchAirport', { query: 'New York' }),
      call('b', 'FrobnicateTheWidgets', { level: 3 }),
    ];
    const applied = await checkToolCalls(unknown, { catalog: executable });
    expect(applied.repair?.status).toBe('partial');
    expect(applied.repair?.confidence).toBe(0);
    // Not the plan the model wrote for, even without a threshold (as the loop never proposes one).
    expect(applied.repair?.isExecutable).toBe(false);
    expect(applied.executable).toBe(false);
    const held = await checkToolCalls(unknown, { catalog: executable, minConfidence: 0.5 });
    expect(held.repair?.status).toBe('partial');
    expect(held.executable).toBe(false);
    expect(held.calls).toEqual([]);
    expect(held.feedback).toContain('not applied: confidence 0 is below minConfidence 0.5');
    const fixer = milpFixer({ catalog: executable, repair: { minConfidence: 0.5 }, escalate: false });
    const steps = parseSequenceText(
      'var1 = SkyScrapperSearchAirport(query="New York")\nvar2 = FrobnicateTheWidgets(level=3)',
    );
    const proposal = await fixer.propose(steps, '', 0);
    expect(proposal).toMatchObject({ stalled: 'optimiser unsure: confidence 0 is below minConfidence 0.5' });
  });

  it('the optimiser fixer proposes no repair below the threshold', async () => {
    const fixer = milpFixer({ catalog: executable, repair: { minConfidence: 0.999 }, escalate: false });
    const proposal = await fixer.propose(missingStep, '', 0);
    expect(proposal).toMatchObject({ stalled: expect.stringMatching(/^optimiser unsure: confidence/) });
    const plain = await milpFixer({ catalog: executable, escalate: false }).propose(missingStep, '', 0);
    expect(Array.isArray(plain)).toBe(true);
  });

  it('the AI SDK and LangChain adapters apply no repair below it, and refuse it without a calibration', async () => {
    const misspelt = call('x', 'SkyScrapperSearchAirprot', { query: 'Rome' });
    const c = (await checkCall(misspelt, { catalog: executable })).repair!.confidence!;
    expect(c).toBeLessThan(1);
    const above = Math.min(1, c + 0.001);
    const toolCall = {
      type: 'tool-call' as const,
      toolCallId: 'x',
      toolName: 'SkyScrapperSearchAirprot',
      input: '{"query": "Rome"}',
    };
    const sdk = (minConfidence?: number) =>
      createRepairToolCall({
        catalog: executable,
        ...(minConfidence === undefined ? {} : { minConfidence }),
      })({
        toolCall,
        tools: {},
        inputSchema: async () => ({}),
        system: undefined,
        messages: [],
        error: new Error('bad') as never,
      });
    expect(await sdk()).toMatchObject({ toolName: 'SkyScrapperSearchAirport' });
    expect(await sdk(c)).toMatchObject({ toolName: 'SkyScrapperSearchAirport' });
    expect(await sdk(above)).toBeNull();

    const message = new AIMessage({
      content: '',
      tool_calls: [{ id: 'x', name: 'SkyScrapperSearchAirprot', args: { query: 'Rome' }, type: 'tool_call' }],
    });
    // The runnable checks a message's calls with insertions allowed (checkCall does not): its repair's
    // confidence is read off that model.
    const inMessage = (await checkToolCalls([misspelt], { catalog: executable })).repair!.confidence!;
    const aboveMessage = Math.min(1, inMessage + 0.001);
    const out = (await repairToolCallsRunnable(executable, { minConfidence: aboveMessage }).invoke(
      message,
    )) as AIMessage;
    const note = out.additional_kwargs.refract as RepairNote;
    expect(note.executable).toBe(false);
    expect(note.feedback).toContain(
      `not applied: confidence ${inMessage} is below minConfidence ${aboveMessage}`,
    );
    expect(out.tool_calls).toEqual(message.tool_calls);

    expect(() =>
      createRepairToolCall({ catalog: executable, minConfidence: 0.9, cost: loadCostModel('compress') }),
    ).toThrow(/^options\.minConfidence: needs a cost model/);
    expect(() => repairToolCallsRunnable(executable, { minConfidence: 2 })).toThrow(
      /^options\.minConfidence: /,
    );
  });
});
