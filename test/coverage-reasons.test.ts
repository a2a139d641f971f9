import { describe, expect, it } from 'vitest';
import { missReason } from '../research/tuning/coverage-reasons.ts';
import type { Catalog, Sequence } from '../src/model/types.ts';

const api = (name: string) => ({ name, description: '', params: [], outputs: [] });
const catalog = { apis: [api('find'), api('book'), api('pay')] } as unknown as Catalog;
const gold: Sequence = [
  { name: 'find', arguments: { city: 'Paris' }, label: 'var1' },
  { name: 'book', arguments: { hotel: '$var1.hotel$', nights: 2 }, label: 'var2' },
  { name: 'var_result', arguments: { booking: '$var2$' } },
];
const offered = new Set(['find', 'book']);

describe('a coverage miss read off the point closest to the gold', () => {
  it('names no model when there is no point', () => {
    expect(missReason(gold, undefined, undefined, catalog).reason).toBe('no model');
  });

  it('names a call whose API no call may run, and one that is offered but not taken', () => {
    const point = gold.filter((s) => s.name !== 'book');
    expect(missReason(gold, point, new Set(['find']), catalog)).toEqual({
      reason: 'call not a candidate',
      detail: 'book',
    });
    expect(missReason(gold, point, offered, catalog).reason).toBe('call not taken');
  });

  it('names a link the point does not pass, whatever the labels are numbered', () => {
    const asked: Sequence = [
      gold[0],
      { name: 'ask', arguments: { slot: 'hotel' }, label: 'hotel' },
      { name: 'book', arguments: { hotel: '$hotel$', nights: 2 }, label: 'var2' },
    ];
    expect(missReason(gold, asked, offered, catalog)).toEqual({
      reason: 'link missing',
      detail: 'book(hotel="$var1.hotel$", not "$hotel$")',
    });
    // The same link under another label is no difference.
    const relabelled: Sequence = [
      { ...gold[0], label: 'var7' },
      { name: 'book', arguments: { hotel: '$var7.hotel$', nights: 2 }, label: 'var2' },
    ];
    expect(missReason(gold, relabelled, offered, catalog).reason).toBe('order or labels');
  });

  it('names a value the point does not pass, and takes an ask for it as passing it', () => {
    const dropped: Sequence = [
      gold[0],
      { name: 'book', arguments: { hotel: '$var1.hotel$' }, label: 'var2' },
    ];
    expect(missReason(gold, dropped, offered, catalog)).toEqual({
      reason: 'value missing',
      detail: 'book(nights=2, not passed)',
    });
    const asked: Sequence = [
      gold[0],
      { name: 'ask', arguments: { slot: 'nights' }, label: 'nights' },
      { name: 'book', arguments: { hotel: '$var1.hotel$', nights: '$nights$' }, label: 'var2' },
    ];
    expect(missReason(gold, asked, offered, catalog).reason).toBe('order or labels');
    // An object value written with its keys in another order is the same value.
    const withFilter = (filter: Record<string, number>): Sequence => [
      { ...gold[0], arguments: { city: 'Paris', filter } },
      gold[1],
    ];
    expect(
      missReason(withFilter({ stars: 4, rooms: 1 }), withFilter({ rooms: 1, stars: 4 }), offered, catalog)
        .reason,
    ).toBe('order or labels');
  });

  it('names a reference inside a larger value, which no edit kind writes', () => {
    const template: Sequence = [gold[0], { ...gold[1], arguments: { hotel: 'the $var1.hotel$', nights: 2 } }];
    expect(missReason(template, gold, offered, catalog)).toEqual({
      reason: 'reference inside a value',
      detail: 'book(hotel)',
    });
    const listed: Sequence = [gold[0], { ...gold[1], arguments: { hotel: ['$var1.hotel$'], nights: 2 } }];
    expect(missReason(listed, gold, offered, catalog).reason).toBe('reference inside a value');
    // A price range written with dollar signs is text, not a reference (the project's reference parser says so).
    const priced: Sequence = [{ ...gold[0], arguments: { city: 'Paris', budget: '$100-$200' } }, gold[1]];
    expect(missReason(priced, gold, offered, catalog).reason).toBe('value missing');
  });
});
