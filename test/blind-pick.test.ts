import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/read/catalog.ts';
import { blindPick } from '../src/score/index.ts';
import type { Sequence } from '../src/model/types.ts';

const api = (name: string, outputs: string[], params: string[] = ['id']) => ({
  name,
  description: name,
  query_parameters: Object.fromEntries(params.map((p) => [p, { type: 'string', required: true }])),
  output_parameters: Object.fromEntries(outputs.map((o) => [o, { type: 'string' }])),
});

// Three APIs output a `barcode`, two of them a `format` too; one outputs a `lyrics`.
const catalog = parseCatalog([
  api('generate_barcode', ['barcode', 'format']),
  api('scan_label', ['barcode', 'format']),
  api('lookup_pallet', ['barcode']),
  api('get_lyrics', ['lyrics']),
]);

const lyrics = { name: 'get_lyrics', arguments: { id: 'a' }, label: 'var1' };
const barcode = { name: 'generate_barcode', arguments: { id: 'b' }, label: 'var2' };
const answer = (args: Record<string, string>) => ({ name: 'var_result', arguments: args });

describe('blind pick of a lost call', () => {
  it('a lost call read by one field has the APIs that output that field as stand-ins', () => {
    const gold: Sequence = [lyrics, barcode, answer({ code: '$var2.barcode$' })];
    const input: Sequence = [lyrics, answer({ code: '$var2.barcode$' })];
    expect(blindPick(input, gold, catalog)).toEqual({ lost: 1, standIns: [3], chance: 1 / 3 });
  });

  it('every field read narrows the stand-ins to the APIs that output them all', () => {
    const gold: Sequence = [barcode, answer({ code: '$var2.barcode$', kind: '$var2.format$' })];
    expect(blindPick([answer({})], gold, catalog)?.standIns).toEqual([2]);
  });

  it('a call read whole (no field) could be any API of the catalog', () => {
    const gold: Sequence = [barcode, answer({ all: '$var2$' })];
    expect(blindPick([answer({})], gold, catalog)?.chance).toBe(1 / 4);
  });

  it('no lost call: the input holds each gold call by API, by label, or under a name the catalog lacks', () => {
    const gold: Sequence = [lyrics, barcode, answer({ code: '$var2.barcode$' })];
    expect(blindPick(gold, gold, catalog)).toBeNull();
    const relabelled: Sequence = [lyrics, { ...barcode, label: 'var7' }, answer({})];
    expect(blindPick(relabelled, gold, catalog)).toBeNull();
    const misspelt: Sequence = [lyrics, { ...barcode, name: 'generate_barcod', label: 'var9' }, answer({})];
    expect(blindPick(misspelt, gold, catalog)).toBeNull();
    const renamed: Sequence = [lyrics, { ...barcode, name: 'scan_label' }, answer({})];
    expect(blindPick(renamed, gold, catalog)).toBeNull();
  });

  it('two lost calls multiply their chances', () => {
    const gold: Sequence = [lyrics, barcode, answer({ words: '$var1.lyrics$', code: '$var2.barcode$' })];
    const lost = blindPick([answer({})], gold, catalog);
    expect(lost?.lost).toBe(2);
    expect(lost?.chance).toBeCloseTo(1 / 3);
  });
});
