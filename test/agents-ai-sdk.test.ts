import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkSteps, createRepairToolCall } from '../src/agents/ai-sdk.ts';
import { executable } from './helpers.ts';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that first calls one tool (as given), then answers with text. */
function modelCalling(toolName: string, input: string) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName, input }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}

function travelTools(executed: unknown[]) {
  return {
    searchAirport: tool({
      description: 'Find an airport by city name',
      inputSchema: z.object({ query: z.string() }),
      execute: async (input) => {
        executed.push(input);
        return { skyId: 'NYCA' };
      },
    }),
    searchHotels: tool({
      description: 'Find hotels',
      inputSchema: z.object({ geoId: z.string(), adults: z.number().optional() }),
      execute: async () => ({ hotels: [] }),
    }),
  };
}

describe('createRepairToolCall', () => {
  it('renames an unknown tool, heals its JSON, drops an unknown argument, and the call executes', async () => {
    const executed: unknown[] = [];
    const checks: string[] = [];
    const result = await generateText({
      model: modelCalling('searchAirprot', '{"query": "New York", "verbose": true'),
      prompt: 'find flights',
      tools: travelTools(executed),
      stopWhen: stepCountIs(3),
      experimental_repairToolCall: createRepairToolCall({ onCheck: (c) => checks.push(c.feedback) }),
    });
    expect(executed).toEqual([{ query: 'New York' }]);
    expect(result.steps[0].toolCalls).toMatchObject([{ toolCallId: 'c1', toolName: 'searchAirport' }]);
    expect(result.steps[0].toolResults).toMatchObject([{ output: { skyId: 'NYCA' } }]);
    expect(result.text).toBe('done');
    expect(checks[0]).toContain('unknown API "searchAirprot"');
    // Another feedback format for onCheck: the suggestions show the optimiser's fix.
    const suggested: string[] = [];
    await generateText({
      model: modelCalling('searchAirprot', '{"query": "New York"}'),
      prompt: 'find flights',
      tools: travelTools([]),
      stopWhen: stepCountIs(3),
      experimental_repairToolCall: createRepairToolCall({
        feedback: 'suggestions',
        onCheck: (c) => suggested.push(c.feedback),
      }),
    });
    expect(suggested[0]).toMatch(/searchAirprot -> searchAirport/);
    expect(() => createRepairToolCall({ feedback: 'nope' as never })).toThrow(/^options\.feedback: /);
  });

  it('checks its options once, when built: a bad option against the given catalog fails there', () => {
    expect(() => createRepairToolCall({ catalog: executable, goals: { apis: ['Nope'] } })).toThrow(
      /^options\.goals\.apis\[0\]: /,
    );
    expect(() => createRepairToolCall({ catalog: executable, memory: 5 as never })).toThrow(
      /^options\.memory: /,
    );
    // Without a catalog (the tool set's, read at the first repair) all but the goals are checked when built.
    expect(() => createRepairToolCall({ minConfidence: 5 })).toThrow(/^options\.minConfidence: /);
    expect(() => createRepairToolCall({ minConfidence: 0.5, confidence: false })).toThrow(
      /^options\.minConfidence: needs the confidence/,
    );
    expect(() => createRepairToolCall({ goals: { apis: ['SkyScrapperSearchAirport'] } })).not.toThrow();
  });

  it('repairs against a given catalog', async () => {
    const repairToolCall = createRepairToolCall({ catalog: executable });
    const repaired = await repairToolCall({
      toolCall: {
        type: 'tool-call',
        toolCallId: 'x',
        toolName: 'SkyScrapperSearchAirprot',
        input: "{'query': 'Rome'",
      },
      tools: {},
      inputSchema: async () => ({}),
      system: undefined,
      messages: [],
      error: new Error('bad') as never,
    });
    expect(repaired).toEqual({
      type: 'tool-call',
      toolCallId: 'x',
      toolName: 'SkyScrapperSearchAirport',
      input: '{"query":"Rome"}',
    });
  });

  it('gives up (null) when no executable call results, and the SDK reports the invalid call', async () => {
    const executed: unknown[] = [];
    const result = await generateText({
      model: modelCalling('searchHotels', '{"adults": 2}'),
      prompt: 'hotels',
      tools: travelTools(executed),
      stopWhen: stepCountIs(3),
      experimental_repairToolCall: createRepairToolCall(),
    });
    expect(executed).toEqual([]);
    const call = result.steps[0].content.find((p) => p.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'searchHotels', invalid: true });
  });
});

describe('checkSteps', () => {
  it('checks the calls of several steps as one sequence', async () => {
    const steps = [
      {
        toolCalls: [{ toolCallId: 'a', toolName: 'SkyScrapperSearchAirport', input: { query: 'New York' } }],
      },
      {
        toolCalls: [
          {
            toolCallId: 'b',
            toolName: 'TripadvisorSearchHotels',
            input: { geoId: '$var1.geoId$', checkIn: '2024-08-15', checkOut: '2024-08-18' },
          },
        ],
      },
    ];
    const check = await checkSteps(steps, { catalog: executable, feedback: 'issues' });
    expect(check.ok).toBe(false);
    expect(check.feedback).toContain('[unknown_field]');
    const fine = await checkSteps(steps.slice(0, 1), { catalog: executable });
    expect(fine.ok).toBe(true);
  });
});
