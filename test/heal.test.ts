import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerFix } from '../src/cli/fix.ts';
import { registerBatch } from '../src/cli/batch.ts';
import { runCommands } from './cli-run.ts';
import { parseCatalog } from '../src/read/catalog.ts';
import { InputError } from '../src/model/errors.ts';
import { parseSequence } from '../src/read/sequence.ts';
import { heal, healToolCalls, repairArgumentText } from '../src/heal/index.ts';

const catalog = parseCatalog([
  {
    name: 'search',
    description: 'search things',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        price: { type: 'number' },
        exact: { type: 'boolean' },
        filters: { type: 'object' },
        tags: { type: 'array' },
      },
      required: ['query'],
    },
  },
]);

const call = (args: string | object, name = 'search', id = 'c1') => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

describe('repairJson', () => {
  it('repairs a truncated argument string and records the edit', () => {
    const healed = heal([call('{"query": "New York"')], catalog);
    expect(healed.sequence).toEqual([{ name: 'search', arguments: { query: 'New York' }, label: 'var1' }]);
    expect(healed.edits).toEqual([
      {
        kind: 'repairJson',
        step: 0,
        from: '{"query": "New York"',
        to: '{"query": "New York"}',
        cost: 0.5,
        detail: 'malformed JSON repaired',
      },
    ]);
    expect(healed.cost).toBe(0.5);
  });

  it('repairs single quotes, trailing commas, Python literals and unquoted keys', () => {
    const healed = heal([call("{'query': 'x', exact: True, limit: 3,}")], catalog);
    expect(healed.sequence[0].arguments).toEqual({ query: 'x', exact: true, limit: 3 });
  });

  it('unwraps arguments encoded twice', () => {
    const twice = JSON.stringify(JSON.stringify({ query: 'x' }));
    expect(repairArgumentText(twice)?.detail).toBe('JSON encoded twice, unwrapped');
    expect(heal([call(twice)], catalog).sequence[0].arguments).toEqual({ query: 'x' });
  });

  it('leaves valid, empty and unrepairable argument strings alone', () => {
    expect(repairArgumentText('{"query": "x"}')).toBeUndefined();
    expect(repairArgumentText('  ')).toBeUndefined();
    expect(repairArgumentText('[1, 2')).toBeUndefined();
    expect(repairArgumentText('{"a": 1} {"b": 2}')).toBeUndefined();
    expect(() => heal([call('{"a": 1} {"b": 2}')], catalog)).toThrow(InputError);
  });

  it('survives nesting deep enough to overflow the repairer', () => {
    expect(repairArgumentText('['.repeat(20_000))).toBeUndefined();
  });

  it('can be turned off: the parser then rejects the malformed string', () => {
    expect(() => heal([call('{"query": "x"')], catalog, { repairJson: false })).toThrow(InputError);
    expect(() => parseSequence([call('{"query": "x"')])).toThrow(InputError);
  });

  it('heals raw calls in every wrapper the sequence parser reads', () => {
    const message = { role: 'assistant', tool_calls: [call('{"query": "x"')] };
    const completion = { choices: [{ message }] };
    for (const raw of [
      message,
      completion,
      call('{"query": "x"'),
      { output: [{ name: 'search', arguments: '{query: x' }] },
    ]) {
      const { calls, edits } = healToolCalls(raw);
      expect(edits).toHaveLength(1);
      expect(parseSequence(calls)[0].arguments).toEqual({ query: 'x' });
    }
  });

  it('does not change its input', () => {
    const raw = [call('{"query": "x"')];
    const copy = structuredClone(raw);
    healToolCalls(raw);
    expect(raw).toEqual(copy);
  });
});

