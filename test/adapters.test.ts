import { readFileSync, createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ApiSpec, Catalog, Json, Sequence, Step } from '../src/model/types.ts';
import { InputError, formatZodError } from '../src/model/errors.ts';
import { loadCatalog, parseCatalog } from '../src/read/catalog.ts';
import {
  formatStringForm,
  loadSequence,
  parseSequence,
  parseSequenceText,
  parseStringForm,
  toNestful,
} from '../src/read/sequence.ts';
import { parseMemory } from '../src/read/memory.ts';
import { parseRecords, readRecords, type RecordItem } from '../src/read/records.ts';
import { normaliseType } from '../src/read/value-type.ts';
import { z } from 'zod';

const DATA = 'data/nestful';
const FIXTURES = 'test/fixtures/adapters';
const RELEASES = [DATA, `${DATA}/original`];
const SETS = ['executable', 'non-executable-glaive', 'non-executable-sgd'] as const;

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const api = (catalog: Catalog, name: string): ApiSpec => {
  const found = catalog.apis.find((a) => a.name === name);
  if (!found) throw new Error(`no API ${name}`);
  return found;
};
const paths = (a: ApiSpec): string[] => (a.outputs ?? []).map((o) => o.path);

/** The error thrown by `fn`, which must be an InputError. */
function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('NESTFUL catalogs', () => {
  const expected: Record<string, [number, number]> = {
    // [entries in the file, APIs after merging identical repeats]
    [`${DATA}/executable`]: [39, 39],
    [`${DATA}/non-executable-glaive`]: [64, 64],
    [`${DATA}/non-executable-sgd`]: [30, 30],
    [`${DATA}/original/executable`]: [39, 39],
    [`${DATA}/original/non-executable-glaive`]: [70, 64],
    [`${DATA}/original/non-executable-sgd`]: [30, 30],
  };
  for (const [file, [entries, apis]] of Object.entries(expected)) {
    it(`parses ${file}-spec.json`, () => {
      expect((readJson(`${file}-spec.json`) as unknown[]).length).toBe(entries);
      const catalog = loadCatalog(`${file}-spec.json`);
      expect(catalog.apis).toHaveLength(apis);
      for (const a of catalog.apis) expect(a.outputs).not.toBeNull();
    });
  }

  it('original glaive repeats 6 entries verbatim; strict mode rejects them', () => {
    const error = inputError(() =>
      loadCatalog(`${DATA}/original/non-executable-glaive-spec.json`, { duplicates: 'error' }),
    );
    expect(error.message).toMatch(/duplicate API name "\w+" \(first declared at catalog\[\d+\]\)/);
  });

  it('rejects two different APIs of the same name', () => {
    const error = inputError(() =>
      parseCatalog([
        { name: 'a', description: 'x', query_parameters: {} },
        { name: 'b', description: 'x', query_parameters: {} },
        { name: 'a', description: 'y', query_parameters: {} },
      ]),
    );
    expect(error.field).toBe('catalog[2].name');
    expect(error.message).toContain('first declared at catalog[0]');
  });

  it.each(RELEASES)('SkyScrapper spot checks (%s)', (dir) => {
    const catalog = loadCatalog(`${dir}/executable-spec.json`);
    const search = api(catalog, 'SkyScrapperFlightSearch');
    const origin = search.params.find((p) => p.name === 'originSkyId');
    expect(origin).toMatchObject({ type: 'string', required: true });
    const cabin = search.params.find((p) => p.name === 'cabinClass');
    expect(cabin).toMatchObject({
      required: false,
      enum: ['economy', 'premium_economy', 'business', 'first'],
    });
    const airport = api(catalog, 'SkyScrapperSearchAirport');
    expect(paths(airport)).toEqual(
      expect.arrayContaining(['skyId', 'entityId', 'navigation', 'navigation.entityId']),
    );
    expect(paths(airport)).toContain('navigation.relevantFlightParams.skyId');
  });

  it.each(RELEASES)('Goodreads array outputs use [] segments (%s)', (dir) => {
    const catalog = loadCatalog(`${dir}/executable-spec.json`);
    const outputs = api(catalog, 'Goodreads_Search_Book_By_Keyword').outputs ?? [];
    expect(outputs.find((o) => o.path === 'author')).toMatchObject({ type: 'array' });
    expect(outputs.find((o) => o.path === 'author[]')).toMatchObject({ type: 'object' });
    expect(outputs.find((o) => o.path === 'author[].id')).toMatchObject({ type: 'string' });
  });

  it('bare type strings, float and undeclared children', () => {
    const catalog = loadCatalog(`${DATA}/executable-spec.json`);
    const hotels = api(catalog, 'TripadvisorSearchHotels').outputs ?? [];
    expect(hotels.find((o) => o.path === 'bubbleRating.count')).toEqual({
      path: 'bubbleRating.count',
      type: 'string',
    });
    expect(hotels.find((o) => o.path === 'bubbleRating.rating')?.type).toBe('number');
    expect(hotels.find((o) => o.path === 'badge')).toMatchObject({ type: 'object', open: true });
    expect(hotels.find((o) => o.path === 'bubbleRating')?.open).toBeUndefined();
    const types = new Set(catalog.apis.flatMap((a) => (a.outputs ?? []).map((o) => o.type)));
    expect(
      [...types].every((t) => ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(t)),
    ).toBe(true);
  });

  it('original release: capitalised types, Enum, optional, possible_values, path_parameters', () => {
    const catalog = loadCatalog(`${DATA}/original/executable-spec.json`);
    const types = new Set(catalog.apis.flatMap((a) => a.params.map((p) => p.type)));
    expect([...types].sort()).toEqual(['array', 'boolean', 'number', 'string']);
    const reddit = api(catalog, 'RedditTopPostsBySubreddit').params.find((p) => p.name === 'time');
    expect(reddit).toMatchObject({
      type: 'string',
      required: true,
      enum: ['hour', 'day', 'week', 'month', 'year', 'all'],
    });
    const amount = api(catalog, 'Instagram_Followers').params.find((p) => p.name === 'amount');
    expect(amount).toMatchObject({ type: 'number', required: false });
    const page = api(catalog, 'Real-Time_Product_Search_Search').params.find((p) => p.name === 'page');
    expect(page?.enum).toBeUndefined(); // allowed_values "1-100" is a range note, not a list
    const entry = (
      readJson(`${DATA}/original/executable-spec.json`) as { name: string; path_parameters?: object }[]
    ).find((e) => e.path_parameters);
    expect(api(catalog, entry!.name).params.length).toBe(Object.keys(entry!.path_parameters!).length);
  });

  it.each(RELEASES)('sgd parameters have type any and allowed_values enums (%s)', (dir) => {
    const catalog = loadCatalog(`${dir}/non-executable-sgd-spec.json`);
    for (const a of catalog.apis) for (const p of a.params) expect(p.type).toBe('any');
    const fare = api(catalog, 'Buses.FindBus').params.find((p) => p.name === 'fare_type');
    expect(fare).toMatchObject({
      required: false,
      enum: ['Economy', 'Economy extra', 'Flexible'],
      default: 'Economy',
    });
    const origin = api(catalog, 'Buses.FindBus').params.find((p) => p.name === 'origin');
    expect(origin).toMatchObject({ required: true });
    expect(origin?.enum).toBeUndefined(); // empty allowed_values = unconstrained
  });

  it('a parameter without required or optional is not required', () => {
    const catalog = parseCatalog([
      { name: 'f', query_parameters: { a: { type: 'Date (yyyy-mm-dd)' }, b: { type: 'file' } } },
    ]);
    expect(catalog.apis[0].params).toEqual([
      { name: 'a', type: 'string', required: false },
      { name: 'b', type: 'string', required: false },
    ]);
    expect(catalog.apis[0].outputs).toBeNull();
    expect(catalog.apis[0].description).toBe('');
  });

  it('merges parameter containers and rejects a parameter declared twice', () => {
    const catalog = parseCatalog([
      { name: 'f', query_parameters: { a: { type: 'int' } }, path_parameters: { b: {} } },
    ]);
    expect(catalog.apis[0].params.map((p) => [p.name, p.type])).toEqual([
      ['a', 'integer'],
      ['b', 'any'],
    ]);
    const error = inputError(() =>
      parseCatalog([{ name: 'f', query_parameters: { a: {} }, arguments: { a: {} } }]),
    );
    expect(error.field).toBe('catalog[0].arguments.a');
  });

  it('a nested required list on an object parameter is not its requiredness', () => {
    const catalog = parseCatalog([
      { name: 'f', parameters: { range: { type: 'object', properties: { min: {} }, required: ['min'] } } },
    ]);
    expect(catalog.apis[0].params).toEqual([{ name: 'range', type: 'object', required: false }]);
  });

  it('accepts the JSON Schema wrapper for NESTFUL parameters', () => {
    const catalog = parseCatalog([
      {
        name: 'f',
        query_parameters: {
          type: 'object',
          properties: { a: { type: 'String' }, b: { type: 'Number' } },
          required: ['a'],
        },
        output_parameters: { type: 'object', properties: { x: { type: 'string' } } },
      },
    ]);
    expect(catalog.apis[0].params).toEqual([
      { name: 'a', type: 'string', required: true },
      { name: 'b', type: 'number', required: false },
    ]);
    expect(catalog.apis[0].outputs).toEqual([{ path: 'x', type: 'string' }]);
  });

  it('lists every prefix of dotted output keys', () => {
    const catalog = parseCatalog([
      { name: 'f', output_parameters: { 'a.b[].c': { type: 'string' }, a: 'object' } },
    ]);
    expect(catalog.apis[0].outputs).toEqual([
      { path: 'a', type: 'object' },
      { path: 'a.b', type: 'array' },
      { path: 'a.b[]', type: 'object' },
      { path: 'a.b[].c', type: 'string' },
    ]);
  });
});

