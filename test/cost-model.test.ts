/** Cost models: presets, overrides, validation, and the documented effect of changing weights. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  loadCostModel,
  parseCostModel,
  parseWeightFlags,
  presetNames,
  withWeights,
} from '../src/read/cost-models.ts';
import { InputError } from '../src/model/errors.ts';
import { repair } from '../src/repair/repair.ts';
import { AIRPORT_MAPPINGS, executable, seq } from './helpers.ts';
import { captureOutput } from '../scripts/docs/shell.ts';
import { checkWeights } from '../src/api/call.ts';
import { registerFix } from '../src/cli/fix.ts';
import { runCommands } from './cli-run.ts';
import { FEATURES } from '../src/model/features.ts';

const MADE_UP = readFileSync('samples/made-up-parameter.txt', 'utf8');
const WRONG_LABEL = readFileSync('samples/wrong-label.txt', 'utf8');

describe('cost models', () => {
  it('ships the presets the docs name, all valid', () => {
    expect(presetNames()).toEqual([
      'allow-deletes',
      'compress',
      'default',
      'fitted',
      'hand',
      'hand-tuned',
      'prefer-maps',
      'prefer-slot-fill',
    ]);
    for (const name of presetNames()) expect(loadCostModel(name).name).toBe(name);
  });

  it('loads a model from a path and rejects unknown names with the list of presets', () => {
    expect(loadCostModel('models/prefer-maps.json').weights.newMap).toBe(0.5);
    expect(() => loadCostModel('nope')).toThrow(/no preset or file named "nope" \(presets: allow-deletes/);
  });

  it("an override changes only the weights it names: the rest keep the model's own (learned) values", async () => {
    const checked = checkWeights({ renameParam: 8 }, 'weights');
    expect(checked).toEqual({ renameParam: 8 });
    const base = loadCostModel('default');
    expect(base.weights.dropParam).not.toBe(FEATURES.dropParam.hand);
    // Through a request, as `--weight` and the HTTP `weights` field pass it: the drop is priced at the
    // default's dropParam (plus its tie-break), not at the hand-written one.
    const run = await runCommands(
      [registerFix],
      [
        'fix',
        '-c',
        'data/nestful/executable-spec.json',
        '--weight',
        'renameParam=8',
        '--format',
        'json',
        'samples/made-up-parameter.txt',
      ],
    );
    expect(run.err).toBe('');
    const drop = (JSON.parse(run.out) as { edits: { kind: string; cost: number }[] }).edits.find(
      (e) => e.kind === 'dropParam',
    )!;
    expect(drop.cost).toBeCloseTo(base.weights.dropParam + base.weights.dropTie, 6);
  });

  it('rejects bad models and bad overrides naming the field', () => {
    const model = loadCostModel('default');
    expect(() => parseCostModel({ ...model, weights: { ...model.weights, slotFill: -1 } })).toThrow(
      /costModel\.weights\.slotFill/,
    );
    expect(() => withWeights(model, { sloFill: 1 })).toThrow(InputError);
    expect(() => withWeights(model, { sloFill: 1 })).toThrow(/weight\.sloFill/);
    expect(() => parseWeightFlags(['slotFill=abc'])).toThrow(/expected name=number/);
    expect(() => parseWeightFlags(['slotFill=1', 'slotFill=2'])).toThrow(
      '--weight slotFill: given twice (1 and 2)',
    );
    expect(parseWeightFlags(['slotFill=1', 'newMap=0.5'])).toEqual({ slotFill: 1, newMap: 0.5 });
  });

  it('overrides leave the preset itself untouched', () => {
    const model = loadCostModel('default');
    const changed = withWeights(model, { slotFill: 1 });
    expect(changed.weights.slotFill).toBe(1);
    expect(loadCostModel('default').weights.slotFill).toBe(4);
  });

  it('docs/cost-model.md holds the current weight table', async () => {
    // The script prints the table when it is loaded (`npx tsx scripts/weights-table.ts`); loaded here.
    const table = (await captureOutput(() => import('../scripts/weights-table.ts'))).trim();
    expect(readFileSync('docs/cost-model.md', 'utf8')).toContain(table);
  });
});

describe('the documented worked examples', () => {
  it('a wrong label: relabel by default; under allow-deletes the references move, never to the origin', async () => {
    const byDefault = await repair(seq(WRONG_LABEL), executable);
    expect(byDefault.edits.map((e) => e.kind)).toEqual(['relabel']);
    const deletes = await repair(seq(WRONG_LABEL), executable, { cost: loadCostModel('allow-deletes') });
    // Relabelling costs 3 there; deleting var20 would leave only var1, which already feeds the origin.
    expect(deletes.edits.map((e) => e.kind)).toEqual(['reassign', 'reassign']);
    expect(deletes.sequence[2].arguments).toMatchObject({
      destinationSkyId: '$var20.skyId$',
      destinationEntityId: '$var20.entityId$',
    });
  });

  it('deleting stays possible through presets: allow-deletes drops a misspelt call the default renames', async () => {
    const input = seq(`var1 = SkyScrapperSearchAirport(query="New York")
var9 = TripadvisorSearchLocatoin(query="London")
var_result(airport="$var1$")`);
    const renamed = await repair(input, executable);
    expect(renamed.edits.map((e) => e.kind)).toEqual(['renameApi']);
    const deleted = await repair(input, executable, { cost: loadCostModel('allow-deletes') });
    expect(deleted.status).toBe('repaired');
    expect(deleted.edits.map((e) => e.kind)).toEqual(['deleteStep']);
  });

  it("a made-up parameter: rename, then (renames at 8) map through the catalog's mappings, or ask without them", async () => {
    const renamed = await repair(seq(MADE_UP), executable);
    expect(renamed.edits.map((e) => e.kind)).toEqual(['renameParam']);
    const cost = withWeights(loadCostModel('default'), { renameParam: 8 });
    const asked = await repair(seq(MADE_UP), executable, { cost, catalogMappings: false });
    expect(asked.edits.map((e) => e.kind)).toEqual(['dropParam', 'slotFill']);
    const computed = await repair(seq(MADE_UP), executable, { cost });
    expect(computed.edits.map((e) => e.kind)).toEqual(['dropParam', 'newMap']);
    expect(computed.sequence[2].arguments.originSkyId).toBe('$var1.skyId$');
    const mapped = await repair(seq(MADE_UP), executable, {
      cost,
      catalogMappings: false,
      mappings: AIRPORT_MAPPINGS,
    });
    expect(mapped.edits.map((e) => e.kind)).toEqual(['dropParam', 'newMap']);
    expect(mapped.sequence[2].arguments.originSkyId).toBe('$var1.skyId$');
  });
});
