import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validate } from '../src/validate/validate.ts';
import { stepReferences } from '../src/read/references.ts';
import { shareAWord } from '../src/catalog/evidence.ts';
import { SINGLE_FLOW_KINDS } from '../research/bench/flow-mistakes.ts';
import { nameVariants, splitName } from '../research/bench/flow-names.ts';
import { generateFlowRecords } from '../research/bench/flow-corrupt.ts';
import {
  FLOW_SET_NAMES,
  flowCatalog,
  flowCorpus,
  flowFiles,
  loadFlowRecords,
} from '../research/bench/flow-data.ts';
import { STYLE_NAMES, syntheticSet } from '../research/bench/worlds/index.ts';

const files = flowFiles();
const records = new Map(FLOW_SET_NAMES.map((set) => [set, loadFlowRecords(set)]));

describe('second corruption recipe', () => {
  it('regenerates the shipped files byte for byte', () => {
    expect(files.size).toBe(FLOW_SET_NAMES.length + STYLE_NAMES.length);
    for (const [path, text] of files) {
      expect(readFileSync(path, 'utf8'), `${path} is stale: run npx tsx benchmarks/generate.ts`).toBe(text);
    }
    expect(flowFiles()).toEqual(files);
  });

  it('gives other records for another seed', () => {
    const corpus = flowCorpus('executable');
    expect(JSON.stringify(generateFlowRecords(corpus, 7))).not.toBe(
      JSON.stringify(records.get('executable')),
    );
  });

  it('makes only invalid sequences, from gold plans that validate, every kind in every set', () => {
    for (const set of FLOW_SET_NAMES) {
      const catalog = flowCatalog(set);
      const rows = records.get(set)!;
      for (const kind of SINGLE_FLOW_KINDS)
        expect(
          rows.some((r) => r.kind === kind),
          `${set} ${kind}`,
        ).toBe(true);
      expect(
        rows.some((r) => r.kind.split('+').length === 2),
        set,
      ).toBe(true);
      for (const r of rows) {
        expect(validate(r.sequence, catalog).valid, r.id).toBe(false);
        expect(validate(r.gold, catalog).valid, r.id).toBe(true);
        expect(r.set).toBe(set);
      }
    }
  });

  it('each single mistake is the one it claims', () => {
    for (const set of FLOW_SET_NAMES) {
      const catalog = flowCatalog(set);
      for (const r of records.get(set)!) {
        const tags = validate(r.sequence, catalog)
          .issues.filter((i) => i.severity === 'error')
          .map((i) => i.tag);
        if (r.kind === 'deleted_step') {
          expect(r.sequence.length, r.id).toBe(r.gold.length - 1);
          expect(tags, r.id).toContain('unknown_label');
        } else if (r.kind === 'wrong_field') {
          expect(tags, r.id).toEqual(['unknown_field']);
          expect(r.note, r.id).toMatch(/\((generic|sibling|variant)\)$/);
        } else if (r.kind === 'missing_ref_param') {
          expect(tags, r.id).toEqual(['missing_parameter']);
          // The dropped argument was a reference in the gold.
          const step = r.gold.findIndex(
            (s, i) => Object.keys(s.arguments).length !== Object.keys(r.sequence[i].arguments).length,
          );
          const param = Object.keys(r.gold[step].arguments).find((p) => !(p in r.sequence[step].arguments))!;
          expect(stepReferences({ [param]: r.gold[step].arguments[param] }).length, r.id).toBeGreaterThan(0);
        } else if (r.kind === 'missing_producer') {
          // One call fewer, no reference to it left: only missing arguments tell of it.
          expect(r.sequence.length, r.id).toBe(r.gold.length - 1);
          expect(new Set(tags), r.id).toEqual(new Set(['missing_parameter']));
          const lost = r.gold.find((s) => !r.sequence.some((t) => t.label === s.label))!;
          const reads = r.gold.flatMap((s) =>
            stepReferences(s.arguments).filter((x) => x.ref.label === lost.label),
          );
          expect(reads.length, r.id).toBeGreaterThan(0);
          // Each argument it fed names the field it read (geoId from $var1.geoId$).
          for (const read of reads)
            expect(shareAWord(String(read.ref.path.at(-1)), read.param), r.id).toBe(true);
          // The answer does not show it.
          const answer = r.gold.find((s) => s.name === 'var_result')!;
          expect(
            stepReferences(answer.arguments).some((x) => x.ref.label === lost.label),
            r.id,
          ).toBe(false);
        }
      }
    }
  });

  it('misnames a field the way planners do', () => {
    expect(splitName('destinationEntityId')).toEqual(['destination', 'entity', 'id']);
    expect(nameVariants('entityId', 'destinationEntityId')).toEqual([
      'entity_id',
      'destinationEntityId',
      'id',
      'entityIds',
      'entityID',
    ]);
    expect(nameVariants('course_id', 'course_id')).toEqual(['courseId', 'id', 'course_ids']);
  });
});

