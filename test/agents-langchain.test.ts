import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import {
  repairAIMessage,
  repairNote,
  repairToolCallsRunnable,
  type RepairNote,
} from '../src/agents/langchain.ts';
import { executable } from './helpers.ts';

// The typed accessor the docs route on; a repaired message always carries its note.
const note = (m: AIMessage): RepairNote => repairNote(m)!;

describe('repairToolCallsRunnable', () => {
  it('reads memory given as a function at every message, so a runnable built once follows the agent', async () => {
    const memory: Record<string, { skyId: string; entityId: string }> = {};
    const runnable = repairToolCallsRunnable(executable, { memory: () => memory });
    const flight = new AIMessage({
      content: '',
      tool_calls: [
        {
          id: 'f1',
          name: 'SkyScrapperFlightSearch',
          args: {
            originSkyId: '$var1.skyId$',
            destinationSkyId: 'LOND',
            originEntityId: '$var1.entityId$',
            destinationEntityId: '27544008',
            date: '2024-08-15',
          },
          type: 'tool_call',
        },
      ],
    });
    // Turn 1: nothing is known of var1 yet; the plan reads a value no call made.
    expect(note(await runnable.invoke(flight)).ok).toBe(false);
    // Turn 2: the airport search ran and its result is in memory: the same runnable lets the plan through.
    memory.var1 = { skyId: 'NYCA', entityId: '27537542' };
    const second = await runnable.invoke(flight);
    expect(repairNote(second)).toBeUndefined();
    expect(second.tool_calls).toEqual(flight.tool_calls);
  });

  it('repairs the tool calls of a chat model’s answer before a tool node runs', async () => {
    const model = new FakeStreamingChatModel({
      sleep: 0,
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [
            { id: 't1', name: 'SkyScrapperSearchAirport', args: { qurey: 'New York' }, type: 'tool_call' },
          ],
        }),
      ],
    });
    // Typed as the docs say: AIMessage in, AIMessage out (its tool_calls read without a cast).
    const out = await model.pipe(repairToolCallsRunnable(executable)).invoke('fly');
    expect(out.tool_calls).toEqual([
      { id: 't1', name: 'SkyScrapperSearchAirport', args: { query: 'New York' }, type: 'tool_call' },
    ]);
    expect(note(out)).toMatchObject({
      ok: false,
      executable: true,
      edits: [{ kind: 'renameParam', to: 'query' }],
    });
    // A message no repair touched carries no note.
    expect(repairNote(new AIMessage({ content: 'hi' }))).toBeUndefined();
    expect(() => repairNote({} as never)).toThrow(
      /^message: expected a LangChain message \(an AIMessage, say\), received object$/,
    );
  });

  it('heals calls LangChain could not parse (invalid_tool_calls)', async () => {
    const message = new AIMessage({
      content: '',
      invalid_tool_calls: [
        {
          id: 't2',
          name: 'SkyScrapperSearchAirport',
          args: '{"query": "London"',
          error: 'bad JSON',
          type: 'invalid_tool_call',
        },
      ],
    });
    const out = await repairToolCallsRunnable(executable).invoke(message);
    expect(out.tool_calls).toEqual([
      { id: 't2', name: 'SkyScrapperSearchAirport', args: { query: 'London' }, type: 'tool_call' },
    ]);
    expect(out.invalid_tool_calls).toEqual([]);
    expect(note(out).heal).toMatchObject([{ kind: 'repairJson', step: 0 }]);
  });

  it('keeps the model’s order of parsed and unparsed calls, which its labels count in', async () => {
    const flight = {
      originSkyId: '$var1.skyId$',
      destinationSkyId: 'LOND',
      originEntityId: '$var1.entityId$',
      destinationEntityId: '1',
      date: '2024-08-15',
    };
    const raw = [
      {
        id: 'a',
        type: 'function',
        function: { name: 'SkyScrapperSearchAirport', arguments: '{"query": "New York"' },
      },
      {
        id: 'b',
        type: 'function',
        function: { name: 'SkyScrapperFlightSearch', arguments: JSON.stringify(flight) },
      },
    ];
    const message = new AIMessage({
      content: '',
      additional_kwargs: { tool_calls: raw as never },
      tool_calls: [{ id: 'b', name: 'SkyScrapperFlightSearch', args: flight, type: 'tool_call' }],
      invalid_tool_calls: [
        {
          id: 'a',
          name: 'SkyScrapperSearchAirport',
          args: raw[0].function.arguments,
          type: 'invalid_tool_call',
        },
      ],
    });
    const out = (await repairAIMessage(message, { catalog: executable })) as AIMessage;
    // Only the JSON is healed: the flight search reads the airport search written before it.
    expect(out.tool_calls?.map((t) => t.id)).toEqual(['a', 'b']);
    expect(note(out)).toMatchObject({ executable: true, edits: [] });
    expect(note(out).heal).toMatchObject([{ kind: 'repairJson', step: 0 }]);
  });

  it('leaves valid messages and non-AI messages untouched', async () => {
    const valid = new AIMessage({
      content: 'x',
      tool_calls: [{ id: 't', name: 'SkyScrapperSearchAirport', args: { query: 'Rome' }, type: 'tool_call' }],
    });
    expect(await repairAIMessage(valid, { catalog: executable })).toBe(valid);
    const human = new HumanMessage('hi');
    expect(await repairAIMessage(human, { catalog: executable })).toBe(human);
    const text = new AIMessage('just text');
    expect(await repairAIMessage(text, { catalog: executable })).toBe(text);
  });

  it('checks the runnable’s options once, when it is built', () => {
    expect(() => repairToolCallsRunnable(executable, { goals: { apis: ['Nope'] } })).toThrow(
      /^options\.goals\.apis\[0\]: /,
    );
    expect(() => repairToolCallsRunnable(executable, { mode: 'nope' as never })).toThrow(/^options\.mode: /);
  });

  it('keeps the calls and notes the feedback when no executable repair exists', async () => {
    const message = new AIMessage({
      content: '',
      tool_calls: [
        {
          id: 't',
          name: 'TripadvisorSearchHotels',
          args: { checkIn: '2024-08-15', checkOut: '2024-08-18' },
          type: 'tool_call',
        },
      ],
    });
    const out = (await repairAIMessage(message, { catalog: executable, allowInsert: false })) as AIMessage;
    expect(out.tool_calls).toEqual(message.tool_calls);
    expect(note(out)).toMatchObject({ ok: false, executable: false });
    expect(note(out).feedback).toContain('requires geoId');
  });
});
