/**
 * Property-based fuzzing with hostile inputs: deep nesting, very long strings and sequences, `__proto__` /
 * `constructor` / `prototype` keys, lone surrogates, numbers as names, reference cycles, duplicate labels,
 * empty and 10,000-API catalogs. Every input must end in a result or an InputError, leave Object.prototype
 * alone, and every repaired sequence must validate. `test/fuzz.test.ts` runs the same targets, small.
 *
 *   npx tsx benchmarks/fuzz.ts [--runs 4000] [--solver-runs 400] [--seed 42] [--only name,name]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { parseCatalog } from '../src/adapters/catalog.ts';
import { InputError, parseAt } from '../src/adapters/errors.ts';
import { jsonValue } from '../src/adapters/json.ts';
import { parseMemory } from '../src/adapters/memory.ts';
import {
  formatStringForm,
  parseSequence,
  parseSequenceText,
  parseStringForm,
} from '../src/adapters/sequence.ts';
import { checkToolCalls } from '../src/agents/hook.ts';
import type { Catalog, Json, Sequence } from '../src/domain/types.ts';
import { heal } from '../src/heal/index.ts';
import { fixTool, validateTool } from '../src/mcp/tools.ts';
import { checkStep } from '../src/pipeline/step.ts';
import { repair } from '../src/pipeline/repair.ts';
import {
  findReferences,
  formatReference,
  mapReferences,
  parseReferenceBody,
} from '../src/reference/parse.ts';
import { validate } from '../src/validate/validate.ts';

/** A broken property (not an InputError, not an expected result). */
export class Violation extends Error {}

const fail = (message: string): never => {
  throw new Violation(message);
};

// ---- hostile values -------------------------------------------------------------------------------

const SPECIAL = [
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
const objectOf = <T>(entries: fc.Arbitrary<[string, T][]>) =>
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

// ---- catalogs and sequences -----------------------------------------------------------------------

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'any', 'Date (yyyy-mm-dd)'];
const NAMES = ['__proto__', 'constructor', 'prototype', 'id', 'query', '0', '12', 'name', 'toString'];
const LABELS = ['var1', 'var2', 'var3', '__proto__', 'constructor', 'prototype'];

/**
 * Catalogs, steps and tool calls over a small pool of hostile names, so that names collide: reference
 * cycles (A refers to B's label and B to A's), duplicate labels, unknown APIs, clashing entries.
 * `avoidFindings` leaves out the inputs of the open findings listed in docs/fuzzing.md.
 */
