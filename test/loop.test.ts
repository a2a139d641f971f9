import { describe, expect, it } from 'vitest';
import { runLoop, stall, type Fixer } from '../src/loop/engine.ts';

/** The state of the worked example: open issues, and whether a bad edit broke the checks. */
interface Toy {
  readonly open: readonly string[];
  readonly broken: boolean;
}

const toy = (open: string[], broken = false): Toy => ({ open, broken });
const toyIssues = (s: Toy) => s.open;
const toyChecks = (s: Toy) => (s.broken ? { pass: false, reason: 'bad edit' } : true);
const toyFeedback = (_s: Toy, issues: readonly string[]) => issues.join(',');
const fixerOf = (propose: Fixer<Toy>['propose']): Fixer<Toy> => ({ propose });

describe('runLoop: the worked example of the contract', () => {
  it('3 rounds, 1 accepted, 2 stalled, state B, C left, history [3, 2, 2, 2]', async () => {
    // Removes the first open issue each round; on rounds 1 and 2 also plants a bad edit.
    const fixer = fixerOf(async (s, _feedback, round) => toy(s.open.slice(1), round === 1 || round === 2));
    const result = await runLoop({
      initial: toy(['A', 'B', 'C']),
      issues: toyIssues,
      checks: toyChecks,
      fixer,
      feedback: toyFeedback,
      maxRounds: 5,
      stallLimit: 2,
    });
    expect(result.rounds).toBe(3);
    expect(result.accepted).toBe(1);
    expect(result.stalled).toBe(2);
    expect(result.stop).toBe('stalled');
    expect(result.state).toEqual(toy(['B', 'C']));
    expect(result.leftover).toEqual(['B', 'C']);
    expect(result.history).toEqual([3, 2, 2, 2]);
    expect(result.log.map((r) => [r.round, r.accepted, r.reason])).toEqual([
      [0, true, 'better: 2 issue(s), state had 3'],
      [1, false, 'checks failed: bad edit'],
      [2, false, 'checks failed: bad edit'],
    ]);
  });
});

describe('runLoop: stop reasons and faults', () => {
  const base = { issues: toyIssues, checks: toyChecks, feedback: toyFeedback };
  const removeOne = fixerOf(async (s) => toy(s.open.slice(1)));

  it('solves without calling the fixer when nothing is open', async () => {
    const result = await runLoop({ ...base, initial: toy([]), fixer: fixerOf(async () => stall('never')) });
    expect(result).toMatchObject({ rounds: 0, stop: 'solved', history: [0], leftover: [] });
  });

  it('solves in as many rounds as there are issues', async () => {
    const result = await runLoop({ ...base, initial: toy(['A', 'B']), fixer: removeOne });
    expect(result).toMatchObject({ rounds: 2, accepted: 2, stalled: 0, stop: 'solved', history: [2, 1, 0] });
  });

  it('reports solved when the last allowed round solves it (single pass)', async () => {
    const result = await runLoop({ ...base, initial: toy(['A']), fixer: removeOne, maxRounds: 1 });
    expect(result).toMatchObject({ rounds: 1, stop: 'solved', history: [1, 0] });
  });

  it('stops at max-rounds', async () => {
    const result = await runLoop({ ...base, initial: toy(['A', 'B', 'C']), fixer: removeOne, maxRounds: 2 });
    expect(result).toMatchObject({ rounds: 2, stop: 'max-rounds', history: [3, 2, 1], leftover: ['C'] });
  });

  it('rejects a candidate that is not strictly better', async () => {
    const same = fixerOf(async (s) => toy([...s.open]));
    const result = await runLoop({ ...base, initial: toy(['A']), fixer: same });
    expect(result.stop).toBe('stalled');
    expect(result.log[0].reason).toBe('not better: 1 issue(s), state has 1');
  });

  it('turns a throwing fixer, a time-out and garbage into stalled rounds', async () => {
    let calls = 0;
    const faulty = fixerOf(async (s, _f, round) => {
      calls++;
      if (round === 0) throw new Error('boom');
      if (round === 1) return new Promise<Toy>(() => undefined);
      if (round === 2) return 42 as unknown as Toy;
      return toy(s.open.slice(1));
    });
    const isState = (v: unknown): v is Toy => typeof v === 'object' && v !== null && 'open' in v;
    const result = await runLoop({
      ...base,
      initial: toy(['A']),
      fixer: faulty,
      stallLimit: 4,
      proposeTimeoutMs: 50,
      isState,
    });
    expect(calls).toBe(4);
    expect(result.log.map((r) => r.reason)).toEqual([
      'fixer failed: boom',
      'fixer timed out after 50 ms',
      'fixer returned no usable state',
      'better: 0 issue(s), state had 1',
    ]);
    expect(result).toMatchObject({ stop: 'solved', accepted: 1, stalled: 3, history: [1, 1, 1, 1, 0] });
  });

  it('records a fixer that stalls on purpose, and a check that throws', async () => {
    const result = await runLoop({
      ...base,
      initial: toy(['A']),
      checks: () => {
        throw new Error('no disk');
      },
      fixer: fixerOf(async (s, _f, round) => (round === 0 ? stall('nothing to try') : toy(s.open.slice(1)))),
    });
    expect(result.log.map((r) => r.reason)).toEqual([
      'nothing to try',
      'checks failed: check threw: no disk',
    ]);
    expect(result.stop).toBe('stalled');
  });

  it('passes the feedback of the current state to the fixer', async () => {
    const seen: string[] = [];
    const fixer = fixerOf(async (s, feedback) => {
      seen.push(feedback);
      return toy(s.open.slice(1));
    });
    await runLoop({ ...base, initial: toy(['A', 'B']), fixer });
    expect(seen).toEqual(['A,B', 'B']);
  });
});