describe('synthetic worlds', () => {
  const sets = new Map(STYLE_NAMES.map((style) => [style, syntheticSet(style)]));

  it('are deterministic and every gold plan validates', () => {
    for (const style of STYLE_NAMES) {
      const again = syntheticSet(style);
      expect(JSON.stringify(again.gold)).toBe(JSON.stringify(sets.get(style)!.gold));
      for (const g of again.gold) expect(validate(g.steps, again.catalog).valid).toBe(true);
      expect(new Set(again.gold.map((g) => JSON.stringify(g.steps))).size).toBe(again.gold.length);
    }
  });

  it('spell names in their own habit', () => {
    const refs = (style: (typeof STYLE_NAMES)[number]) =>
      sets
        .get(style)!
        .gold.flatMap((g) => g.steps.flatMap((s) => stepReferences(s.arguments).map((x) => x.ref.raw)));
    expect(refs('snake').some((r) => /^\$var\d+\.results\[0\]\.id\$$/.test(r))).toBe(true);
    expect(refs('ids').some((r) => r.endsWith('.course_id$'))).toBe(true);
    expect(refs('descriptive').some((r) => r.includes('.the_weather_forecast_for_city$'))).toBe(true);
    expect(refs('camel').some((r) => /^\$var\d+\.data\.airportId\$$/.test(r))).toBe(true);
    const names = sets.get('camel')!.catalog.apis.map((a) => a.name);
    expect(names).toContain('skySearchFlights');
    expect(names).toContain('bankTransferFunds');
  });

  it('hold chains, fan-in, fan-out and parallel roles fed from different lookups', () => {
    for (const style of STYLE_NAMES) {
      const plans = sets.get(style)!.gold.map((g) => g.steps);
      const producersOf = (steps: (typeof plans)[number], i: number) =>
        stepReferences(steps[i].arguments).map((x) => x.ref.label);
      const shapes = { chain: false, fanIn: false, fanOut: false };
      for (const steps of plans) {
        const calls = steps.filter((s) => s.name !== 'var_result');
        const reads = calls.map((_, i) => new Set(producersOf(steps, i)));
        if (reads.some((r) => r.size >= 2)) shapes.fanIn = true;
        const readers = calls.map((c) => reads.filter((r) => r.has(c.label!)).length);
        if (readers.some((n) => n >= 2)) shapes.fanOut = true;
        // A chain: a call reading a call that reads another.
        const labelsRead = (i: number) => [...reads[i]].map((l) => calls.findIndex((c) => c.label === l));
        if (calls.some((_, i) => labelsRead(i).some((j) => j >= 0 && reads[j].size > 0))) shapes.chain = true;
      }
      expect(shapes, style).toEqual({ chain: true, fanIn: true, fanOut: true });
    }
    const flight = sets.get('ids')!.gold.find((g) => g.steps.some((s) => s.name === 'search_flights'))!.steps;
    const search = flight.find((s) => s.name === 'search_flights')!;
    const [from, to] = [search.arguments.origin_airport_id, search.arguments.destination_airport_id];
    expect(from).not.toBe(to);
  });
});