export function structured(avoidFindings = false) {
  const pool = fc.constantFrom(...NAMES);
  const paramName = avoidFindings ? fc.constantFrom(...NAMES.filter((n) => n !== '__proto__')) : pool;
  const type = fc.record({ type: fc.constantFrom(...TYPES) });
  const output = fc.oneof(
    type,
    fc.record({
      type: fc.constant('object'),
      properties: objectOf(fc.array(fc.tuple(paramName, type), { maxLength: 2 })),
    }),
  );
  const entry = fc.record({
    name: fc.oneof(
      pool,
      fc.constantFrom('search', 'search2', 'getX', ...(avoidFindings ? [] : ['var_result'])),
    ),
    description: fc.constant('api'),
    parameters: objectOf(
      fc.array(fc.tuple(paramName, fc.record({ type: fc.constantFrom(...TYPES), required: fc.boolean() })), {
        maxLength: 3,
      }),
    ),
    output_parameters: objectOf(
      fc.array(fc.tuple(avoidFindings ? paramName : pool, output), { maxLength: 3 }),
    ),
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

/** A catalog of `n` APIs over a shared vocabulary (deterministic). */
export function bigCatalog(n = 10_000, avoidFindings = false): Catalog {
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
    avoidFindings ? 'country' : '__proto__',
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

// ---- targets --------------------------------------------------------------------------------------

export interface Target {
  readonly name: string;
  /** Runs that need the solver are slow: the big run gives them fewer inputs. */
  readonly solver: boolean;
  readonly arbitrary: fc.Arbitrary<unknown>;
  /** Throws a Violation when a property breaks; any non-InputError exception is a failure too. */
  readonly run: (input: never) => unknown;
}

const json = (v: unknown) => JSON.stringify(v);

function checkRoundTrip(seq: Sequence): void {
  const again = parseStringForm(formatStringForm(seq));
  if (json(again) !== json(seq)) fail(`string form round trip changed ${json(seq).slice(0, 200)}`);
}

function checkRepair(result: Awaited<ReturnType<typeof repair>>, sequence: Sequence, catalog: Catalog): void {
  if (result.status === 'error') fail(`repair status error: ${result.reason}`);
  if (result.status === 'repaired' && !validate(result.sequence, catalog, { pseudoSteps: true }).valid)
    fail('repaired sequence does not validate');
  if ((result.determination === true) !== validate(sequence, catalog).valid)
    fail('determination disagrees with validate');
}

const big = new Map<boolean, Catalog>();
export function bigCatalogOnce(avoidFindings = false): Catalog {
  if (!big.has(avoidFindings)) big.set(avoidFindings, bigCatalog(10_000, avoidFindings));
  return big.get(avoidFindings)!;
}

export interface TargetOptions {
  /** Leave out the inputs of the open findings (docs/fuzzing.md), for a CI run that must pass. */
  readonly avoidFindings?: boolean;
  /** Shorter long sequences, for a CI-sized run. */
  readonly small?: boolean;
}

export function targets(options: TargetOptions = {}): Target[] {
  const avoid = options.avoidFindings === true;
  const {
    catalog: smallCatalog,
    steps: hostileSteps,
    toolCalls: hostileToolCalls,
    value: argValue,
  } = structured(avoid);
  const maybe = avoid ? hostileJson.filter((v) => !json(v)?.includes('"__proto__"')) : hostileJson;
  const wideSteps = fc.array(
    fc.record(
      {
        name: hostileName,
        arguments: objectOf(fc.array(fc.tuple(hostileName, hostileJson), { maxLength: 3 })),
        label: hostileName,
      },
      { requiredKeys: ['name', 'arguments'] },
    ),
    { maxLength: 5 },
  );
  const [shortest, longest] = options.small ? [10, 40] : [20, 200];
  return [
    {
      name: 'reference',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => {
        for (const f of findReferences(text)) {
          if (text.slice(f.start, f.end) !== f.ref.raw) fail('span does not match raw');
          if (json(parseReferenceBody(f.ref.raw.slice(1, -1))) !== json(f.ref)) fail('reparse differs');
          if (formatReference(f.ref.label, f.ref.path) !== f.ref.raw) fail(`format differs: ${f.ref.raw}`);
        }
      },
    },
    {
      name: 'reference-map',
      solver: false,
      arbitrary: maybe,
      run: (raw: unknown) => {
        // Only what the adapters let through (nesting <= 128) ever reaches the reference code.
        const value = parseAt(jsonValue, raw, ['value']);
        const out = mapReferences(value, (ref) => ref.raw);
        if (json(out) !== json(value)) fail('identity mapReferences changed the value');
      },
    },
    {
      name: 'string-form-text',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => checkRoundTrip(parseStringForm(text)),
    },
    {
      name: 'string-form-roundtrip',
      solver: false,
      arbitrary: fc.oneof(hostileSteps, wideSteps),
      run: (steps: unknown) => checkRoundTrip(parseSequence(steps)),
    },
    {
      name: 'catalog',
      solver: false,
      arbitrary: fc.oneof(smallCatalog, maybe),
      run: (raw: unknown) => parseCatalog(raw),
    },
    {
      name: 'sequence',
      solver: false,
      arbitrary: fc.oneof(hostileSteps, hostileToolCalls, maybe),
      run: (raw: unknown) => parseSequence(raw),
    },
    {
      name: 'sequence-text',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => parseSequenceText(text),
    },
    { name: 'memory', solver: false, arbitrary: maybe, run: (raw: unknown) => parseMemory(raw) },
    {
      name: 'heal',
      solver: false,
      arbitrary: fc.tuple(smallCatalog, fc.oneof(hostileToolCalls, hostileSteps)),
      run: ([rawCatalog, calls]: [unknown, unknown]) => {
        const catalog = parseCatalog(rawCatalog);
        const healed = heal(calls, catalog);
        if (heal(healed.sequence, catalog).edits.length > 0) fail('healing is not idempotent');
      },
    },
    {
      name: 'hook',
      solver: true,
      arbitrary: fc.tuple(smallCatalog, hostileToolCalls),
      run: async ([rawCatalog, calls]: [unknown, unknown[]]) => {
        const catalog = parseCatalog(rawCatalog);
        const check = await checkToolCalls(calls, { catalog, timeout: 5 });
        if (check.executable && !validate(check.sequence, catalog).valid)
          fail('executable calls do not validate');
        if (check.repair?.status === 'error') fail(`repair status error: ${check.repair.reason}`);
      },
    },
    {
      name: 'mcp-tools',
      solver: true,
      arbitrary: fc.tuple(
        fc.oneof(smallCatalog, maybe),
        fc.oneof(hostileSteps, hostileToolCalls, hostileString),
        fc.option(maybe),
      ),
      run: async ([catalog, sequence, memory]: [unknown, unknown, Json | null]) => {
        const args = { catalog, sequence, ...(memory === null ? {} : { memory }) };
        validateTool(args);
        const result = (await fixTool(args)) as { status: string; reason?: string };
        if (result.status === 'error') fail(`fix status error: ${result.reason}`);
      },
    },
    {
      name: 'repair',
      solver: true,
      arbitrary: fc.tuple(smallCatalog, hostileSteps),
      run: async ([rawCatalog, steps]: [unknown, unknown]) => {
        const catalog = parseCatalog(rawCatalog);
        const sequence = parseSequence(steps);
        checkRepair(await repair(sequence, catalog, { timeout: 5 }), sequence, catalog);
      },
    },
    {
      name: 'repair-10k-apis',
      solver: true,
      arbitrary: fc.array(
        fc.record({
          name: fc.oneof(
            fc.nat(9999).map((i) => `api_${i}`),
            fc.nat(9999).map((i) => `apj_${i}`),
            fc.constantFrom('0', '997'),
          ),
          arguments: objectOf(
            fc.array(fc.tuple(fc.constantFrom('id', 'query', 'geoId', 'citty', '__proto__'), argValue), {
              maxLength: 2,
            }),
          ),
          label: fc.constantFrom('var1', 'var2', 'var3'),
        }),
        { maxLength: 4 },
      ),
      run: async (steps: unknown) => {
        const sequence = parseSequence(steps);
        const catalog = bigCatalogOnce(avoid);
        checkRepair(await repair(sequence, catalog, { timeout: 5 }), sequence, catalog);
      },
    },
    {
      name: 'long-sequence',
      solver: true,
      arbitrary: fc.tuple(fc.integer({ min: shortest, max: longest }), fc.nat(), fc.boolean()),
      run: async ([n, salt, cyclic]: [number, number, boolean]) => {
        const catalog = parseCatalog([
          {
            name: 'search',
            parameters: { id: { type: 'string', required: true } },
            output_parameters: { id: { type: 'string' } },
          },
        ]);
        const text = Array.from({ length: n }, (_, i) => {
          const ref = cyclic && i === 0 ? `var${n}` : `var${(i + salt) % (i + 1)}`;
          return `var${i + 1} = ${i % 17 === 5 ? 'serch' : 'search'}(id="$${ref}.id$")`;
        }).join('\n');
        const sequence = parseStringForm(text);
        checkRoundTrip(sequence);
        heal(sequence, catalog);
        checkRepair(await repair(sequence, catalog, { timeout: 5 }), sequence, catalog);
      },
    },
    {
      name: 'check-step',
      solver: true,
      arbitrary: fc.tuple(smallCatalog, hostileSteps),
      run: async ([rawCatalog, steps]: [unknown, unknown]) => {
        const catalog = parseCatalog(rawCatalog);
        const sequence = parseSequence(steps);
        if (sequence.length === 0) return;
        await checkStep(sequence[sequence.length - 1], catalog, {
          executed: sequence.slice(0, -1),
          timeout: 5,
        });
      },
    },
  ];
}

// ---- harness --------------------------------------------------------------------------------------

export type Outcome = 'result' | 'input';

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
};

type Snapshot = Map<string, PropertyDescriptor | undefined>;

export function snapshot(): Snapshot {
  const out: Snapshot = new Map();
  for (const [name, proto] of Object.entries(PROTOTYPES))
    for (const key of Reflect.ownKeys(proto))
      out.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(proto, key));
  return out;
}

/** What changed on the built-in prototypes since `before` (and puts it back), or `null`. */
export function pollution(before: Snapshot): string | null {
  const changed: string[] = [];
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    for (const key of Reflect.ownKeys(proto)) {
      const id = `${name}.${String(key)}`;
      const was = before.get(id);
      const now = Object.getOwnPropertyDescriptor(proto, key);
      if (was === undefined) {
        changed.push(`${id} added`);
        delete (proto as Record<PropertyKey, unknown>)[key];
      } else if (was.value !== now?.value || was.get !== now?.get) {
        changed.push(`${id} replaced`);
        Object.defineProperty(proto, key, was);
      }
    }
  }
  return changed.length > 0 ? changed.join(', ') : null;
}

/** Runs one input: a result or an InputError is fine; anything else (or a polluted prototype) throws. */
export async function runOne(target: Target, input: unknown): Promise<Outcome> {
  const before = snapshot();
  let outcome: Outcome = 'result';
  try {
    await target.run(input as never);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    outcome = 'input';
  } finally {
    const dirty = pollution(before);
    if (dirty) fail(`built-in prototype changed: ${dirty}`);
  }
  return outcome;
}

const describeError = (e: unknown) =>
  (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)).slice(0, 300);
