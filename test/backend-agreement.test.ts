/**
 * A unique optimum, on the whole corruption benchmark: every shipped record of both recipes
 * (`benchmarks/data/corrupted-*.jsonl`, `flow-*.jsonl`) is compiled once and solved by HiGHS and by
 * javascript-lp-solver; both points must decode to the same repaired sequence. Ties that a solver could
 * settle either way would show up here. Each repair also reads back (JSON, as `refract fix` prints it): it
 * validates, asks and all, and a second repair keeps it as it is.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compileFor, repair } from '../src/repair/repair.ts';
import { decode } from '../src/decode/decode.ts';
import { HighsBackend, LpSolverBackend } from '../src/solvers/index.ts';
import { formatStringForm } from '../src/read/sequence.ts';
import { validate } from '../src/validate/validate.ts';
import type { Catalog, Sequence } from '../src/model/types.ts';
import { corruptedPath, loadSetCatalog, SET_NAMES } from '../research/bench/data.ts';
import { flowCatalog, loadFlowRecords, FLOW_SET_NAMES } from '../research/bench/flow-data.ts';

const highs = new HighsBackend();
// The benchmark's models stay under a few hundred variables; the cap only guards against a runaway.
const lp = new LpSolverBackend({ maxVars: 2000 });
afterAll(() => highs.dispose?.());

async function disagreements(records: readonly Sequence[], catalog: Catalog): Promise<string[]> {
  const out: string[] = [];
  for (const sequence of records) {
    if (validate(sequence, catalog).valid) continue;
    const { model, plan } = compileFor(sequence, catalog, {});
    const [a, b] = [await highs.solve(model), await lp.solve(model)];
    const first = a.values ? formatStringForm(decode(plan, a.values).sequence) : `highs ${a.status}`;
    const second = b.values ? formatStringForm(decode(plan, b.values).sequence) : `lp-solver ${b.status}`;
    if (first !== second)
      out.push(`${formatStringForm(sequence)}\n=> highs:\n${first}\n=> lp-solver:\n${second}`);
    if (a.values) {
      const back = JSON.parse(JSON.stringify(decode(plan, a.values).sequence)) as Sequence;
      const again = await repair(back, catalog);
      if (!validate(back, catalog).valid || again.status !== 'valid' || again.sequence !== back)
        out.push(`${first}\n=> does not read back: ${again.status}`);
    }
  }
  return out;
}

describe('HiGHS and javascript-lp-solver return the same repair on every benchmark record', () => {
  for (const set of SET_NAMES) {
    it(`first recipe, ${set}`, async () => {
      const records = readFileSync(corruptedPath(set), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { sequence: Sequence }).sequence);
      expect(records.length).toBeGreaterThan(100);
      expect(await disagreements(records, loadSetCatalog(set))).toEqual([]);
    });
  }
  for (const set of FLOW_SET_NAMES) {
    it(`second recipe, ${set}`, async () => {
      const records = loadFlowRecords(set).map((r) => r.sequence);
      expect(records.length).toBeGreaterThan(100);
      expect(await disagreements(records, flowCatalog(set))).toEqual([]);
    });
  }
});
