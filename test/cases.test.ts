/**
 * Repair cases as data: every `test/cases/*.json` is one input with its expected repair. Add a file to add a
 * case: `{description, catalog, input: [string-form lines], options: {costModel?, mappings?, memory?,
 * givenOnly?, allowInsert?, catalogMappings?, weights?}, expect: {status, sequence: [lines], edits: [kinds
 * in order], dropped?: [input step indexes]}}`. Every case is solved by HiGHS and by javascript-lp-solver,
 * which must return the same repair.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadMappings } from '../src/read/mappings.ts';
import { formatStringForm, parseStringForm } from '../src/read/sequence.ts';
import { loadCostModel, withWeights } from '../src/read/cost-models.ts';
import { repair } from '../src/repair/repair.ts';
import { validate } from '../src/validate/validate.ts';

const CaseSchema = z
  .object({
    description: z.string(),
    catalog: z.string(),
    input: z.array(z.string()),
    options: z
      .object({
        costModel: z.string().optional(),
        mappings: z.string().optional(),
        memory: z.record(z.string(), z.unknown()).optional(),
        givenOnly: z.boolean().optional(),
        allowInsert: z.boolean().optional(),
        catalogMappings: z.boolean().optional(),
        weights: z.record(z.string(), z.number()).optional(),
      })
      .strict(),
    expect: z
      .object({
        status: z.enum(['valid', 'repaired', 'partial', 'timeout', 'error']),
        sequence: z.array(z.string()),
        edits: z.array(z.string()),
        dropped: z.array(z.number().int()).optional(),
      })
      .strict(),
  })
  .strict();

const DIR = 'test/cases';
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('repair cases (test/cases/*.json)', () => {
  it('has cases', () => expect(files.length).toBeGreaterThanOrEqual(10));

  for (const file of files) {
    const spec = CaseSchema.parse(JSON.parse(readFileSync(`${DIR}/${file}`, 'utf8')));
    it(`${file}: ${spec.description}`, async () => {
      const catalog = loadCatalog(spec.catalog);
      const o = spec.options;
      let cost = loadCostModel(o.costModel ?? 'default');
      if (o.weights) cost = withWeights(cost, o.weights);
      const memory = o.memory as Record<string, never> | undefined;
      const options = {
        cost,
        memory,
        mappings: o.mappings ? loadMappings(o.mappings) : undefined,
        givenOnly: o.givenOnly,
        allowInsert: o.allowInsert,
        catalogMappings: o.catalogMappings,
      };
      const input = parseStringForm(spec.input.join('\n'));
      const result = await repair(input, catalog, options);
      expect(result.status).toBe(spec.expect.status);
      expect(formatStringForm(result.sequence).split('\n')).toEqual(spec.expect.sequence);
      expect(result.edits.map((e) => e.kind)).toEqual(spec.expect.edits);
      expect((result.dropped ?? []).map((d) => d.step)).toEqual(spec.expect.dropped ?? []);
      expect(validate(result.sequence, catalog, { pseudoSteps: true, memory }).valid).toBe(true);
      const other = await repair(input, catalog, { ...options, solver: 'lp-solver' });
      expect(formatStringForm(other.sequence)).toBe(formatStringForm(result.sequence));
    });
  }
});
