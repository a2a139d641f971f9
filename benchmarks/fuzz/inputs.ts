/**
 * Hostile values for the fuzz targets: strings with references, lone surrogates and the string form's
 * punctuation, special names (`__proto__`, `constructor`, numbers), JSON with hostile keys and very deep
 * nesting, and JSON text nested far deeper than any value.
 */
import fc from 'fast-check';
import type { Json } from '../../src/model/types.ts';

export const SPECIAL = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '0',
  '1',
  '-1',
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const refChar = fc.constantFrom(
  '$',
  '.',
  '[',
  ']',
  '0',
  '9',
  ' ',
  'var1',
  '"',
  '\\',
  '=',
  '(',
  ')',
  ',',
  '#',
  '\n',
);

/** Strings with references, lone surrogates, special names and the string form's punctuation. */
export const hostileString = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...SPECIAL,
      '',
      ' ',
      '$var1.skyId$',
      '$100-$200',
      '${x}',
      'a\ud800b',
      '\udfff',
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(refChar, loneSurrogate, fc.string({ maxLength: 3 })), { maxLength: 12 })
      .map((a) => a.join('')),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 300_000 }).map((n) => 'x'.repeat(n)) },
);

/** Names that are still names to the adapters (non-empty), but hostile ones. */
export const hostileName = fc.oneof(
  fc.constantFrom(...SPECIAL, 'var1', 'var2', 'a b', 'Exchange Rate', 'x'.repeat(256)),
  fc.integer({ min: 0, max: 99 }).map(String),
  fc.string({ minLength: 1, maxLength: 8 }),
);

/** An object built the way JSON.parse builds one: `__proto__` stays an own key. */
export const objectOf = <T>(entries: fc.Arbitrary<[string, T][]>) =>
  entries.map((e) => Object.fromEntries(e) as Record<string, T>);

const nested = (depth: number, object: boolean): Json => {
  let v: Json = '$var1.x$';
  for (let i = 0; i < depth; i++) v = object ? { a: v } : [v];
  return v;
};

/** JSON values with hostile keys and strings, plus very deep nesting. */
export const hostileJson: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.letrec<{ json: Json }>((tie) => ({
      json: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(
          hostileString,
          fc.double(),
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
        ) as fc.Arbitrary<Json>,
        fc.array(tie('json'), { maxLength: 4 }),
        objectOf(fc.array(fc.tuple(fc.oneof(hostileName, hostileString), tie('json')), { maxLength: 4 })),
      ),
    })).json,
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 100, max: 3000 }), fc.boolean()).map(([d, o]) => nested(d, o)),
  },
);

/** JSON text, including nesting far deeper than any value above (`[[[[...]]]]`, 100,000 levels). */
export const hostileJsonText = fc.oneof(
  { weight: 8, arbitrary: hostileJson.map((j) => JSON.stringify(j) ?? '') },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((d) => `{"a":${'['.repeat(d)}${']'.repeat(d)}}`),
  },
);