const preview = (v: unknown) => {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = '(too deep to print)';
  }
  return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
};

interface Report {
  target: string;
  inputs: number;
  results: number;
  inputErrors: number;
  failures: number;
  ms: number;
  kinds: Record<string, { count: number; example: string }>;
  shrunk?: string;
}

async function fuzzTarget(target: Target, runs: number, seed: number, budgetMs: number): Promise<Report> {
  const report: Report = {
    target: target.name,
    inputs: 0,
    results: 0,
    inputErrors: 0,
    failures: 0,
    ms: 0,
    kinds: {},
  };
  const start = performance.now();
  for (const input of fc.sample(target.arbitrary, { numRuns: runs, seed })) {
    if (performance.now() - start > budgetMs) break;
    report.inputs++;
    try {
      if ((await runOne(target, input)) === 'result') report.results++;
      else report.inputErrors++;
    } catch (error) {
      report.failures++;
      const kind = describeError(error).replace(/\d+/g, 'N').slice(0, 120);
      report.kinds[kind] ??= { count: 0, example: preview(input) };
      report.kinds[kind].count++;
    }
  }
  if (report.failures > 0) {
    const found = await fc.check(
      fc.asyncProperty(target.arbitrary, async (x) => void (await runOne(target, x))),
      {
        seed,
        numRuns: Math.min(runs, 500),
        // Shrinking re-runs the target many times: bound it, keeping the smallest input found so far.
        interruptAfterTimeLimit: 60_000,
      },
    );
    if (found.failed)
      report.shrunk = `${preview(found.counterexample?.[0])} -> ${describeError(found.errorInstance)}`;
  }
  report.ms = Math.round(performance.now() - start);
  return report;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const runs = flag('--runs', 6000);
  const solverRuns = flag('--solver-runs', 500);
  const seed = flag('--seed', 42);
  const budget = flag('--budget', 180) * 1000;
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
  const started = performance.now();
  const reports: Report[] = [];
  for (const target of targets()) {
    if (only && !only.includes(target.name)) continue;
    const report = await fuzzTarget(target, target.solver ? solverRuns : runs, seed, budget);
    reports.push(report);
    console.log(
      `${report.target.padEnd(22)} ${String(report.inputs).padStart(6)} inputs  ${String(report.results).padStart(6)} results  ${String(report.inputErrors).padStart(6)} InputErrors  ${String(report.failures).padStart(5)} failures  ${(report.ms / 1000).toFixed(1)} s`,
    );
    for (const [kind, { count, example }] of Object.entries(report.kinds))
      console.log(`    ${count} x ${kind}\n      e.g. ${example}`);
    if (report.shrunk) console.log(`    shrunk: ${report.shrunk}`);
  }
  const total = reports.reduce((n, r) => n + r.inputs, 0);
  const failures = reports.reduce((n, r) => n + r.failures, 0);
  console.log(
    `total: ${total} inputs, ${failures} failures, seed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exitCode = failures > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
