import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sequence } from '../src/model/types.ts';
import { commandFixer } from '../src/loop/fixers/command.ts';
import { chatCompletionsUrl, openaiFixer } from '../src/loop/fixers/openai.ts';
import { parseChatMessage, relevantApis } from '../src/loop/fixers/prompt.ts';
import { openIssues } from '../src/loop/issues.ts';
import { readCandidates, scriptedFixer } from '../src/loop/fixers/scripted.ts';
import { SINGLE_PASS } from '../src/loop/presets.ts';
import { loopToolCalls } from '../src/loop/toolcalls.ts';
import { broken, catalog, gold, worse } from './fixtures/loop/samples.ts';

const reasons = (r: { log: readonly { reason: string }[] }) => r.log.map((x) => x.reason);

describe('scripted fixer on a corrupted NESTFUL sequence', () => {
  it('rejects the bad proposal and accepts the good one', async () => {
    const result = await loopToolCalls({ sequence: broken, catalog, fixer: scriptedFixer([worse, gold]) });
    expect(result).toMatchObject({
      rounds: 2,
      accepted: 1,
      stalled: 1,
      stop: 'solved',
      history: [3, 3, 0],
      leftover: [],
    });
    expect(result.state).toEqual(gold);
    expect(reasons(result)).toEqual([
      'not better: 4 issue(s), state has 3',
      'better: 0 issue(s), state had 3',
    ]);
  });

  it('stalls when the script runs out', async () => {
    const result = await loopToolCalls({ sequence: broken, catalog, fixer: scriptedFixer([worse]) });
    expect(result).toMatchObject({ rounds: 2, accepted: 0, stop: 'stalled', history: [3, 3, 3] });
    expect(result.leftover.map((i) => i.tag)).toEqual([
      'unknown_parameter',
      'missing_parameter',
      'unknown_field',
    ]);
    expect(reasons(result)[1]).toBe('no scripted candidate for round 1');
  });

  it('reads candidates from a JSON file, naming the bad field', () => {
    expect(readCandidates('test/fixtures/loop/candidates.json')).toHaveLength(2);
    expect(() => readCandidates('test/fixtures/loop/bad-candidates.json')).toThrow(/candidates\[1\]\[0\]/);
  });
});

describe('command fixer', () => {
  const run = (command: string, timeoutMs = 5000, stallLimit = 1) =>
    loopToolCalls({ sequence: broken, catalog, fixer: commandFixer({ command, timeoutMs }), stallLimit });

  it('a program that fixes the sequence (NESTFUL, then OpenAI form)', async () => {
    const result = await run('node test/fixtures/loop/fix-flight.mjs');
    expect(result).toMatchObject({ rounds: 1, accepted: 1, stop: 'solved', history: [3, 0] });
    expect(result.state).toEqual(gold);
    const openai = await commandFixer({ command: 'node test/fixtures/loop/fix-flight.mjs' }).propose(
      broken,
      'x',
      1,
    );
    expect(openai).toEqual(gold);
  });

  it('a crash stalls the round with the exit code and the last stderr line', async () => {
    const result = await run('echo starting >&2; echo "no model loaded" >&2; exit 3');
    expect(result).toMatchObject({ rounds: 1, accepted: 0, stop: 'stalled', history: [3, 3] });
    expect(reasons(result)).toEqual(['fixer command exit code 3: no model loaded']);
  });

  it('a program that hangs is killed at its time limit', async () => {
    const started = Date.now();
    const result = await run('sleep 30', 300);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reasons(result)).toEqual(['fixer command timed out after 0.3 s']);
    expect(result.state).toBe(broken);
  });

  it('a worse sequence is rejected', async () => {
    const result = await run(`echo '${JSON.stringify(worse)}'`);
    expect(reasons(result)).toEqual(['not better: 4 issue(s), state has 3']);
    expect(result.state).toBe(broken);
  });

  it('garbage stalls the round', async () => {
    const result = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: commandFixer({ command: 'cat test/fixtures/loop/garbage.txt' }),
      stallLimit: 3,
      maxRounds: 3,
    });
    expect(reasons(result)[0]).toMatch(/^fixer command printed no JSON: /);
    const shapes = ['{"hello": 1}', '', '[{"name": 5}]'];
    const outcomes = await Promise.all(
      shapes.map((text) => commandFixer({ command: `printf '%s' '${text}'` }).propose(broken, '', 0)),
    );
    expect(outcomes.map((o) => (o as { stalled: string }).stalled)).toEqual([
      expect.stringMatching(/^fixer command printed no sequence: sequence: expected an array of steps/),
      'fixer command printed nothing',
      expect.stringMatching(/^fixer command printed no sequence: sequence\[0\]\.name/),
    ]);
  });

  it('sends the request {state, feedback, format, round} on stdin', async () => {
    const echo = commandFixer({
      command:
        "node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);console.log(JSON.stringify([{name:r.format,arguments:{feedback:r.feedback,round:r.round,steps:r.state.length}}]))})\"",
      format: 'trace',
    });
    expect(await echo.propose(broken, 'fb', 4)).toEqual([
      { name: 'trace', arguments: { feedback: 'fb', round: 4, steps: 6 } },
    ]);
  });
});