describe('type spellings', () => {
  it.each([
    ['String', 'string'],
    ['Number', 'number'],
    ['Enum', 'string'],
    ['Date (yyyy-mm-dd)', 'string'],
    ['float', 'number'],
    ['file', 'string'],
    ['Integer', 'integer'],
    ['bool', 'boolean'],
    ['Array', 'array'],
    ['Object', 'object'],
    ['dict', 'object'],
    ['list[str]', 'array'],
    ['banana', 'any'],
    [undefined, 'any'],
  ])('%s → %s', (raw, type) => expect(normaliseType(raw)).toBe(type));

  it('JSON Schema type lists', () => {
    expect(normaliseType(['string', 'null'])).toBe('string');
    expect(normaliseType(['string', 'number'])).toBe('any');
  });
});

describe('OpenAI tool definitions', () => {
  const catalog = loadCatalog(`${FIXTURES}/openai-tools.json`);

  it('reads parameters from JSON Schema', () => {
    const weather = api(catalog, 'get_weather');
    expect(weather.description).toBe('Current weather for a city.');
    expect(weather.params).toEqual([
      { name: 'city', type: 'string', required: true, description: 'City name' },
      { name: 'unit', type: 'string', required: false, enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      { name: 'days', type: 'integer', required: false },
      { name: 'filters', type: 'object', required: false },
    ]);
  });

  it('reads outputs from x-outputs and output_parameters; none means unknown', () => {
    expect(api(catalog, 'get_weather').outputs).toEqual([
      { path: 'temperature', type: 'number' },
      { path: 'location', type: 'object' },
      { path: 'location.lat', type: 'number' },
      { path: 'location.lon', type: 'number' },
      { path: 'alerts', type: 'array' },
      { path: 'alerts[]', type: 'object' },
      { path: 'alerts[].title', type: 'string' },
      { path: 'raw', type: 'object', open: true },
    ]);
    expect(api(catalog, 'send_email').outputs).toBeNull();
    expect(paths(api(catalog, 'lookup_user'))).toEqual(['id', 'tags', 'tags[]']);
  });

  it('accepts {tools} and {apis} wrappers and MCP-style schemas', () => {
    const tools = readJson(`${FIXTURES}/openai-tools.json`) as unknown[];
    expect(parseCatalog({ tools })).toEqual(catalog);
    expect(parseCatalog({ apis: tools })).toEqual(catalog);
    const mcp = parseCatalog({
      tools: [
        {
          name: 'm',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          outputSchema: { type: 'object', properties: { r: { type: 'array' } } },
        },
      ],
    });
    expect(mcp.apis[0]).toEqual({
      name: 'm',
      description: '',
      params: [{ name: 'q', type: 'string', required: true }],
      outputs: [{ path: 'r', type: 'array', open: true }],
    });
  });

  it('error paths follow the wrapper', () => {
    const error = inputError(() =>
      parseCatalog({
        tools: [
          { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: 3 } } } },
        ],
      }),
    );
    expect(error.message).toBe(
      'catalog.tools[0].function.parameters.properties.a: expected object, received number',
    );
    expect(inputError(() => parseCatalog({ tools: [{ type: 'code_interpreter' }] })).field).toBe(
      'catalog.tools[0].type',
    );
    expect(inputError(() => parseCatalog('tools')).message).toMatch(/^catalog: expected an array of APIs/);
  });
});

