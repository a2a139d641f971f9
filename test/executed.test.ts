/**
 * The calls already executed as an input: the tries limit (`maxTries`, status `exhausted`, exit code 4), the
 * reuse of an executed result that memory holds, and the pass-through of both by the agent hook.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { registerFix } from '../src/cli/fix.ts';
import { registerBatch } from '../src/cli/batch.ts';
import { formatStringForm } from '../src/read/sequence.ts';
import { tempDir } from './fixtures/batch/records.ts';
import { checkToolCalls } from '../src/agents/hook.ts';
import { checkToolCalls as libraryCheck, type ToolCall } from '../src/index.ts';
import { repair } from '../src/repair/repair.ts';
import { validate } from '../src/validate/validate.ts';
import { callKeys } from '../src/validate/tries.ts';
import { holdsNothing } from '../src/validate/outputs.ts';
import type { Json } from '../src/model/types.ts';
import { parseStringForm } from '../src/read/string-form.ts';
import { parseExecuted } from '../src/read/sequence.ts';
import { runCommands } from './cli-run.ts';
import { makeCall, requestSettings, runCall } from '../src/api/call.ts';
import { executable } from './helpers.ts';

const CATALOG = 'data/nestful/executable-spec.json';
const EXECUTED = parseStringForm(
  'var1 = SkyScrapperSearchAirport(query="New York")\nvar3 = SkyScrapperSearchAirport(query="New York")',
);
const PLAN = parseStringForm(
  'var5 = SkyScrapperSearchAirport(query="New York")\n' +
    'var6 = SkyScrapperFlightSearch(originSkyId="$var5.skyId$", destinationSkyId="LOND", ' +
    'originEntityId="$var5.entityId$", destinationEntityId="27544008", date="2024-08-15")',
);
afterEach(() => vi.restoreAllMocks());
const tmp = tempDir();
afterAll(() => tmp.remove());

describe('tries', () => {
  it('a call is its API and arguments with references read as the calls they come from', () => {
    const keys = callKeys(
      parseStringForm('var1 = A(q="x")\nvar2 = B(id="$var1.id$")'),
      parseStringForm('var3 = A(q="x")\nvar4 = B(id="$var3.id$")\nvar5 = B(id="$var9.id$")'),
    );
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[1]);
    expect(keys[4]).not.toBe(keys[1]);
  });

  it('two asks for one slot are two values: the calls they feed are not one call run twice', async () => {
    // Both airports of a flight were lost: each restored search asks for its own query.
    const flight = parseStringForm(
      'var3 = SkyScrapperFlightSearch(originSkyId="$var1.skyId$", destinationSkyId="$var2.skyId$", ' +
        'originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15")',
    );
    const r = await repair(flight, executable, { maxTries: 1 });
    expect(r.status).toBe('repaired');
    expect(formatStringForm(r.sequence)).toContain('SkyScrapperSearchAirport(query="$query_2$")');
  });

  it('the validator reports a run beyond maxTries, and only with a limit', () => {
    expect(validate(PLAN, executable, { executed: EXECUTED }).valid).toBe(true);
    expect(validate(PLAN, executable, { executed: EXECUTED, maxTries: 3 }).valid).toBe(true);
    const over = validate(PLAN, executable, { executed: EXECUTED, maxTries: 2 });
    expect(over.issues.map((i) => [i.tag, i.step])).toEqual([['tries_exceeded', 0]]);
  });

  it('no repair keeps to the limit: status exhausted, the calls over it, the reason; hook: not executable', async () => {
    const r = await repair(PLAN, executable, { executed: EXECUTED, maxTries: 2 });
    expect(r.status).toBe('exhausted');
    expect(r.determination).toBe(false);
    expect(r.exhausted).toEqual([{ step: 0, name: 'SkyScrapperSearchAirport', tries: 3, executed: 2 }]);
    expect(r.reason).toContain('maxTries 2');
    // Over its tries, the plan is not run as it stands: a gate on isExecutable holds it back.
    expect(r.isExecutable).toBe(false);
    const calls = PLAN.map((s, i) => ({
      id: `c${i}`,
      type: 'function',
      function: { name: s.name, arguments: JSON.stringify(s.arguments) },
      label: s.label,
    }));
    const check = await checkToolCalls(calls, { catalog: executable, executed: EXECUTED, maxTries: 2 });
    expect(check.executable).toBe(false);
    expect(check.repair?.status).toBe('exhausted');
    expect(check.feedback).toContain('tries_exceeded');
  });

  it('a repeat goes when memory holds the executed result; the hook passes memory and executed through', async () => {
    const memory = { var1: {}, var3: { skyId: 'NYCA', entityId: '27537542' } };
    const r = await repair(PLAN, executable, { executed: EXECUTED, memory, maxTries: 2 });
    expect(r.status).toBe('repaired');
    expect(r.sequence.map((s) => s.name)).toEqual(['SkyScrapperFlightSearch']);
    expect(r.sequence[0].arguments.originSkyId).toBe('$var3.skyId$');
    // The model's calls, unlabelled: their labels skip the executed calls' (var1, var3), so the search is
    // var2 and the flight search, which reads it, var4.
    const calls = PLAN.map((s, i) => ({
      id: `c${i}`,
      type: 'function',
      function: {
        name: s.name,
        arguments: JSON.stringify(s.arguments).replaceAll('var5', 'var2'),
      },
    }));
    const check = await checkToolCalls(calls, {
      catalog: executable,
      executed: EXECUTED,
      memory,
      maxTries: 2,
    });
    expect(check.sequence.map((s) => s.label)).toEqual(['var4']);
    expect(check.executable).toBe(true);
    expect(check.calls.map((c) => c.function.name)).toEqual(['SkyScrapperFlightSearch']);
    expect(JSON.parse(check.calls[0].function.arguments).originSkyId).toBe('$var3.skyId$');
  });

  it('refract fix --executed --max-tries: exit 4; a bad --max-tries is exit 2 naming the flag', async () => {
    vi.spyOn(console, 'log').mockImplementation((...parts) => process.stdout.write(`${parts.join(' ')}\n`));
    const args = ['fix', '-c', CATALOG, '--executed', 'samples/executed-calls.txt', '--format', 'json'];
    const r = await runCommands([registerFix], [...args, '--max-tries', '2', 'samples/retry-plan.txt']);
    expect(r.code).toBe(4);
    const json = JSON.parse(r.out) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'exhausted', isExecutable: false });
    // The calls over the limit are in the answer, numbered as steps are.
    expect(json.exhausted).toEqual([
      { step: 1, name: 'SkyScrapperSearchAirport', tries: 3, executed: 2 },
      { step: 2, name: 'SkyScrapperFlightSearch', tries: 3, executed: 2 },
    ]);
    // compress keeps the plan's goals, which need the calls the limit would take away: exhausted too, not a
    // solver fault.
    const compress = await runCommands(
      [registerFix],
      ['compress', ...args.slice(1), '--max-tries', '2', 'samples/retry-plan.txt'],
    );
    expect(compress.code).toBe(4);
    expect(JSON.parse(compress.out)).toMatchObject({ status: 'exhausted', exhausted: json.exhausted });
    const bad = await runCommands([registerFix], [...args, '--max-tries', '0', 'samples/retry-plan.txt']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--max-tries');
  });

  it('refract batch: a record carries its own executed calls; an exhausted record has its count and exit 4', async () => {
    const sequence = formatStringForm(PLAN);
    const executed = formatStringForm(EXECUTED);
    const input = tmp.file('executed.jsonl');
    writeFileSync(
      input,
      [
        { id: 'fresh', sequence },
        { id: 'retried', sequence, executed },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const out = tmp.file('executed-out.jsonl');
    const r = await runCommands(
      [registerBatch],
      ['batch', input, '-c', CATALOG, '--max-tries', '2', '--out', out],
    );
    expect(r.code).toBe(4);
    expect(r.err).toContain('1 valid, 0 repaired, 0 partial, 0 uncertain, 1 exhausted');
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; status: string });
    expect(lines.map((l) => [l.id, l.status])).toEqual([
      ['fresh', 'valid'],
      ['retried', 'exhausted'],
    ]);
  });
});

describe('labels the run holds: memory items and executed calls', () => {
  const memory = {
    var1: { skyId: 'NYCA', entityId: '27537542' },
    var2: { skyId: 'LOND', entityId: '27544008' },
  };
  const ran =
    'var1 = SkyScrapperSearchAirport(query="New York")\nvar2 = SkyScrapperSearchAirport(query="London")';
  const flight = (origin: string) =>
    `SkyScrapperFlightSearch(originSkyId="$${origin}.skyId$", destinationSkyId="$var2.skyId$", ` +
    `originEntityId="$${origin}.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15")`;
  const answer = async (request: Record<string, unknown>, input: unknown) => {
    const settings = requestSettings('fix', request, { files: true });
    return runCall(makeCall(settings, { input, catalog: executable }));
  };

  it('a call that takes a held label is a duplicate_label; the repair relabels it and its readers follow', async () => {
    const executed = parseStringForm(ran);
    // The plan searches Paris under var1, which the run holds for New York: the flight means Paris.
    const plan = parseStringForm(`var1 = SkyScrapperSearchAirport(query="Paris")\nvar3 = ${flight('var1')}`);
    const issues = validate(plan, executable, { memory, executed }).issues;
    expect(issues).toEqual([
      {
        tag: 'duplicate_label',
        severity: 'error',
        step: 0,
        message: "label var1 is already a memory item's",
      },
    ]);
    const onlyRan = validate(plan, executable, { executed }).issues[0].message;
    expect(onlyRan).toBe("label var1 is already an executed call's");
    const r = await repair(plan, executable, { memory, executed });
    expect(r.status).toBe('repaired');
    expect(r.edits.map((e) => e.kind)).toEqual(['relabel']);
    expect(formatStringForm(r.sequence)).toBe(
      `var4 = SkyScrapperSearchAirport(query="Paris")\nvar3 = ${flight('var4')}`,
    );
  });

  it('an ask whose answer memory now holds under its label is no duplicate label (it reads back)', async () => {
    const asked = parseStringForm(
      'time = ask(slot="time")\nvar1 = RedditTopPostsBySubreddit(subreddit="travel", time="$time$")',
    );
    expect(validate(asked, executable, { memory: { time: 'week' } }).valid).toBe(true);
    expect((await repair(asked, executable, { memory: { time: 'week' } })).status).toBe('valid');
  });

  it('an executed call whose result memory does not carry is still read by the plan, never run again', async () => {
    const executed = parseStringForm(ran);
    const plan = parseStringForm(`var3 = ${flight('var1')}`);
    expect(validate(plan, executable, { executed }).valid).toBe(true);
    // With a mistake beside: the repair mends it and reads the executed calls; it restores no search.
    const typo = parseStringForm(
      `var3 = ${flight('var1').replace('SkyScrapperFlightSearch', 'SkyScraperFlightSearch')}`,
    );
    const r = await repair(typo, executable, { executed });
    expect(r.edits.map((e) => e.kind)).toEqual(['renameApi']);
    expect(formatStringForm(r.sequence)).toBe(`var3 = ${flight('var1')}`);
    // A result of nothing but nulls holds nothing; an empty list or object in a field is a value.
    expect(
      ([{ skyId: null }, { a: { b: null } }, {}, [], null] as Json[]).map((v) => holdsNothing(v)),
    ).toEqual([true, true, true, true, true]);
    expect(
      ([{ news: [] }, { a: {} }, { skyId: 'NYCA' }, [null]] as Json[]).map((v) => holdsNothing(v)),
    ).toEqual([false, false, false, false]);
    // Nothing of the result is known: a repeat of the call is no reuse of it (it returned no value here).
    expect((await repair(parseStringForm(ran), executable, { executed, maxTries: 1 })).status).toBe(
      'exhausted',
    );
  });

  it('a call that returned nothing is run again with the arguments it ran with, not asked for', async () => {
    const executed = parseStringForm(ran);
    const plan = parseStringForm(`var3 = ${flight('var1')}`);
    const r = await repair(plan, executable, { executed, memory: { var1: {}, var2: memory.var2 } });
    expect(r.status).toBe('repaired');
    expect(formatStringForm(r.sequence)).toBe(
      `var4 = SkyScrapperSearchAirport(query="New York")\nvar3 = ${flight('var4')}`,
    );
  });

  it('tool calls without labels take none the run holds; executed ones take the ids memory keeps them by', async () => {
    const call = (id: string, name: string, args: object): ToolCall => ({
      id,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    });
    const paris = [call('c9', 'SkyScrapperSearchAirport', { query: 'Paris' })];
    const labelled = await answer({ memory }, paris);
    expect(labelled.kind === 'fix' && labelled.result).toMatchObject({
      status: 'valid',
      sequence: [{ label: 'var3' }],
    });
    // Memory kept by tool-call id: the executed calls are labelled so, and a repeat reads what they returned.
    const byId = { call_ny: memory.var1, call_ld: memory.var2 };
    const executed = [
      call('call_ny', 'SkyScrapperSearchAirport', { query: 'New York' }),
      call('call_ld', 'SkyScrapperSearchAirport', { query: 'London' }),
    ];
    const plan = [
      call('call_ny2', 'SkyScrapperSearchAirport', { query: 'New York' }),
      call('call_f', 'SkyScrapperFlightSearch', {
        originSkyId: '$call_ny2.skyId$',
        destinationSkyId: '$call_ld.skyId$',
        originEntityId: '$call_ny2.entityId$',
        destinationEntityId: '$call_ld.entityId$',
        date: '2024-08-15',
      }),
    ];
    const repeated = await answer({ memory: byId, executed, maxTries: 1 }, plan);
    if (repeated.kind !== 'fix') throw new Error('expected a repair');
    expect(repeated.result.status).toBe('repaired');
    // The dropped repeat names the executed call whose result stands for it (its tool_call_id is answered so).
    expect(repeated.result.edits[0]).toMatchObject({ kind: 'deleteStep', step: 0, to: 'call_ny' });
    expect(formatStringForm(repeated.result.sequence)).toBe(
      'var2 = SkyScrapperFlightSearch(originSkyId="$call_ny.skyId$", destinationSkyId="$call_ld.skyId$", ' +
        'originEntityId="$call_ny.entityId$", destinationEntityId="$call_ld.entityId$", date="2024-08-15")',
    );
    // Memory kept by label, executed calls as bare tool calls: which result is whose is a guess, refused.
    await expect(answer({ memory, executed, maxTries: 1 }, plan)).rejects.toThrow(
      'executed[0]: a tool call without a label whose id "call_ny" memory holds nothing under: give it the label its result is stored under (the checked steps carry them), or keep results under tool-call ids',
    );
    expect(() => parseExecuted(executed, undefined).map((s) => s.label)).not.toThrow();
    // The hook takes executed tool calls too, read the same way.
    // Typed as the docs say: executed tool calls need no cast.
    const check = await libraryCheck(plan, { catalog: executable, memory: byId, executed, maxTries: 1 });
    expect(check.repair?.status).toBe('repaired');
    expect(check.calls.map((c) => c.id)).toEqual(['call_f']);
  });
});