describe('shell-command checks', () => {
  it('a candidate that fixes the issues but fails the check is rejected', async () => {
    const noHotels = gold
      .filter((s) => !s.name.startsWith('Tripadvisor'))
      .map((s) => (s.name === 'var_result' ? { ...s, arguments: { flights: '$var3$' } } : s));
    const result = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: scriptedFixer([noHotels, gold]),
      checks: { command: 'grep -q TripadvisorSearchHotels' },
    });
    expect(result).toMatchObject({ rounds: 2, accepted: 1, stop: 'solved', history: [3, 3, 0] });
    expect(reasons(result)[0]).toBe('checks failed: check command exit code 1');
  });

  it('a check that hangs fails at its time limit; a function check works too', async () => {
    const hang = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: scriptedFixer([gold]),
      checks: { command: 'sleep 30', timeoutMs: 200 },
      stallLimit: 1,
    });
    expect(reasons(hang)).toEqual(['checks failed: check command timed out after 0.2 s']);
    const fn = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: scriptedFixer([gold]),
      checks: (s: Sequence) => ({ pass: s.length < 6, reason: 'too long' }),
      maxRounds: 1,
    });
    expect(fn).toMatchObject({ rounds: 1, stop: 'max-rounds', history: [3, 3] });
    expect(reasons(fn)).toEqual(['checks failed: too long']);
  });

  it('the single-pass preset runs one round without checks', async () => {
    const result = await loopToolCalls({
      sequence: broken,
      catalog,
      fixer: scriptedFixer([gold]),
      checks: { command: 'exit 1' },
      ...SINGLE_PASS,
    });
    expect(result).toMatchObject({ rounds: 1, accepted: 1, stop: 'solved', history: [3, 0] });
  });
});

describe('openai fixer against a local chat-completions endpoint', () => {
  let server: Server;
  let baseUrl = '';
  const requests: { body: any; auth?: string; url?: string }[] = [];
  const replies: ((body: any) => [number, unknown])[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let s = '';
      req.on('data', (d) => (s += d)).on('end', () => resolve(s));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await read(req));
      requests.push({ body, auth: req.headers.authorization, url: req.url });
      const [status, reply] = (replies.shift() ?? (() => [500, { error: 'no reply scripted' }]))(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const message = (m: unknown) =>
    [200, { choices: [{ index: 0, message: { role: 'assistant', ...(m as object) } }] }] as [number, unknown];

  it('parses a ```json code block, then a tool_calls reply', async () => {
    const halfFixed = broken.map((s, i) =>
      i === 2 ? { ...s, arguments: { ...s.arguments, destinationSkyId: '$var2.skyId$' } } : s,
    );
    replies.push(() =>
      message({ content: `Here is the fix:\n\`\`\`json\n${JSON.stringify(halfFixed)}\n\`\`\`\nDone.` }),
    );
    replies.push(() =>
      message({
        content: null,
        tool_calls: gold.map((s, i) => ({
          id: `call_${i}`,
          type: 'function',
          function: { name: s.name, arguments: JSON.stringify(s.arguments) },
        })),
      }),
    );
    process.env.REFRACT_TEST_KEY = 'sk-test';
    const fixer = openaiFixer({
      catalog,
      baseUrl,
      model: 'tiny',
      apiKeyEnv: 'REFRACT_TEST_KEY',
      format: 'issues',
    });
    const result = await loopToolCalls({ sequence: broken, catalog, fixer });
    expect(result).toMatchObject({ rounds: 2, accepted: 2, stop: 'solved', history: [3, 2, 0] });
    expect(result.state).toEqual(gold);
    const first = requests[0];
    expect(first.url).toBe('/v1/chat/completions');
    expect(first.auth).toBe('Bearer sk-test');
    expect(first.body.model).toBe('tiny');
    expect(first.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    const user: string = first.body.messages[1].content;
    expect(user).toContain('"name": "SkyScrapperFlightSearch"');
    expect(user).toContain('"originalSkyId": "$var1.skyId$"');
    expect(user).toContain('Feedback (issues):\nnot valid: 3 errors');
    expect(user).not.toContain('"name": "NewsAPISearchByKeyWord"');
  });

  it('an error status, a reply without a sequence, and an unreachable endpoint stall the round', async () => {
    replies.push(() => [401, { error: { message: 'bad key' } }]);
    replies.push(() => message({ content: 'I cannot help with that.' }));
    const fixer = openaiFixer({ catalog, baseUrl, model: 'tiny', apiKey: 'k' });
    const result = await loopToolCalls({ sequence: broken, catalog, fixer });
    expect(reasons(result)).toEqual([
      'endpoint answered 401: {"error":{"message":"bad key"}}',
      expect.stringMatching(/^reply printed no JSON: /),
    ]);
    const down = openaiFixer({ catalog, baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' });
    expect(await down.propose(broken, '', 0)).toEqual({
      stalled: expect.stringMatching(/^endpoint unreachable: /),
    });
  });
});

describe('chat prompt and reply parsing', () => {
  it('shows the tools the sequence calls and the closest names to unknown ones, not the answer step', () => {
    const typo = broken.map((s, i) => (i === 2 ? { ...s, name: 'SkyScraperFlightSerch' } : s));
    expect(relevantApis(typo, catalog, openIssues(typo, catalog)).map((a) => a.name)).toEqual([
      'SkyScrapperSearchAirport',
      'TripadvisorSearchLocation',
      'TripadvisorSearchHotels',
      'SkyScrapperFlightSearch',
    ]);
  });

  it('reads bare JSON, an untagged code block, and skips a code block that is no sequence', () => {
    expect(parseChatMessage({ content: JSON.stringify(gold) })).toEqual(gold);
    expect(parseChatMessage({ content: '```\n' + JSON.stringify(gold) + '\n```' })).toEqual(gold);
    const two = '```json\n{"plan": 1}\n```\nfixed:\n```json\n' + JSON.stringify(gold) + '\n```';
    expect(parseChatMessage({ content: two })).toEqual(gold);
    expect(parseChatMessage({ content: '' })).toEqual({ stalled: 'reply has no content' });
    expect(parseChatMessage(null)).toEqual({ stalled: 'reply has no message' });
  });

  it('builds the endpoint URL from a base URL', () => {
    expect(chatCompletionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });
});