describe('catalog errors', () => {
  it('names the path of the bad field', () => {
    const entries = [0, 1, 2].map((i) => ({ name: `a${i}`, query_parameters: {} }));
    const bad = [
      ...entries,
      { name: 'b', query_parameters: { origin: { type: 'string', required: 'yes' } } },
    ];
    const error = inputError(() => parseCatalog(bad));
    expect(error.field).toBe('catalog[3].query_parameters.origin.required');
    expect(error.message).toBe(
      'catalog[3].query_parameters.origin.required: expected boolean, received string',
    );
  });

  it('quotes keys that are not identifiers', () => {
    const error = inputError(() =>
      parseCatalog([{ name: 'f', output_parameters: { 'Exchange Rate': { type: 7 } } }]),
    );
    expect(error.field).toBe('catalog[0].output_parameters["Exchange Rate"].type');
  });

  it('caps name lengths and rejects empty names', () => {
    expect(inputError(() => parseCatalog([{ name: 'x'.repeat(300) }])).message).toMatch(
      /^catalog\[0\]\.name: name longer/,
    );
    expect(inputError(() => parseCatalog([{ name: '' }])).field).toBe('catalog[0].name');
    expect(
      inputError(() => parseCatalog([{ name: 'f', parameters: { ['p'.repeat(300)]: {} } }])).field,
    ).toMatch(/^catalog\[0\]/);
  });

  it('names the file when loading', () => {
    expect(inputError(() => loadCatalog(`${FIXTURES}/missing.json`)).message).toMatch(
      /missing\.json: cannot read file \(ENOENT\)/,
    );
    expect(inputError(() => loadCatalog(`${FIXTURES}/records.jsonl`)).message).toMatch(
      /records\.jsonl: invalid JSON/,
    );
  });

  it('formatZodError gives one line with the path', () => {
    const result = z.object({ a: z.array(z.number()) }).safeParse({ a: [1, 'x', 'y'] });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(formatZodError(result.error, ['root'])).toBe(
        'root.a[1]: expected number, received string (and 1 more problem)',
      );
  });

  it('handles a large catalog quickly', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => ({
      name: `api_${i}`,
      query_parameters: { a: { type: 'string', required: true }, b: { type: 'number' } },
      output_parameters: { x: { type: 'object', properties: { y: { type: 'string' } } } },
    }));
    const started = Date.now();
    expect(parseCatalog(entries).apis).toHaveLength(20_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('prototype safety', () => {
  const hostile = (text: string): unknown => JSON.parse(text);

  it('keeps __proto__ and constructor as ordinary keys everywhere', () => {
    const catalog = parseCatalog(
      hostile(
        '[{"name":"__proto__","query_parameters":{"__proto__":{"type":"string","required":true},"constructor":{}},' +
          '"output_parameters":{"__proto__":{"type":"object","properties":{"polluted":"string"}}}}]',
      ),
    );
    expect(catalog.apis[0].params.map((p) => p.name)).toEqual(['__proto__', 'constructor']);
    expect(paths(catalog.apis[0])).toEqual(['__proto__', '__proto__.polluted']);

    const seq = parseSequence(
      hostile('[{"name":"f","arguments":{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2}}}}]'),
    );
    expect(Object.keys(seq[0].arguments)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(seq[0].arguments)).toBe(Object.prototype);
    expect(seq[0].arguments['__proto__']).toEqual({ polluted: 1 });
    expect(parseStringForm(formatStringForm(seq))).toEqual(seq);
    expect(parseStringForm('f(__proto__={"__proto__": {"polluted": 3}})')[0].arguments).toHaveProperty([
      '__proto__',
    ]);

    const memory = parseMemory(hostile('{"__proto__":{"polluted":4}}'));
    expect(Object.keys(memory)).toEqual(['__proto__']);
    expect(parseMemory(hostile('[{"label":"__proto__","value":5}]'))['__proto__']).toBe(5);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('hostile sizes', () => {
  it('rejects absurd nesting with a message instead of a crash', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(inputError(() => parseSequence([{ name: 'f', arguments: { a: deep } }])).problem).toMatch(
      /nested deeper than/,
    );
    expect(inputError(() => parseStringForm(`f(a=${'['.repeat(5000)}${']'.repeat(5000)})`)).problem).toMatch(
      /nested deeper than/,
    );
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 5000; i++) schema = { type: 'object', properties: { x: schema } };
    expect(inputError(() => parseCatalog([{ name: 'f', output_parameters: { x: schema } }])).problem).toMatch(
      /nested deeper than/,
    );
  });
});

describe('NESTFUL sequences', () => {
  const counts = { executable: 85, 'non-executable-glaive': 169, 'non-executable-sgd': 46 };
  const samples = (dir: string, set: string) =>
    readJson(`${dir}/${set}-data.json`) as {
      input: string;
      output: { name: string; arguments: object; label?: string }[];
    }[];

  it.each(RELEASES)('all 300 samples parse and write back unchanged (%s)', (dir) => {
    let total = 0;
    for (const set of SETS) {
      const all = samples(dir, set);
      expect(all).toHaveLength(counts[set]);
      for (const sample of all) {
        const seq = parseSequence(sample);
        expect(seq.at(-1)?.name).toBe('var_result');
        expect(toNestful(seq)).toEqual(sample.output);
        expect(parseSequence(sample.output)).toEqual(seq);
        total++;
      }
    }
    expect(total).toBe(300);
  });

  it.each(RELEASES)('string form round-trips all 300 gold sequences (%s)', (dir) => {
    for (const set of SETS) {
      for (const sample of samples(dir, set)) {
        const seq = parseSequence(sample);
        const text = formatStringForm(seq);
        expect(parseStringForm(text)).toEqual(seq);
        expect(parseSequenceText(text)).toEqual(seq);
        expect(parseSequenceText(JSON.stringify(sample))).toEqual(seq);
      }
    }
  });

  it('parses arguments stored as a JSON string', () => {
    expect(parseSequence([{ name: 'f', arguments: '{"a": [1, "x"]}', label: 'var1' }])).toEqual([
      { name: 'f', arguments: { a: [1, 'x'] }, label: 'var1' },
    ]);
    const error = inputError(() =>
      parseSequence([
        { name: 'f', arguments: '{"a": 1}' },
        { name: 'g', arguments: '{a:' },
      ]),
    );
    expect(error.field).toBe('sequence[1].arguments');
    expect(error.message).toMatch(/^sequence\[1\]\.arguments: arguments of step 2 \(g\) are not valid JSON/);
    expect(inputError(() => parseSequence([{ name: 'f', arguments: '[1]' }])).message).toBe(
      'sequence[0].arguments: expected object, received array',
    );
  });

  it('reports bad shapes with their path', () => {
    expect(inputError(() => parseSequence([{ name: 'f', arguments: {}, label: 3 }])).field).toBe(
      'sequence[0].label',
    );
    expect(inputError(() => parseSequence({ input: 'q', output: [{ arguments: {} }] })).field).toBe(
      'sequence.output[0].name',
    );
    expect(inputError(() => parseSequence([{ name: 'f', arguments: { a: undefined } }])).field).toBe(
      'sequence[0].arguments.a',
    );
    expect(inputError(() => parseSequence({ foo: 1 })).message).toMatch(
      /^sequence: expected an array of steps/,
    );
    expect(inputError(() => parseSequence(42)).message).toBe(
      'sequence: expected an array of steps, an object or text, received number',
    );
    expect(inputError(() => parseSequenceText('[{"name": "f",')).message).toMatch(/^sequence: invalid JSON/);
  });

  it('loads a sequence file', () => {
    expect(loadSequence(`${FIXTURES}/tool-calls-message.json`)).toHaveLength(2);
  });
});

describe('OpenAI tool_calls', () => {
  it('reads an assistant message and assigns labels', () => {
    const seq = parseSequence(readJson(`${FIXTURES}/tool-calls-message.json`));
    expect(seq).toEqual([
      { name: 'lookup_user', arguments: { email: 'ada@example.com' }, label: 'var1' },
      { name: 'send_email', arguments: { to: '$var1.id$', body: 'Hi, (you) "there"' }, label: 'var2' },
    ]);
  });

  it('keeps given labels, avoids collisions, leaves var_result unlabelled', () => {
    const call = (name: string, args: string, label?: string) => ({
      type: 'function',
      function: { name, arguments: args },
      ...(label ? { label } : {}),
    });
    const seq = parseSequence([
      call('a', '{}', 'var2'),
      call('b', ''),
      call('c', '{"x":1}'),
      call('var_result', '{"r":"$var2$"}'),
    ]);
    expect(seq.map((s) => s.label)).toEqual(['var2', 'var3', 'var4', undefined]);
    expect(seq[3]).not.toHaveProperty('label');
    expect(parseSequence({ tool_calls: [call('a', '{}')] })).toEqual([
      { name: 'a', arguments: {}, label: 'var1' },
    ]);
    expect(
      parseSequence({ choices: [{ message: { role: 'assistant', tool_calls: [call('a', '{}')] } }] }),
    ).toHaveLength(1);
  });

  it('labels a call by its id when another call refers to that id', () => {
    const call = (id: string, name: string, args: string) => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    });
    const seq = parseSequence({
      role: 'assistant',
      tool_calls: [
        call('call_1', 'get_weather', '{"city":"Paris"}'),
        call('call_2', 'get_time', '{"city":"Paris"}'),
        call('call-3', 'get_news', '{}'),
        call('call_4', 'send_email', '{"body":"$call_1.summary$ at $call_2$, $call-3$"}'),
      ],
    });
    // call_2 is referred to, call_4 is not; call-3 is no label (a hyphen), so its reference stays text.
    expect(seq.map((s) => s.label)).toEqual(['call_1', 'call_2', 'var3', 'var4']);
    // A given label wins over the id, and an id that is another call's label is not taken twice.
    const clash = parseSequence([
      { ...call('var1', 'a', '{}'), label: 'first' },
      call('var2', 'b', '{}'),
      call('x', 'c', '{"p":"$var2.v$","q":"$first$"}'),
    ]);
    expect(clash.map((s) => s.label)).toEqual(['first', 'var2', 'var3']);
    // Two calls of one id: the first takes it. An id that is another call's place-name is not taken.
    const twice = parseSequence([
      call('c1', 'a', '{}'),
      call('c1', 'b', '{}'),
      call('x', 'c', '{"p":"$c1$"}'),
    ]);
    expect(twice.map((s) => s.label)).toEqual(['c1', 'var2', 'var3']);
    const placed = parseSequence([
      call('var2', 'a', '{}'),
      call('y', 'b', '{}'),
      call('x', 'c', '{"p":"$var2$"}'),
    ]);
    expect(placed.map((s) => s.label)).toEqual(['var1', 'var2', 'var3']);
  });

  it('a malformed arguments string names the call', () => {
    const error = inputError(() =>
      parseSequence({
        role: 'assistant',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'ok', arguments: '{}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city": "Paris"' },
          },
        ],
      }),
    );
    expect(error.field).toBe('sequence.tool_calls[1].function.arguments');
    expect(error.message).toContain('call 2 (id "call_2") to get_weather');
    expect(error.message).toContain('not valid JSON');
  });

  it('rejects a wrong tool-call type', () => {
    const error = inputError(() =>
      parseSequence([{ type: 'tool', function: { name: 'f', arguments: '{}' } }]),
    );
    expect(error.field).toBe('sequence[0].type');
  });
});

