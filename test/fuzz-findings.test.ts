/**
 * Regression tests for what the fuzzer (benchmarks/fuzz.ts) found: the key `__proto__` in memory, argument
 * values and parameter names, and a catalog API named like the answer step. See docs/fuzzing.md.
 */
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { parseSequence, parseStringForm } from '../src/read/sequence.ts';
import { checkStep, memoryFromCalls } from '../src/repair/step.ts';
import { repair } from '../src/repair/repair.ts';
import { mapReferences } from '../src/read/references.ts';
import { validate } from '../src/validate/validate.ts';

const hasOwn = (value: unknown, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** Runs `body`, then removes `polluted` from Object.prototype should it have been added. */
async function guarded(body: () => unknown): Promise<void> {
  try {
    await body();
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
}

const protoOutputCatalog = () =>
  parseCatalog(
    JSON.parse(
      '[{"name":"a","output_parameters":{"__proto__":{"type":"object","properties":{"polluted":{"type":"string"}}}}},' +
        '{"name":"g","parameters":{"x":{"type":"string","required":true}}}]',
    ),
  );

describe('fuzz findings (regressions)', () => {
  it('F1 memoryFromCalls: an output path __proto__.x is an own key of the memory, not Object.prototype', () =>
    guarded(() => {
      const memory = memoryFromCalls([{ name: 'a', arguments: {}, label: 'var1' }], protoOutputCatalog());
      expect(hasOwn(Object.prototype, 'polluted')).toBe(false);
      const var1 = memory.var1 as Record<string, unknown>;
      expect(Object.getPrototypeOf(var1)).toBe(Object.prototype);
      expect(hasOwn(var1, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(var1, '__proto__')?.value).toEqual({ polluted: null });
    }));

  it('F1 checkStep: a reference through an executed __proto__ output is checked and repaired', () =>
    guarded(async () => {
      const catalog = protoOutputCatalog();
      const executed = parseStringForm('var1 = a()');
      const [call] = parseStringForm('g(x="$var1.__proto__.pollutd$")');
      const check = await checkStep(call, catalog, { executed });
      expect(hasOwn(Object.prototype, 'polluted')).toBe(false);
      expect(check.repair.status).toBe('repaired');
      expect(check.corrected).toEqual({ name: 'g', arguments: { x: '$var1.__proto__.polluted$' } });
    }));

  it('F2 mapReferences: a __proto__ key stays an own key holding the rewritten value', () => {
    const value = JSON.parse('{"__proto__": {"x": "$var1.a$"}}');
    const out = mapReferences(value, (ref) => ref.raw.replace('var1', 'var2')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ x: '$var2.a$' });
  });

  it('F2 repair: a reassigned reference under a __proto__ key is kept, rewritten', async () => {
    const catalog = parseCatalog([
      { name: 'a', output_parameters: { id: { type: 'string' } } },
      { name: 'f', parameters: { filter: { type: 'object', required: true } } },
    ]);
    const sequence = parseSequence(
      JSON.parse(
        '[{"name":"a","arguments":{},"label":"var1"},{"name":"f","arguments":{"filter":{"__proto__":"$var1.idd$"}},"label":"var2"}]',
      ),
    );
    const result = await repair(sequence, catalog);
    expect(result.status).toBe('repaired');
    expect(result.edits.map((e) => e.detail)).toEqual(['filter: $var1.idd$ -> $var1.id$']);
    const filter = result.sequence[1].arguments.filter as Record<string, unknown>;
    expect(Object.keys(filter)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(filter, '__proto__')?.value).toBe('$var1.id$');
    expect(validate(result.sequence, catalog).valid).toBe(true);
  });

  it('F3 repair: a missing required parameter named __proto__ is asked for and the call validates', async () => {
    const catalog = parseCatalog(
      JSON.parse('[{"name":"f","parameters":{"__proto__":{"type":"string","required":true}}}]'),
    );
    const result = await repair(parseStringForm('f()'), catalog);
    expect(result.status).toBe('repaired');
    expect(result.edits.map((e) => e.detail)).toEqual(['ask(__proto__)']);
    expect(validate(result.sequence, catalog, { pseudoSteps: true }).valid).toBe(true);
    const [ask, call] = result.sequence;
    expect(ask.name).toBe('ask');
    expect(call.name).toBe('f');
    expect(Object.keys(call.arguments)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(call.arguments, '__proto__')?.value).toBe(`$${ask.label}$`);
  });

  it('F3 repair: an accepted argument named __proto__ is kept in a repaired call', async () => {
    const catalog = parseCatalog(
      JSON.parse(
        '[{"name":"f","parameters":{"__proto__":{"type":"string"},"q":{"type":"string","required":true}}}]',
      ),
    );
    const result = await repair(parseStringForm('f(__proto__="a", qq="x")'), catalog);
    expect(result.status).toBe('repaired');
    expect(result.edits.map((e) => e.detail)).toEqual(['rename qq -> q']);
    const [call] = result.sequence;
    expect(Object.keys(call.arguments)).toEqual(['__proto__', 'q']);
    expect(Object.getOwnPropertyDescriptor(call.arguments, '__proto__')?.value).toBe('a');
    expect(call.arguments.q).toBe('x');
    expect(validate(result.sequence, catalog).valid).toBe(true);
  });

  it('F4 a catalog API named var_result is an ordinary call before the last step', async () => {
    const catalog = parseCatalog([
      { name: 'var_result', parameters: {} },
      { name: 'f', parameters: {} },
    ]);
    const sequence = parseStringForm('var_result()\nf()');
    expect(validate(sequence, catalog).valid).toBe(true);
    const result = await repair(sequence, catalog);
    expect(result.status).toBe('valid');
    expect(result.determination).toBe(true);
  });

  it('F4 repair: the var_result API mid-sequence and a final var_result answer step are repaired', async () => {
    const catalog = parseCatalog([
      {
        name: 'var_result',
        parameters: { q: { type: 'string', required: true } },
        output_parameters: { id: { type: 'string' } },
      },
      {
        name: 'f',
        parameters: { id: { type: 'string', required: true } },
        output_parameters: { x: { type: 'string' } },
      },
    ]);
    const sequence = parseStringForm(
      'var1 = var_result(qq="a")\nvar2 = f(id="$var1.idd$")\nvar_result(out="$var2.x$")',
    );
    const result = await repair(sequence, catalog);
    expect(result.status).toBe('repaired');
    expect(result.edits.map((e) => e.detail)).toEqual(['rename qq -> q', 'id: $var1.idd$ -> $var1.id$']);
    expect(result.sequence).toEqual(
      parseStringForm('var1 = var_result(q="a")\nvar2 = f(id="$var1.id$")\nvar_result(out="$var2.x$")'),
    );
    expect(validate(result.sequence, catalog).valid).toBe(true);
  });
});
