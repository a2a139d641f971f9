/**
 * Catalogs, steps and tool calls over a small pool of hostile names, so that names collide: reference
 * cycles (A refers to B's label and B to A's), duplicate labels, unknown APIs, clashing entries, a catalog
 * API named like the answer step (`var_result`), and a 10,000-API catalog.
 */
import fc from 'fast-check';
import { parseCatalog } from '../../src/read/catalog.ts';
import type { Catalog } from '../../src/model/types.ts';
import { hostileJsonText, hostileString, objectOf } from './inputs.ts';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'any', 'Date (yyyy-mm-dd)'];
const NAMES = ['__proto__', 'constructor', 'prototype', 'id', 'query', '0', '12', 'name', 'toString'];
const LABELS = ['var1', 'var2', 'var3', '__proto__', 'constructor', 'prototype'];

export function structured() {
  const pool = fc.constantFrom(...NAMES);
  const type = fc.record({ type: fc.constantFrom(...TYPES) });
  const output = fc.oneof(
    type,
    fc.record({
      type: fc.constant('object'),
      properties: objectOf(fc.array(fc.tuple(pool, type), { maxLength: 2 })),
    }),
  );
  const entry = fc.record({
    name: fc.oneof(pool, fc.constantFrom('search', 'search2', 'getX', 'var_result')),
    description: fc.constant('api'),
    parameters: objectOf(
      fc.array(fc.tuple(pool, fc.record({ type: fc.constantFrom(...TYPES), required: fc.boolean() })), {
        maxLength: 3,
      }),
    ),
    output_parameters: objectOf(fc.array(fc.tuple(pool, output), { maxLength: 3 })),
  });
  const catalog = fc.array(entry, { maxLength: 4 }).map((entries) => {
    const seen = new Set<string>();
    return entries.filter((e) => !seen.has(e.name) && seen.add(e.name));
  });
  const value = fc.oneof(
    fc.tuple(fc.constantFrom(...LABELS), pool).map(([l, f]) => `$${l}.${f}$`),
    fc.constantFrom(...LABELS).map((l) => `$${l}$`),
    hostileString,
    fc.integer(),
    fc.constant('5'),
    fc.constant('{"a": 1}'),
  );
  const args = objectOf(fc.array(fc.tuple(pool, value), { maxLength: 3 }));
  const steps = fc.array(
    fc.record(
      {
        name: fc.oneof(pool, fc.constantFrom('search', 'serch', 'getX', 'var_result')),
        arguments: args,
        label: fc.constantFrom(...LABELS),
      },
      { requiredKeys: ['name', 'arguments'] },
    ),
    { maxLength: 6 },
  );
  /** OpenAI tool calls with malformed, double-encoded, truncated or hostile argument strings. */
  const toolCalls = fc.array(
    fc.record({
      id: fc.string({ maxLength: 4 }),
      type: fc.constant('function'),
      function: fc.record({
        name: fc.oneof(pool, fc.constantFrom('search', 'serch')),
        arguments: fc.oneof(
          hostileJsonText,
          hostileJsonText.map((t) => t.slice(0, -1)),
          args.map((o) => JSON.stringify(JSON.stringify(o))),
          args.map((o) => JSON.stringify(o).replaceAll('"', "'")),
          hostileString,
        ),
      }),
    }),
    { maxLength: 5 },
  );
  return { catalog, steps, toolCalls, args, value };
}

/** A catalog of `n` APIs over a shared vocabulary (deterministic), with `__proto__` among the names. */
export function bigCatalog(n = 10_000): Catalog {
  const words = [
    'id',
    'query',
    'city',
    'date',
    'geoId',
    'skyId',
    'price',
    'name',
    'lat',
    'lon',
    '__proto__',
    'constructor',
  ];
  return parseCatalog(
    Array.from({ length: n }, (_, i) => ({
      name: i % 997 === 0 ? String(i) : `api_${i}`,
      description: `api ${i}`,
      parameters: {
        [words[i % 12]]: { type: 'string', required: true },
        [words[(i * 7) % 12]]: { type: 'number', required: false },
      },
      output_parameters: {
        [words[(i * 5 + 1) % 12]]: { type: 'string' },
        [words[(i * 3 + 2) % 12]]: { type: 'string' },
      },
    })),
  );
}

let big: Catalog | undefined;
/** The 10,000-API catalog, built once (it takes a moment). */
export function bigCatalogOnce(): Catalog {
  big ??= bigCatalog();
  return big;
}