describe('string form', () => {
  it('parses labels, unlabelled steps, comments and blank lines', () => {
    const text = [
      '# a plan',
      '',
      'var1 = Api(p="v", q="$var2.f$", n=3, b=true, l=["a","b"], o={"k":1})  # trailing',
      '  Buses.FindBus(origin="New York", z=null, f=-1.5e3)',
      'var_result(answer="$var1.x$")',
    ].join('\n');
    expect(parseStringForm(text)).toEqual([
      {
        name: 'Api',
        label: 'var1',
        arguments: { p: 'v', q: '$var2.f$', n: 3, b: true, l: ['a', 'b'], o: { k: 1 } },
      },
      { name: 'Buses.FindBus', arguments: { origin: 'New York', z: null, f: -1500 } },
      { name: 'var_result', arguments: { answer: '$var1.x$' } },
    ]);
  });

  it('strings may hold commas, parentheses, escaped quotes, # and $', () => {
    const [step] = parseStringForm(
      String.raw`var1 = f(a="x, y (z)", b="say \"hi\"", c="$100-$200", d="# not a comment", e="tab\there", f="\u00e9")`,
    );
    expect(step.arguments).toEqual({
      a: 'x, y (z)',
      b: 'say "hi"',
      c: '$100-$200',
      d: '# not a comment',
      e: 'tab\there',
      f: 'é',
    });
    expect(parseStringForm(formatStringForm([step]))).toEqual([step]);
  });

  it('nested JSON values', () => {
    const args = { o: { a: [1, { b: [true, null, 'x,)'] }], 'k y': {} }, e: [], n: {} } as Record<
      string,
      Json
    >;
    const [step] = parseStringForm(
      `f(o=${JSON.stringify(args.o, null, 1).replace(/\n/g, ' ')}, e=[ ], n={ })`,
    );
    expect(step.arguments).toEqual(args);
  });

  it('accepts Python-style literals and single quotes', () => {
    expect(parseStringForm("f(a=True, b=None, c='it\\'s', d=[False,])")[0].arguments).toEqual({
      a: true,
      b: null,
      c: "it's",
      d: [false],
    });
  });

  it('quotes names that are not plain tokens', () => {
    const seq: Sequence = [
      { name: 'my api', label: 'odd label', arguments: { 'Exchange Rate': 1, 'a=b': 'c' } },
    ];
    const text = formatStringForm(seq);
    expect(text).toBe('"odd label" = "my api"("Exchange Rate"=1, "a=b"="c")');
    expect(parseStringForm(text)).toEqual(seq);
  });

  it.each([
    ['f(a=1', 1, 6, "expected ',' or ')'"],
    ['var1 = f(a=1, a=2)', 1, 15, 'parameter a given twice'],
    ['f(a=x)', 1, 5, 'unexpected word x'],
    ['f(a="open)', 1, 5, 'unterminated string'],
    ['var1 f()', 1, 6, "expected '=' or '('"],
    ['ok()\n\n  g(a=[1,2)', 3, 11, "expected ',' or ']'"],
    ['f(a=1) g()', 1, 8, 'unexpected text after the call'],
    ['f(a=1e999)', 1, 5, 'number out of range'],
    ['f(1)', 1, 4, "expected '=' after parameter 1"],
    ['f(="x")', 1, 3, "expected a parameter name, found '='"],
    ['= f()', 1, 1, "expected a label or an API name, found '='"],
    ['"" = f()', 1, 1, 'found an empty name'],
  ])('error in %j at line %i column %i', (text, line, column, problem) => {
    const error = inputError(() => parseStringForm(text));
    expect(error.field).toBe(`line ${line}, column ${column}`);
    expect(error.problem).toContain(problem);
  });

  it('parseSequenceText prefers JSON, then the string form', () => {
    expect(parseSequenceText('[{"name":"f","arguments":{}}]')).toEqual([{ name: 'f', arguments: {} }]);
    expect(parseSequenceText('f()')).toEqual([{ name: 'f', arguments: {} }]);
    expect(parseSequenceText(JSON.stringify('var1 = f(a=1)'))).toEqual([
      { name: 'f', label: 'var1', arguments: { a: 1 } },
    ]);
    expect(parseSequenceText('  \n')).toEqual([]);
    expect(parseSequence('var1 = f()')).toEqual([{ name: 'f', label: 'var1', arguments: {} }]);
  });

  it('round-trips arbitrary small sequences', () => {
    const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const name = fc.oneof(
      identifier,
      fc.stringMatching(/^[A-Za-z][\w.-]{0,10}$/),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    const step = fc
      .record({
        name,
        label: fc.option(identifier, { nil: undefined }),
        arguments: fc.dictionary(
          fc.oneof(identifier, fc.string({ maxLength: 5 })),
          fc.jsonValue({ maxDepth: 3 }),
          {
            maxKeys: 4,
          },
        ),
      })
      .map(({ name: n, label, arguments: args }): Step =>
        label === undefined
          ? { name: n, arguments: args as Record<string, Json> }
          : { name: n, arguments: args as Record<string, Json>, label },
      );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 4 }), (seq) => {
        const text = formatStringForm(seq);
        expect(parseStringForm(text)).toEqual(seq);
        expect(parseSequenceText(text)).toEqual(seq);
      }),
      { numRuns: 300 },
    );
  });
});

