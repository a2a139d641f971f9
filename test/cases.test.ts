/**
 * Repair cases as data: every `test/cases/*.json` is one input with its expected repair. Add a file to add a
 * case: `{description, catalog, input: [string-form lines], options: <fix request fields>, expect: {status,
 * sequence: [lines], edits: [kinds in order], dropped?: [input step indexes of a partial repair]}}`. `options` speaks the request vocabulary of src/api (as an
 * HTTP body does: `costModel`, `weights`, `memory`, `givenOnly`, `goals`, `mode`, …), except that
 * `mappings` may name a file, as `--mappings` does. The cases run through the same functions as every
 * front end. Every case is also solved by javascript-lp-solver, which must return the same repair.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadMappings } from '../src/read/mappings.ts';
import { formatStringForm } from '../src/read/sequence.ts';
import { KIND_FIELDS } from '../src/api/request.ts';
import { makeCall, requestSettings, runCall } from '../src/api/call.ts';
import { validate } from '../src/validate/validate.ts';
import { STATUSES } from '../src/model/constants.ts';

const CaseSchema = z
  .object({
    description: z.string(),
    catalog: z.string(),
    input: z.array(z.string()),
    options: z.strictObject({
      ...KIND_FIELDS.fix,
      mappings: z.union([z.string(), KIND_FIELDS.fix.mappings]),
    }),
    expect: z
      .object({
        status: z.enum(STATUSES),
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
      const { mappings, ...options } = spec.options;
      const request = {
        ...options,
        ...(mappings === undefined
          ? {}
          : { mappings: typeof mappings === 'string' ? loadMappings(mappings) : mappings }),
      };
      const solve = async (solver: 'highs' | 'lp-solver') => {
        const settings = requestSettings('fix', { ...request, solver }, { files: true });
        const answer = await runCall(makeCall(settings, { input: spec.input.join('\n'), catalog }));
        if (answer.kind !== 'fix') throw new Error('expected the answer of a fix');
        return { settings, result: answer.result };
      };
      const { settings, result } = await solve('highs');
      expect(result.status).toBe(spec.expect.status);
      expect(formatStringForm(result.sequence).split('\n')).toEqual(spec.expect.sequence);
      expect(result.edits.map((e) => e.kind)).toEqual(spec.expect.edits);
      expect((result.dropped ?? []).map((d) => d.step)).toEqual(spec.expect.dropped ?? []);
      const other = await solve('lp-solver');
      expect(formatStringForm(other.result.sequence)).toBe(formatStringForm(result.sequence));
      const { memory } = settings.options;
      expect(validate(result.sequence, catalog, { pseudoSteps: true, memory }).valid).toBe(true);
    });
  }
});
