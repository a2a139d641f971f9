/** Solver faults at the library level: detected, reported as undecided with the reason, and survived. */
import { describe, expect, it } from 'vitest';
import { repair } from '../src/repair/repair.ts';
import { FaultyBackend } from '../src/solvers/index.ts';
import { GOLD, corrupt, executable, seq } from './helpers.ts';

const BROKEN = seq(corrupt(GOLD, 'originSkyId=', 'originalSkyId='));

describe('solver faults', () => {
  it.each([
    ['throw', /faulty threw/],
    ['abort', /faulty aborted: Aborted\(\)/],
  ] as const)(
    'a backend that %ss gives determination null with the reason; the next repair succeeds',
    async (mode, reason) => {
      const faulty = new FaultyBackend({ mode });
      const r = await repair(BROKEN, executable, { backend: faulty });
      expect(r).toMatchObject({ determination: null, status: 'error', solver: 'faulty' });
      expect(r.reason).toMatch(reason);
      expect(r.sequence).toBe(BROKEN);
      const next = await repair(BROKEN, executable);
      expect(next.status).toBe('repaired');
    },
  );

  it('a backend that hangs is abandoned after its time limit: timeout, determination null', async () => {
    const faulty = new FaultyBackend({ mode: 'hang' });
    const r = await repair(BROKEN, executable, { backend: faulty, timeout: 0.2 });
    expect(r).toMatchObject({ determination: null, status: 'timeout' });
    expect(r.reason).toMatch(/did not return within the [0-9.]+ s it was given/);
  });

  it('a backend that returns a violating point marked optimal is caught by the verifier', async () => {
    const r = await repair(BROKEN, executable, { backend: new FaultyBackend({ mode: 'wrong' }) });
    expect(r).toMatchObject({ determination: null, status: 'error' });
    expect(r.reason).toMatch(/infeasible point|non-integral/);
  });

  it('a valid sequence never reaches the backend', async () => {
    const faulty = new FaultyBackend({ mode: 'throw' });
    const r = await repair(seq(GOLD), executable, { backend: faulty });
    expect(r.status).toBe('valid');
    expect(faulty.calls).toBe(0);
  });
});