describe('memory', () => {
  it('reads an object or a list of items', () => {
    expect(parseMemory({ var1: { skyId: 'NYCA' }, var2: [1] })).toEqual({
      var1: { skyId: 'NYCA' },
      var2: [1],
    });
    expect(
      parseMemory([
        { label: 'var1', value: 1 },
        { label: 'var2', output: { a: null } },
      ]),
    ).toEqual({ var1: 1, var2: { a: null } });
  });

  it('rejects other input clearly', () => {
    expect(inputError(() => parseMemory('x')).message).toBe(
      'memory: expected an object {label: value} or an array of {label, value} items, received string',
    );
    expect(inputError(() => parseMemory([{ label: 'a' }])).message).toBe(
      'memory[0]: expected a value or an output',
    );
    expect(
      inputError(() =>
        parseMemory([
          { label: 'a', value: 1 },
          { label: 'a', value: 2 },
        ]),
      ).field,
    ).toBe('memory[1].label');
    expect(inputError(() => parseMemory({ a: Number.NaN })).message).toBe(
      'memory.a: expected a finite number, received NaN',
    );
  });
});

describe('records', () => {
  const jsonl = readFileSync(`${FIXTURES}/records.jsonl`, 'utf8');

  it('reads JSONL; a bad line gives an error item and the rest continue', () => {
    const items = parseRecords(jsonl);
    expect(items.map((i) => i.id)).toEqual(['a', '1', '2', '3', '7', 'c']);
    expect(items[0]).toEqual({
      id: 'a',
      sequence: [{ name: 'f', arguments: { x: 1 }, label: 'var1' }],
      memory: { var0: { k: 1 } },
      goals: { apis: ['f'] },
    });
    expect(items[1].sequence).toHaveLength(2);
    expect(items[2].error).toMatch(/^line 4: invalid JSON/);
    expect(items[3]).toEqual({ id: '3', input: 'q', sequence: [{ name: 'g', arguments: { a: 2 } }] });
    expect(items[4].error).toMatch(
      /^line 6: sequence\[0\]\.arguments: arguments of step 1 \(f\) are not valid JSON/,
    );
    expect(items[5].sequence).toEqual([{ name: 'h', arguments: {}, label: 'var1' }]);
  });

  it('streams the same items', async () => {
    const streamed: RecordItem[] = [];
    for await (const item of readRecords(createReadStream(`${FIXTURES}/records.jsonl`))) streamed.push(item);
    expect(streamed).toEqual(parseRecords(jsonl));
  });

  it('a malformed first line does not hide the rest', async () => {
    const text = `{"id": "x", "sequence": [\n${jsonl}`;
    const items = parseRecords(text);
    expect(items[0].error).toMatch(/^line 1: invalid JSON/);
    expect(items.map((i) => i.id)).toEqual(['0', 'a', '2', '3', '4', '7', 'c']);
    const streamed: RecordItem[] = [];
    for await (const item of readRecords(Readable.from([text]))) streamed.push(item);
    expect(streamed).toEqual(items);
  });

  it('reads a NESTFUL data file (JSON array of samples), also streamed', async () => {
    const text = readFileSync(`${DATA}/executable-data.json`, 'utf8');
    const items = parseRecords(text);
    expect(items).toHaveLength(85);
    expect(items.every((i) => i.error === undefined && i.sequence && i.input)).toBe(true);
    expect(items[84].id).toBe('84');
    const streamed: RecordItem[] = [];
    for await (const item of readRecords(Readable.from([text]))) streamed.push(item);
    expect(streamed).toEqual(items);
    const oneLine: RecordItem[] = [];
    for await (const item of readRecords(
      Readable.from([JSON.stringify(readJson(`${DATA}/executable-data.json`))]),
    )) {
      oneLine.push(item);
    }
    expect(oneLine).toEqual(items);
  });

  it('reads a JSON array of records, one step array, or the string form', () => {
    const items = parseRecords(JSON.stringify([{ id: 'x', sequence: 'f()', catalog: [{ name: 'f' }] }, 5]));
    expect(items[0]).toEqual({
      id: 'x',
      sequence: [{ name: 'f', arguments: {} }],
      catalog: { apis: [{ name: 'f', description: '', params: [], outputs: null }] },
    });
    expect(items[1]).toEqual({ id: '1', error: 'line 1: expected a record object, received number' });
    expect(parseRecords('[{"name":"f","arguments":{}}]')).toEqual([
      { id: '0', sequence: [{ name: 'f', arguments: {} }] },
    ]);
    expect(parseRecords('var1 = f()\nvar_result(a="$var1$")')[0].sequence).toHaveLength(2);
    expect(parseRecords('[{"a":')[0].error).toMatch(/^invalid JSON/);
    expect(parseRecords('')).toEqual([]);
  });

  it('reports bad memory, goals and catalogs per record', () => {
    const items = parseRecords(
      [
        '{"sequence": [], "memory": 3}',
        '{"sequence": [], "goals": {"apis": [1]}}',
        '{"sequence": [], "catalog": [{"name": "f", "query_parameters": {"a": {"required": 1}}}]}',
        '{"nothing": true}',
      ].join('\n'),
    );
    expect(items.map((i) => i.error)).toEqual([
      'line 1: memory: expected an object {label: value} or an array of {label, value} items, received number',
      'line 2: goals.apis[0]: expected string, received number',
      'line 3: catalog[0].query_parameters.a.required: expected boolean, received number',
      'line 4: expected a record with a "sequence" (or a NESTFUL sample with an "output")',
    ]);
  });
});
