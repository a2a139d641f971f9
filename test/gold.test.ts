/** All 300 NESTFUL gold sequences through the validator: the few the spec makes invalid, and why. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/read/catalog.ts';
import { parseSequence } from '../src/read/sequence.ts';
import { validate } from '../src/validate/validate.ts';
import { repair } from '../src/repair/repair.ts';

const SETS = ['executable', 'non-executable-glaive', 'non-executable-sgd'] as const;

/** Sample index -> error tags, as listed in docs/gold-validation.md. */
const INVALID: Record<(typeof SETS)[number], Record<number, string[]>> = {
  executable: {
    34: ['unknown_field', 'unknown_field'],
    52: ['unknown_field'],
    53: ['unknown_field'],
    81: ['unknown_field'],
  },
  'non-executable-glaive': {
    45: ['duplicate_label', 'unknown_label'],
    81: ['unknown_parameter', 'missing_parameter'],
    85: ['unknown_field'],
    93: ['missing_parameter'],
    103: ['unknown_label'],
    104: ['unknown_label'],
  },
  'non-executable-sgd': {
    18: ['duplicate_label', 'unknown_label'],
    34: ['duplicate_label', 'unknown_label'],
  },
};

describe('NESTFUL gold sequences', () => {
  for (const set of SETS) {
    it(`${set}: every gold sequence is valid except the listed ones, which fail for the listed reasons`, async () => {
      const catalog = loadCatalog(`data/nestful/${set}-spec.json`);
      const data = JSON.parse(readFileSync(`data/nestful/${set}-data.json`, 'utf8')) as unknown[];
      const invalid: Record<number, string[]> = {};
      data.forEach((sample, i) => {
        const v = validate(parseSequence(sample), catalog);
        if (!v.valid) invalid[i] = v.issues.filter((x) => x.severity === 'error').map((x) => x.tag);
      });
      expect(invalid).toEqual(INVALID[set]);
      // The invalid ones are repaired into sequences that validate.
      for (const i of Object.keys(INVALID[set]).map(Number)) {
        const r = await repair(parseSequence(data[i]), catalog);
        expect(r.status).toBe('repaired');
        expect(validate(r.sequence, catalog, { pseudoSteps: true }).valid).toBe(true);
      }
    });
  }

  it('counts: 85 executable, 169 glaive, 46 sgd samples', () => {
    const counts = SETS.map(
      (set) => (JSON.parse(readFileSync(`data/nestful/${set}-data.json`, 'utf8')) as unknown[]).length,
    );
    expect(counts).toEqual([85, 169, 46]);
  });
});
