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

/** Every value the package exports: each entry of package.json's `exports`, read from its source. */
async function packageExports(): Promise<[entry: string, name: string, value: unknown][]> {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const out: [string, string, unknown][] = [];
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (!built.endsWith('.js')) continue; // ./package.json
    const source = built.replace(/^\.\/dist\//, '../').replace(/\.js$/, '.ts');
    const module = (await import(source)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) out.push([entry, name, value]);
  }
  return out;
}

/** Exported classes: constructed, not called; their constructors take what the user wrote. */
const CLASSES: Record<string, string> = {
  InputError: 'the error class itself: any field and problem make an error',
  SummaryAccumulator: 'a batch summary builder: constructed with options, fed lines the batch wrote',
};

/** Exported functions the walk does not call, and why. */
const NOT_CALLED: Record<string, string> = {
  // With no argument it serves MCP on this process's stdin and stdout; its argument is createMcpServer's
  // (walked), and a bad one is refused before any transport is opened (tested below).
  serveStdio: 'opens the standard streams',
};

/** Why a non-function export is not walked (a constant, a schema or a list cannot be called). */
function notAFunction(value: unknown): string {
  if (value !== null && typeof value === 'object' && 'safeParse' in value) return 'a zod schema';
  return `a constant (${Array.isArray(value) ? 'array' : typeof value})`;
}

const exported = await packageExports();
const functions = exported.filter(
  ([, name, value]) => typeof value === 'function' && !(name in CLASSES) && !(name in NOT_CALLED),
);

describe('every export is accounted for', () => {
  it('lists the exports, each function walked unless skipped with a reason', () => {
    expect(functions.length).toBeGreaterThan(100);
    for (const [entry, name, value] of exported) {
      if (typeof value !== 'function') {
        expect(notAFunction(value), `${entry} ${name}`).toMatch(/schema|constant/);
        continue;
      }
      const isClass = /^class\b/.test(Function.prototype.toString.call(value));
      // A class is listed with its reason; a function listed as a class would escape the walk.
      expect(isClass, `${entry} ${name}: a class must be listed in CLASSES, a function must not`).toBe(
        name in CLASSES,
      );
    }
    for (const name of [...Object.keys(CLASSES), ...Object.keys(NOT_CALLED)])
      expect(exported.map(([, n]) => n)).toContain(name);
  });

  it('serveStdio refuses bad defaults before opening a transport', async () => {
    const { serveStdio } = await import('../src/mcp/server.ts');
    expect((await inputError(() => serveStdio(5 as never))).field).toBe('defaults');
  });
});

describe('garbage in, an InputError or an answer out, from every exported function', () => {
  const garbage = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.integer(),
    fc.string(),
    fc.boolean(),
    fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string(), fc.constant(null)), {
      maxKeys: 2,
    }),
    fc.constant({}),
    fc.constant(executable),
    fc.constant(gold),
  );
  it.each(functions.map(([entry, name, f]) => [`${entry} ${name}`, f] as const))('%s', async (_name, f) => {
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { maxLength: 3 }), async (args) => {
        let answer: unknown;
        try {
          answer = await any(f)(...args);
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
        }
        // A server built from garbage that happens to be valid options: close it.
        if (answer && typeof (answer as { close?: unknown }).close === 'function')
          await (answer as { close: () => unknown }).close();
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
