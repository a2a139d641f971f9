/**
 * The library's entry points check their arguments: a missing or unparsed catalog, a sequence that is not
 * one, an option of the wrong kind or out of range is an `InputError` naming the argument, never a
 * TypeError from deep inside nor an option silently ignored; `buildServer` refuses bad options likewise.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.ts';
import { InputError } from '../src/model/errors.ts';
import { buildServer } from '../src/server/app.ts';
import { executable, GOLD, seq } from './helpers.ts';

const gold = seq(GOLD);
const rawCatalog = JSON.parse(readFileSync('data/nestful/executable-spec.json', 'utf8'));
const calls = [
  { id: 'c1', type: 'function', function: { name: 'SkyScrapperSearchAirport', arguments: '{}' } },
];

/** Runs `f` and returns the InputError it throws (or rejects with); fails on anything else. */
async function inputError(f: () => unknown): Promise<InputError> {
  try {
    await f();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('no error thrown');
}

const any = (f: unknown) => f as (...args: unknown[]) => unknown;

describe('bad arguments name the argument', () => {
  const cases: [string, () => unknown, string][] = [
    ['repair(null, catalog)', () => any(lib.repair)(null, executable), 'sequence'],
    ['repair(sequence, null)', () => any(lib.repair)(gold, null), 'catalog'],
    ['repair(sequence, catalog JSON)', () => any(lib.repair)(gold, rawCatalog), 'catalog'],
    ['validate(sequence, null)', () => any(lib.validate)(gold, null), 'catalog'],
    ['validate([5], catalog)', () => any(lib.validate)([5], executable), 'sequence[0]'],
    ['compress(null, catalog)', () => any(lib.compress)(null, executable), 'sequence'],
    ['checkStep(null, catalog)', () => any(lib.checkStep)(null, executable), 'call'],
    ['parseSequenceText(null)', () => any(lib.parseSequenceText)(null), 'input'],
    ['withWeights(null, {})', () => any(lib.withWeights)(null, {}), 'model'],
    ['heal([], null)', () => any(lib.heal)([], null), 'catalog'],
    ['checkToolCalls(calls, {})', () => any(lib.checkToolCalls)(calls, {}), 'options.catalog'],
    ['scoreRepair(null)', () => any(lib.scoreRepair)(null), 'input'],
    ['getSolver("nope")', () => any(lib.getSolver)('nope'), 'solver'],
  ];
  it.each(cases)('%s', async (_name, f, field) => {
    expect((await inputError(f)).field).toBe(field);
  });
});

describe('bad options name the option', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ mode: 'nope' }, 'options.mode'],
    [{ fixes: -2 }, 'options.fixes'],
    [{ memory: 5 }, 'options.memory'],
    [{ mappings: 'x' }, 'options.mappings'],
    [{ timeout: -1 }, 'options.timeout'],
    [{ timeout: 'x' }, 'options.timeout'],
    [{ cost: {} }, 'options.cost.weights'],
    [{ solver: 'nope' }, 'options.solver'],
    [{ goals: { apis: ['Nope'] } }, 'options.goals.apis[0]'],
  ];
  it.each(cases)('repair with %o', async (options, field) => {
    expect((await inputError(() => lib.repair(gold, executable, options as never))).field).toBe(field);
    expect((await inputError(() => lib.compress(gold, executable, options as never))).field).toBe(field);
  });

  it('checkToolCalls with an unknown feedback format', async () => {
    const f = () => lib.checkToolCalls(calls, { catalog: executable, feedback: 'nope' as never });
    expect((await inputError(f)).field).toBe('options.feedback');
  });

  it('good options in their parsed and JSON forms still repair', async () => {
    const memory = [{ label: 'var0', value: { skyId: 'NYCA' } }];
    const result = await lib.repair(gold, executable, { memory: memory as never, timeout: 5, fixes: 1 });
    expect(result.status).toBe('valid');
  });

  it.each([
    [{ workers: 'x' }, 'options.workers'],
    [{ workers: 0 }, 'options.workers'],
    [{ requestTimeoutMs: -5 }, 'options.requestTimeoutMs'],
    [{ catalogLimits: { maxCatalogs: 'many' } }, 'options.catalogLimits.maxCatalogs'],
  ])('buildServer(%o)', async (options, field) => {
    expect((await inputError(() => buildServer(options as never))).field).toBe(field);
  });
});

/** The entry points that take a sequence, a catalog or options (the ones checked at the edge). */
const ENTRY_POINTS = [
  'validate',
  'repair',
  'compress',
  'compressOptions',
  'checkStep',
  'memoryFromCalls',
  'withWeights',
  'heal',
  'scoreRepair',
  'checkToolCalls',
  'checkCall',
  'parseSequence',
  'parseSequenceText',
  'parseStringForm',
  'parseCatalog',
  'parseMappings',
  'parseMemory',
  'parseCostModel',
  'getSolver',
  'createSolver',
] as const;

describe('garbage in, an InputError or an answer out', () => {
  const garbage = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.integer(),
    fc.string(),
    fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 3 }),
    fc.constant(executable),
    fc.constant(gold),
  );
  it.each(ENTRY_POINTS)('%s', async (name) => {
    const f = any((lib as Record<string, unknown>)[name]);
    expect(typeof f).toBe('function');
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { maxLength: 3 }), async (args) => {
        try {
          await f(...args);
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
