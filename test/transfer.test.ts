/**
 * The held-out naming habits (benchmarks/results/transfer.md): worlds the default never saw. Their plans are
 * valid, their ids are named as no id the default knows, and no shipped set, mix or catalog union has them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../src/validate/validate.ts';
import { namesAnId } from '../src/catalog/names.ts';
import { describesAnId } from '../src/catalog/context-match.ts';
import { syntheticSet } from '../research/bench/worlds/index.ts';
import { HELD_OUT_STYLE_NAMES } from '../research/bench/worlds/styles.ts';
import { FLOW_SET_NAMES } from '../research/bench/flow-data.ts';
import { shippedCatalogs } from '../research/bench/large-data.ts';
import { writeTransferWorld } from '../research/bench/transfer.ts';

describe('held-out naming habits', () => {
  it('render valid plans whose ids no name says are ids, only their descriptions', () => {
    for (const style of HELD_OUT_STYLE_NAMES) {
      const made = syntheticSet(style, 12);
      for (const gold of made.gold) expect(validate(gold.steps, made.catalog).valid).toBe(true);
      const keys = made.catalog.apis.flatMap((api) =>
        (api.outputs ?? []).filter((f) => /(^|\.)(ref|Key)$/.test(f.path)),
      );
      expect(keys.length, style).toBeGreaterThan(0);
      for (const key of keys) {
        expect(namesAnId(key.path.split('.').pop()!), key.path).toBe(false);
        expect(describesAnId(key), key.path).toBe(true);
      }
    }
  });

  it('are in no shipped set and no catalog of the large worlds', () => {
    const names = HELD_OUT_STYLE_NAMES.map((style) => `synthetic-${style}`);
    for (const name of names) expect(FLOW_SET_NAMES).not.toContain(name);
    for (const { set } of shippedCatalogs()) expect(names).not.toContain(set);
  });

  it('write the same files on every run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-transfer-'));
    try {
      const first = writeTransferWorld('pascal', join(dir, 'a'));
      const second = writeTransferWorld('pascal', join(dir, 'b'));
      expect(readFileSync(first.records, 'utf8')).toBe(readFileSync(second.records, 'utf8'));
      expect(readFileSync(first.spec, 'utf8')).toBe(readFileSync(second.spec, 'utf8'));
      expect(readFileSync(first.records, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(900);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
