/**
 * Fuzz targets that run the solver: the agent hook, the MCP tool handlers, `repair` (small hostile
 * catalogs, the 10,000-API catalog, long and cyclic sequences) and the step-by-step check.
 */
import fc from 'fast-check';
import { parseCatalog } from '../../src/read/catalog.ts';
import { parseSequence, parseStringForm } from '../../src/read/sequence.ts';
import { checkToolCalls } from '../../src/agents/hook.ts';
import type { Catalog, Json, Sequence } from '../../src/model/types.ts';
import { heal } from '../../src/heal/index.ts';
import { runTool } from '../../src/mcp/tools.ts';
import { checkStep } from '../../src/repair/step.ts';
import { repair } from '../../src/repair/repair.ts';
import { validate } from '../../src/validate/validate.ts';
import { fail, type Target } from './harness.ts';
import { hostileJson, hostileString, objectOf } from './inputs.ts';
import { checkRoundTrip } from './parse-targets.ts';
import { bigCatalogOnce, structured } from './structured.ts';

function checkRepair(result: Awaited<ReturnType<typeof repair>>, sequence: Sequence, catalog: Catalog): void {
  if (result.status === 'error') fail(`repair status error: ${result.reason}`);
  if (result.status === 'repaired' && !validate(result.sequence, catalog, { pseudoSteps: true }).valid)
    fail('repaired sequence does not validate');
  if ((result.determination === true) !== validate(sequence, catalog).valid)
    fail('determination disagrees with validate');
}

/** `small`: shorter long sequences, for a CI-sized run. */
export function solverTargets(small = false): Target[] {
  const {
    catalog: smallCatalog,
    steps: hostileSteps,
    toolCalls: hostileToolCalls,
    value: argValue,
  } = structured();
  const [shortest, longest] = small ? [10, 40] : [20, 200];
  return [
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
        fc.oneof(smallCatalog, hostileJson),
        fc.oneof(hostileSteps, hostileToolCalls, hostileString),
        fc.option(hostileJson),
      ),
      run: async ([catalog, sequence, memory]: [unknown, unknown, Json | null]) => {
        const args = { catalog, sequence, ...(memory === null ? {} : { memory }) };
        await runTool('validate', args);
        const result = (await runTool('fix', args)) as { status: string; reason?: string };
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
        const catalog = bigCatalogOnce();
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
