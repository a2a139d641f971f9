import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNestful, type NestfulStep } from '../src/read/sequence.ts';
import { registerModes, registerTags } from '../src/cli/tags.ts';
import { allModes, formatModes } from '../src/tags/all-modes.ts';
import { AIRPORT_MAPPINGS, GOLD, corrupt, executable, seq } from './helpers.ts';
import { runCommands } from './cli-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'refract-tags-'));
const write = (name: string, value: string) => {
  const path = join(dir, name);
  writeFileSync(path, value);
  return path;
};
const CATALOG = 'data/nestful/executable-spec.json';

const run = (...args: string[]) => runCommands([registerTags, registerModes], args);

afterEach(() => vi.restoreAllMocks());

const goldFile = write('gold.txt', GOLD);
const misspelt = write(
  'misspelt.txt',
  corrupt(GOLD, 'var3 = SkyScrapperFlightSearch', 'var3 = SkyCrapperFlightSearch'),
);

describe('refract tags', () => {
  it('tags one prediction against one gold sequence', async () => {
    const { out, code } = await run('tags', '--catalog', CATALOG, '--gold', goldFile, misspelt);
    expect(code).toBe(1);
    expect(out).toBe('step 3  made_up_api  SkyCrapperFlightSearch instead of SkyScrapperFlightSearch\n');
    const json = await run('tags', '-c', CATALOG, '--gold', goldFile, '--format', 'json', goldFile);
    expect([json.code, JSON.parse(json.out)]).toEqual([0, { tags: [] }]);
  });

  it('derives tags from validation without gold', async () => {
    const { out, code } = await run('tags', '-c', CATALOG, '--format', 'json', misspelt);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toEqual({
      tags: [{ tag: 'made_up_api', step: 3, detail: 'unknown API "SkyCrapperFlightSearch"' }],
    });
  });

  it('pairs records with the NESTFUL gold data by id and sums them up', async () => {
    const data = JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8')) as {
      output: NestfulStep[];
    }[];
    const records = [
      { id: '0', sequence: data[0].output.filter((s) => s.label !== 'var4') },
      { id: '1', sequence: data[1].output },
      { id: 'nope', sequence: data[1].output },
    ];
    const pred = write('pred.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const text = await run('tags', '-c', CATALOG, '--gold', 'data/nestful/executable-data.json', pred);
    expect(text.code).toBe(2);
    expect(text.out.split('\n')).toEqual([
      '# 0',
      '  step 4  missing_memory  no earlier step or memory item is labelled var4',
      '  step 4  missing_call  var4 = TripadvisorSearchLocation is missing',
      '# 1',
      '  no error tags',
      '# nope: error: no gold record with id nope',
      '2 sequences, 1 without tags: missing_memory 1 (1 seq), missing_call 1 (1 seq)',
      '',
    ]);
    const json = await run(
      'tags',
      '-c',
      CATALOG,
      '--gold',
      'data/nestful/executable-data.json',
      '--format',
      'json',
      pred,
    );
    expect(
      json.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        id: '0',
        tags: [
          expect.objectContaining({ tag: 'missing_memory' }),
          expect.objectContaining({ tag: 'missing_call', goldStep: 3 }),
        ],
      },
      { id: '1', tags: [] },
      { id: 'nope', error: 'no gold record with id nope' },
    ]);
  });

  it('rejects a missing catalog and an unreadable gold file (exit 2)', async () => {
    expect((await run('tags', misspelt)).err).toContain('--catalog');
    const bad = await run('tags', '-c', CATALOG, '--gold', join(dir, 'absent.json'), misspelt);
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--gold')]);
    const many = await run('tags', '-c', CATALOG, '--gold', 'data/nestful/executable-data.json', misspelt);
    expect([many.code, many.err]).toEqual([2, expect.stringContaining('--gold: holds 85 records')]);
  });
});

describe('all modes', () => {
  const broken = seq(
    corrupt(
      corrupt(GOLD, 'originSkyId="$var1.skyId$", ', ''),
      'var4 = TripadvisorSearchLocation(query="London")\n',
      '',
    ),
  );

  it('repairs one sequence under every mode', async () => {
    const view = await allModes(broken, executable, { mappings: AIRPORT_MAPPINGS });
    // Compress is the optimal-mode repair; its row is checked for shape only.
    expect(view.rows.slice(0, 4).map((r) => [r.mode, r.status, r.executable])).toEqual([
      ['default', 'repaired', true],
      ['no-mappings', 'repaired', false],
      ['no-memory', 'repaired', true],
      ['given-only', 'repaired', false],
    ]);
    expect(view.rows[4]).toMatchObject({ mode: 'compress', executable: view.results[4].isExecutable });
    const [byDefault, noMappings, , givenOnly] = view.rows;
    // With the mapping, originSkyId comes from var1; without it, it is asked for.
    expect(byDefault.changed).toContain(
      '+ var3 = SkyScrapperFlightSearch(destinationSkyId="$var2.skyId$", originEntityId="$var1.entityId$", destinationEntityId="$var2.entityId$", date="2024-08-15", originSkyId="$var1.skyId$")',
    );
    expect(byDefault.changed).toContain('+ var4 = TripadvisorSearchLocation(query="London")');
    expect(noMappings.changed).toContain('? originSkyId = ask(slot="originSkyId")');
    // Only the APIs already called: the location search cannot come back, so geoId is asked for.
    expect(givenOnly.changed).toContain('? geoId = ask(slot="geoId")');
    expect(noMappings.cost).toBeGreaterThan(byDefault.cost);
    expect(view.rows.every((r) => r.edits === view.results[view.rows.indexOf(r)].edits.length)).toBe(true);
    const table = formatModes(view).split('\n');
    expect(table[0]).toMatch(/^mode +status +cost +edits +confidence +executable$/);
    // Each row says how likely its repair is right, as the repair does (the default model is calibrated).
    view.rows.forEach((r, k) => expect(r.confidence).toBe(view.results[k].confidence));
    expect(view.rows[0].confidence).toBeGreaterThan(0);
    expect(table[1].split(/ +/)[4]).toBe(String(view.rows[0].confidence));
    expect(table.filter((l) => !l.startsWith(' ')).map((l) => l.split(/ +/)[0])).toEqual([
      'mode',
      'default',
      'no-mappings',
      'no-memory',
      'given-only',
      'compress',
    ]);
  });

  it('`refract modes` prints the table, or rows as JSON', async () => {
    const file = write('broken.json', JSON.stringify(toNestful(broken)));
    const mappings = write('maps.json', JSON.stringify(AIRPORT_MAPPINGS));
    const { out, code } = await run('modes', '-c', CATALOG, '--mappings', mappings, '--format', 'json', file);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.modes.map((r: { mode: string; edits: number }) => r.mode)).toEqual([
      'default',
      'no-mappings',
      'no-memory',
      'given-only',
      'compress',
    ]);
    expect(json.modes[0]).toMatchObject({ status: 'repaired', determination: false, executable: true });
  });
});