describe('unpackJson and coerce', () => {
  const one = (args: object, options = {}) => heal([call(args)], catalog, options);

  it('unpacks stringified JSON for object and array parameters', () => {
    const healed = one({ query: 'x', filters: '{"city": "Rome"}', tags: '["a", "b"]' });
    expect(healed.sequence[0].arguments).toEqual({ query: 'x', filters: { city: 'Rome' }, tags: ['a', 'b'] });
    expect(healed.edits.map((e) => [e.kind, e.param, e.from, e.to])).toEqual([
      ['unpackJson', 'filters', '"{\\"city\\": \\"Rome\\"}"', '{"city":"Rome"}'],
      ['unpackJson', 'tags', '"[\\"a\\", \\"b\\"]"', '["a","b"]'],
    ]);
  });

  it('does not unpack JSON of the wrong kind, or plain text', () => {
    const healed = one({ query: '{"a": 1}', filters: '[1]', tags: 'a, b' });
    expect(healed.edits).toEqual([]);
  });

  it('coerces numbers, integers and booleans written as strings', () => {
    const healed = one({ query: '7', limit: ' 5 ', price: '-2.5e1', exact: 'False' });
    expect(healed.sequence[0].arguments).toEqual({ query: '7', limit: 5, price: -25, exact: false });
    expect(healed.edits.map((e) => e.param)).toEqual(['limit', 'price', 'exact']);
    expect(healed.cost).toBe(0.75);
  });

  it('does not coerce non-numbers, fractions for integers, references or huge numbers', () => {
    const healed = one({ query: 'x', limit: '2.5', price: '$var1.price$', exact: 'yes' });
    expect(healed.edits).toEqual([]);
    expect(one({ query: 'x', price: '1e400', limit: '12345678901234567890' }).edits).toEqual([]);
  });

  it('keeps a __proto__ key of unpacked JSON as an own key', () => {
    const healed = one({ query: 'x', filters: '{"__proto__": {"polluted": 1}}' });
    const filters = healed.sequence[0].arguments.filters as Record<string, unknown>;
    expect(Object.keys(filters)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(filters)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('each kind can be turned off and re-weighted', () => {
    const args = { query: 'x', limit: '5', tags: '[1]' };
    expect(one(args, { coerce: false }).edits.map((e) => e.kind)).toEqual(['unpackJson']);
    expect(one(args, { unpackJson: false }).edits.map((e) => e.kind)).toEqual(['coerce']);
    expect(one(args, { unpackJson: false, coerce: false }).edits).toEqual([]);
    expect(one(args, { weights: { coerce: 2, unpackJson: 3 } }).cost).toBe(5);
  });

  it('leaves unknown APIs, unknown parameters and the answer step alone', () => {
    const sequence = [
      { name: 'other', arguments: { limit: '5' }, label: 'var1' },
      { name: 'search', arguments: { query: 'x', size: '5' }, label: 'var2' },
      { name: 'var_result', arguments: { limit: '5' } },
    ];
    const healed = heal(sequence, catalog);
    expect(healed.edits).toEqual([]);
    expect(healed.sequence).toEqual(sequence);
  });

  it('heals a sequence given as steps, and the string form', () => {
    expect(heal([{ name: 'search', arguments: { query: 'x', limit: '3' } }], catalog).sequence).toEqual([
      { name: 'search', arguments: { query: 'x', limit: 3 } },
    ]);
    expect(heal('var1 = search(query="x", exact="true")', catalog).sequence[0].arguments).toEqual({
      query: 'x',
      exact: true,
    });
  });
});

describe('--heal on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-heal-'));
  const catalogFile = join(dir, 'tools.json');
  writeFileSync(
    catalogFile,
    JSON.stringify([
      {
        name: 'search',
        parameters: { query: { type: 'string', required: true }, limit: { type: 'integer' } },
      },
    ]),
  );
  const broken = { type: 'function', function: { name: 'search', arguments: "{'query': 'x', limit: '3'" } };
  const records = join(dir, 'records.jsonl');
  writeFileSync(records, `${JSON.stringify({ id: 'r1', sequence: [broken], catalog: 'tools.json' })}\n`);

  it('fix and batch heal malformed argument JSON the records carry, where it was an error line', async () => {
    const plain = await runCommands([registerFix], ['fix', records, '--format', 'json']);
    expect(JSON.parse(plain.out)).toMatchObject({ id: 'r1', status: 'error' });
    const healed = await runCommands([registerFix], ['fix', records, '--format', 'json', '--heal']);
    const json = JSON.parse(healed.out) as { status: string; sequence: unknown; heal: { kind: string }[] };
    expect(json.status).toBe('valid');
    expect(json.sequence).toEqual([{ name: 'search', arguments: { query: 'x', limit: 3 }, label: 'var1' }]);
    expect(json.heal.map((e) => e.kind)).toEqual(['repairJson', 'coerce']);
    const text = await runCommands([registerFix], ['fix', records, '--heal']);
    expect(text.out).toContain('healed:\n    repairJson (step 1, 0.5): malformed JSON repaired');
    const out = join(dir, 'out.jsonl');
    const batch = await runCommands(
      [registerBatch],
      ['batch', records, '--heal', '--out', out, '--workers', '1', '-q'],
    );
    expect(batch.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      id: 'r1',
      status: 'valid',
      heal: json.heal,
    });
  });
});
