/**
 * The catalog's own mappings are used by default: computed once per catalog, read one parameter at a time
 * (the same pairs as the whole table), switched off by `catalogMappings: false` / `--no-catalog-mappings`,
 * with a given table on top.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalog, parseCatalog } from '../src/read/catalog.ts';
import {
  closestCandidates,
  commonestSides,
  computeMappings,
  MAX_CANDIDATES,
  mappingsInForce,
  mappingsInto,
  scorePairs,
  wordRarity,
} from '../src/catalog/computed-mappings.ts';
import { repair } from '../src/repair/repair.ts';
import { registerFix } from '../src/cli/fix.ts';
import { runCommands } from './cli-run.ts';
import { GOLD, corrupt, executable, seq } from './helpers.ts';

const CATALOGS = ['executable', 'non-executable-glaive', 'non-executable-sgd'].map((stem) =>
  loadCatalog(`data/nestful/${stem}-spec.json`),
);

describe('computed mappings, one parameter at a time', () => {
  it('finds exactly the pairs of the full scan (threshold 0.6, top 3) on the three NESTFUL catalogs', () => {
    for (const catalog of CATALOGS) {
      const full = scorePairs(catalog).filter((p) => p.score >= 0.6);
      const perInput = new Map<string, { from: string; to: string; score: number }[]>();
      for (const p of full) {
        const list = perInput.get(p.to) ?? [];
        if (list.length < 3) list.push({ from: p.from, to: p.to, score: p.score });
        perInput.set(p.to, list);
      }
      for (const name of new Set(catalog.apis.flatMap((a) => a.params.map((p) => p.name)))) {
        expect(mappingsInto(catalog, name), name).toEqual(perInput.get(name) ?? []);
      }
      expect(computeMappings(catalog).length).toBe([...perInput.values()].flat().length);
    }
  });

  it('scores a bounded number of outputs for a parameter: those sharing the most, in catalog order', () => {
    // 2,000 outputs share a word with the parameter; every 40th shares two.
    const shared = new Map(Array.from({ length: 2000 }, (_, k) => [1999 - k, (1999 - k) % 40 === 0 ? 2 : 1]));
    const kept = closestCandidates([...shared.keys()], (k) => shared.get(k)!);
    expect(kept).toHaveLength(MAX_CANDIDATES);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    for (let k = 0; k < 2000; k += 40) expect(kept).toContain(k);
    // The rest are the first outputs of the catalog sharing one word.
    expect(kept.filter((k) => k % 40 !== 0)).toEqual(
      Array.from({ length: 2000 }, (_, k) => k)
        .filter((k) => k % 40 !== 0)
        .slice(0, MAX_CANDIDATES - 50),
    );
    const few = new Map([
      [7, 1],
      [3, 2],
    ]);
    expect(closestCandidates([...few.keys()], (k) => few.get(k)!)).toEqual([3, 7]);
  });

  it('among outputs past the bound, those sharing the rarest words are scored (wordRarity)', () => {
    expect(wordRarity(1, 1024)).toBe(10);
    expect(wordRarity(512, 1024)).toBe(1);
    // A word every output has says nothing of which to score.
    expect(wordRarity(1024, 1024)).toBe(0);
    // 600 APIs output `url_id` (two words of the parameter, both common); one outputs `username` (one, rare).
    const spec = [
      ...Array.from({ length: 600 }, (_, i) => ({
        name: `Media_Lookup_${i}`,
        description: 'Looks media up.',
        query_parameters: { query: { type: 'string', description: 'A query.', required: true } },
        output_parameters: { url_id: { type: 'string', description: 'The id of the url.' } },
      })),
      {
        name: 'Instagram_Search_User',
        description: 'Searches Instagram users.',
        query_parameters: { search_query: { type: 'string', description: 'A name.', required: true } },
        output_parameters: { username: { type: 'string', description: 'The username of the user.' } },
      },
      {
        name: 'Instagram_Info',
        description: 'An Instagram user’s profile.',
        query_parameters: {
          username_or_id_or_url: {
            type: 'string',
            description: 'The username, id or url of the user.',
            required: true,
          },
        },
        output_parameters: { is_verified: { type: 'boolean', description: 'Whether it is verified.' } },
      },
    ];
    const mapped = mappingsInto(parseCatalog(spec), 'username_or_id_or_url').map((m) => m.from);
    expect(mapped).toContain('username');
  });

  it('bounds a word that 300,000 outputs share without running out of stack', () => {
    // The scaling bench's 10,000 cloned APIs: a parameter sharing a word with every clone's fields. A spread
    // of the indices into Math.max failed here ("Maximum call stack size exceeded") and the repair with it.
    const shared = new Map(Array.from({ length: 300_000 }, (_, k) => [k, k === 250_000 ? 3 : 1]));
    const kept = closestCandidates([...shared.keys()], (k) => shared.get(k)!);
    expect(kept).toHaveLength(MAX_CANDIDATES);
    expect(kept).toContain(250_000);
    expect(kept.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('scores a bounded number of readings of one parameter name: those standing for the most APIs', () => {
    const group = (n: number, tag: string) => ({
      tag,
      apis: new Set(Array.from({ length: n }, (_, i) => `${tag}${i}`)),
    });
    const groups = [group(1, 'a'), group(5, 'b'), group(2, 'c'), group(5, 'd'), group(3, 'e')];
    // The three standing for the most APIs (b and d tie: catalog order), kept in catalog order.
    expect(commonestSides(groups, 3).map((g) => g.tag)).toEqual(['b', 'd', 'e']);
    expect(commonestSides(groups, 16).map((g) => g.tag)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a given table over the computed one: a pair in both keeps its higher score', () => {
    const merged = mappingsInForce(
      [
        { from: 'skyId', to: 'originSkyId', score: 0.7 },
        { from: 'code', to: 'originSkyId', score: 0.65 },
      ],
      mappingsInto(executable, 'originSkyId'),
    );
    expect(merged).toEqual([
      { from: 'skyId', to: 'originSkyId', score: 0.915 },
      { from: 'code', to: 'originSkyId', score: 0.65 },
    ]);
  });
});

describe('repairs use them unless switched off', () => {
  const broken = seq(corrupt(GOLD, 'destinationEntityId="$var2.entityId$", ', ''));

  it('library: mapped by default, asked with catalogMappings: false', async () => {
    const mapped = await repair(broken, executable);
    expect(mapped.sequence[2].arguments.destinationEntityId).toBe('$var2.entityId$');
    expect(mapped.edits.map((e) => e.kind)).toEqual(['newMap']);
    const asked = await repair(broken, executable, { catalogMappings: false });
    expect(asked.edits.map((e) => e.kind)).toEqual(['slotFill']);
  });

  afterEach(() => vi.restoreAllMocks());

  it('CLI: --no-catalog-mappings', async () => {
    // `fix` prints with console.log: route it to the captured standard output.
    vi.spyOn(console, 'log').mockImplementation((...parts) => process.stdout.write(`${parts.join(' ')}\n`));
    const file = 'test/fixtures/missing-destination-entity.txt';
    const on = await runCommands(
      [registerFix],
      ['fix', '-c', 'data/nestful/executable-spec.json', '--format', 'json', file],
    );
    const off = await runCommands(
      [registerFix],
      ['fix', '-c', 'data/nestful/executable-spec.json', '--format', 'json', '--no-catalog-mappings', file],
    );
    expect(JSON.parse(on.out).edits.map((e: { kind: string }) => e.kind)).toEqual(['newMap']);
    expect(JSON.parse(off.out).edits.map((e: { kind: string }) => e.kind)).toEqual(['slotFill']);
  });
});
