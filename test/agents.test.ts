import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { checkCall, checkToolCalls } from '../src/agents/hook.ts';
import { loadCostModel, withWeights } from '../src/read/cost-models.ts';
import { validate } from '../src/validate/validate.ts';
import { executable } from './helpers.ts';

const call = (id: string, name: string, args: string | object) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

const airport = (id: string, query: string) => call(id, 'SkyScrapperSearchAirport', { query });
const flight = (id: string, extra: object = {}) =>
  call(id, 'SkyScrapperFlightSearch', {
    originSkyId: '$var1.skyId$',
    destinationSkyId: '$var2.skyId$',
    originEntityId: '$var1.entityId$',
    destinationEntityId: '$var2.entityId$',
    date: '2024-08-15',
    ...extra,
  });

describe('checkToolCalls', () => {
  it('passes valid calls through unchanged, labelled var1.. by position', async () => {
    const calls = [airport('a', 'New York'), airport('b', 'London'), flight('c')];
    const check = await checkToolCalls(calls, { catalog: executable });
    expect(check.ok).toBe(true);
    expect(check.executable).toBe(true);
    expect(check.repair).toBeNull();
    expect(check.calls).toHaveLength(3);
    check.calls.forEach((c, i) => expect(c).toBe(calls[i]));
    expect(check.sequence.map((s) => s.label)).toEqual(['var1', 'var2', 'var3']);
    expect(check.feedback).toBe('valid: 0 errors, 0 warnings');
  });

  it('labels a call by its id when another call refers to it, and memory keeps its label', async () => {
    const calls = [
      airport('call_ny', 'New York'),
      airport('call_ldn', 'London'),
      call('call_f', 'SkyScrapperFlightSearch', {
        originSkyId: '$call_ny.skyId$',
        destinationSkyId: '$call_ldn.skyId$',
        originEntityId: '$call_ny.entityId$',
        destinationEntityId: '$call_ldn.entityId$',
        date: '2024-08-15',
      }),
    ];
    const check = await checkToolCalls(calls, { catalog: executable });
    expect(check.ok).toBe(true);
    expect(check.sequence.map((s) => s.label)).toEqual(['call_ny', 'call_ldn', 'var3']);
    // An id already in memory is that item, not the call: the call is numbered, the reference reads memory.
    const held = await checkToolCalls(calls.slice(1), {
      catalog: executable,
      memory: { call_ny: { skyId: 'JFK', entityId: '1' } },
    });
    expect(held.ok).toBe(true);
    expect(held.sequence.map((s) => s.label)).toEqual(['call_ldn', 'var2']);
  });

  it('heals malformed argument JSON and repairs a misnamed parameter', async () => {
    const calls = [
      call('a', 'SkyScrapperSearchAirport', '{"query": "New York"'),
      call('b', 'SkyScrapperSearchAirport', "{'query': 'London'}"),
      flight('c', { adults: '2' }),
    ];
    (calls[2].function as { arguments: string }).arguments = calls[2].function.arguments.replace(
      'originSkyId',
      'originalSkyId',
    );
    const check = await checkToolCalls(calls, { catalog: executable });
    expect(check.ok).toBe(false);
    expect(check.executable).toBe(true);
    expect(check.heal.map((e) => [e.kind, e.step, e.param])).toEqual([
      ['repairJson', 0, undefined],
      ['repairJson', 1, undefined],
      ['coerce', 2, 'adults'],
    ]);
    expect(check.repair?.edits.map((e) => [e.kind, e.from, e.to])).toEqual([
      ['renameParam', 'originalSkyId', 'originSkyId'],
    ]);
    expect(check.calls.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(JSON.parse(check.calls[0].function.arguments)).toEqual({ query: 'New York' });
    expect(JSON.parse(check.calls[2].function.arguments)).toMatchObject({
      originSkyId: '$var1.skyId$',
      adults: 2,
    });
    expect(validate(check.sequence, executable).valid).toBe(true);
    expect(check.cost).toBeCloseTo(1.25 + check.repair!.cost, 6);
    expect(check.feedback).toContain('argument fixes:\n- step 1: repairJson');
    expect(check.feedback).toContain('renameParam originalSkyId -> originSkyId');
  });

  it('returns healed calls when healing alone makes them valid', async () => {
    const check = await checkToolCalls([call('a', 'SkyScrapperSearchAirport', '{"query": "Rome"')], {
      catalog: executable,
    });
    expect(check.ok).toBe(false);
    expect(check.repair?.status).toBe('valid');
    expect(check.calls[0]).toEqual(call('a', 'SkyScrapperSearchAirport', { query: 'Rome' }));
  });

  it('keeps ids through relabels and gives inserted calls fresh ids', async () => {
    const hotels = (id: string, label: string) =>
      call(id, 'TripadvisorSearchHotels', {
        geoId: `$${label}.geoId$`,
        checkIn: '2024-08-15',
        checkOut: '2024-08-18',
      });
    const calls = [
      call('a', 'TripadvisorSearchLocation', { query: 'London' }),
      call('d', 'SkyScrapperSearchAirport', { query: 'Paris' }),
      hotels('b', 'var7'),
      hotels('c', 'var9'),
    ];
    const cost = withWeights(loadCostModel('default'), { slotFill: 20, reassign: 10 });
    const check = await checkToolCalls(calls, { catalog: executable, cost });
    expect(check.executable).toBe(true);
    // One location search is relabelled (var9), the other comes back as a deleted step (var7) with a fresh
    // id; its query is "Paris", from the airport search, never "London", a copy of its sibling.
    expect(check.calls.map((c) => c.id)).toEqual(['a', 'd', 'call_refract_1', 'b', 'c']);
    expect(check.sequence.map((s) => s.label)).toEqual(['var9', 'var2', 'var7', 'var3', 'var4']);
  });

  it('is not executable when a value must come from the user', async () => {
    const cost = withWeights(loadCostModel('default'), { deleteStep: 50 });
    const check = await checkToolCalls([call('a', 'SkyScrapperSearchAirport', {})], {
      catalog: executable,
      cost,
    });
    expect(check).toMatchObject({ ok: false, executable: false, calls: [] });
    expect(check.repair?.sequence.some((s) => s.name === 'ask')).toBe(true);
    expect(check.feedback).toContain('ask the user:');
  });

  it('answers unreadable calls with feedback instead of throwing', async () => {
    const check = await checkToolCalls([call('a', 'SkyScrapperSearchAirport', '[1, 2]')], {
      catalog: executable,
    });
    expect(check).toMatchObject({ ok: false, executable: false, calls: [], repair: null });
    expect(check.feedback).toMatch(/^not valid: 1 error, 0 warnings\n- \[unreadable\] tool_calls\[0\]/);
    const verdict = await checkToolCalls([{ function: {} }], { catalog: executable, feedback: 'verdict' });
    expect(verdict.feedback).toBe('verdict: not valid');
  });

  it('skips labels held in memory and resolves references to them', async () => {
    const memory = { var1: { skyId: 'NYCA', entityId: '1' }, var2: { skyId: 'LOND', entityId: '2' } };
    const check = await checkToolCalls([flight('f')], { catalog: executable, memory });
    expect(check.ok).toBe(true);
    expect(check.sequence[0].label).toBe('var3');
  });

  it('speaks every feedback format', async () => {
    const calls = [airport('a', 'Rome'), call('b', 'SkyScrapperSearchAirprt', { query: 'Oslo' })];
    for (const format of ['verdict', 'issues', 'suggestions', 'explain', 'trace'] as const) {
      const check = await checkToolCalls(calls, { catalog: executable, feedback: format });
      expect(check.feedback.length).toBeGreaterThan(0);
      if (format === 'verdict') expect(check.feedback).toBe('verdict: not valid');
    }
  });
});

describe('checkCall', () => {
  const catalog = parseCatalog([
    {
      name: 'getWeather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
      },
    },
  ]);

  it('repairs one call against memory without inserting calls', async () => {
    const memory = { var1: { city: 'Rome' } };
    const check = await checkCall(call('w', 'getWeathr', { city: '$var1.city$', days: '3' }), {
      catalog,
      memory,
    });
    expect(check.executable).toBe(true);
    expect(check.call).toEqual(call('w', 'getWeather', { city: '$var1.city$', days: 3 }));
    expect(check.sequence[0].label).toBe('var2');
  });

  it('gives no call when the repair deletes it', async () => {
    const check = await checkCall(call('w', 'getWeather', { days: 3 }), { catalog });
    expect(check.call).toBeNull();
    expect(check.executable).toBe(false);
  });
});
