/**
 * The verdict on one repair: the corrupted input, the gold plan it came from and the repaired sequence
 * are compared as sequences only, so any repair model (or none) can be judged the same way. `restored`
 * asks for the gold's exact data flow; `restoredModuloAsks` also accepts an `ask` wherever the gold holds a
 * literal the input does not; the other fields count the ways a valid repair can still miss the plan's
 * intent.
 */
import type { Sequence } from '../model/types.ts';
import { readAsks, type AskReading } from './asks.ts';
import { sameDataFlow } from './flow.ts';
import { matchModuloAsks, matchModuloUnknowns } from './match.ts';
import { roleCollapses, siblingCopies } from './roles.ts';
import { callsOf, literalArguments } from './steps.ts';

export interface ScoreInput {
  /** The corrupted (or original) sequence that was repaired. */
  readonly input: Sequence;
  /** The plan the input should have been. */
  readonly gold: Sequence;
  /** What the repair returned; null when it returned nothing (error, timeout, infeasible). */
  readonly repaired: Sequence | null;
  /**
   * The calls already executed before the input ran (`executed`): their literals were knowable too, so an ask
   * for one of them is no fair question.
   */
  readonly executed?: Sequence;
}

export interface RepairVerdict {
  /** A sequence came back. */
  readonly answered: boolean;
  /** Same data flow as the gold: same calls, literals and wiring; labels and independent order ignored. */
  readonly restored: boolean;
  /** The gold once every `ask` stands for a gold literal absent from the input (one value per ask). */
  readonly restoredModuloAsks: boolean;
  /**
   * As `restoredModuloAsks`, and an argument the gold gives a literal absent from the input may be left out
   * (an optional value the input cannot tell: the measure's ceiling otherwise).
   */
  readonly restoredModuloUnknowns: boolean;
  /** `ask` pseudo-steps in the repair. */
  readonly asks: number;
  /** Asks for a gold literal the input does not hold: the fair ones. */
  readonly asksForUnknownLiterals: number;
  /** Asks for a gold literal the input holds (it should have been reused). */
  readonly asksForKnownLiterals: number;
  /** Asks for a value the gold computes by a reference (it should have been wired). */
  readonly asksForComputedValues: number;
  /** Asks the gold has no counterpart for (the call or parameter is not in the gold). */
  readonly asksUnmatched: number;
  /** Asks standing for the same gold value as an earlier ask of the repair. */
  readonly duplicateAsks: number;
  /** Pairs of parameters of one call fed from one output where the gold feeds them from two. */
  readonly roleCollapses: number;
  /** Pairs of calls of one API given one literal where the gold gives them two. */
  readonly siblingCopies: number;
  /** Literal arguments the input and the gold both hold that the repair lost (multiset count). */
  readonly lostLiterals: number;
  /** Calls of the input the repair no longer has. */
  readonly droppedCalls: number;
  /** Each ask and what it stands for. */
  readonly askReadings: readonly AskReading[];
}

/** Literals the input and the gold share (multiset) that the repair does not have. */
export function lostLiterals(input: Sequence, gold: Sequence, repaired: Sequence): number {
  const [a, g, r] = [literalArguments(input), literalArguments(gold), literalArguments(repaired)];
  let lost = 0;
  for (const [key, n] of a) lost += Math.max(0, Math.min(n, g.get(key) ?? 0) - (r.get(key) ?? 0));
  return lost;
}

function countByName(sequence: Sequence): Map<string, number> {
  const out = new Map<string, number>();
  for (const { step } of callsOf(sequence)) out.set(step.name, (out.get(step.name) ?? 0) + 1);
  return out;
}

/**
 * Calls of the input missing from the repair: per API, the input's calls the gold keeps and the repair
 * lacks, and never fewer than the input's call count less the repair's (a call under a misspelt name that
 * was deleted rather than renamed).
 */
export function droppedCalls(input: Sequence, gold: Sequence, repaired: Sequence): number {
  const [a, g, r] = [countByName(input), countByName(gold), countByName(repaired)];
  let byName = 0;
  for (const [name, n] of a) byName += Math.max(0, Math.min(n, g.get(name) ?? 0) - (r.get(name) ?? 0));
  return Math.max(byName, callsOf(input).length - callsOf(repaired).length);
}

const UNANSWERED: Omit<RepairVerdict, 'answered'> = {
  restored: false,
  restoredModuloAsks: false,
  restoredModuloUnknowns: false,
  asks: 0,
  asksForUnknownLiterals: 0,
  asksForKnownLiterals: 0,
  asksForComputedValues: 0,
  asksUnmatched: 0,
  duplicateAsks: 0,
  roleCollapses: 0,
  siblingCopies: 0,
  lostLiterals: 0,
  droppedCalls: 0,
  askReadings: [],
};

/** Judges one repair against its gold. Pure: the same three sequences always give the same verdict. */
export function scoreRepair({ input, gold, repaired, executed }: ScoreInput): RepairVerdict {
  if (repaired === null) return { answered: false, ...UNANSWERED };
  // What was knowable: the input's literals and the executed calls'.
  const knowable = executed && executed.length > 0 ? [...executed, ...input] : input;
  const readings = readAsks(knowable, gold, repaired);
  const count = (meaning: AskReading['meaning']) => readings.filter((a) => a.meaning === meaning).length;
  const moduloAsks = matchModuloAsks(repaired, gold, knowable) !== null;
  return {
    answered: true,
    restored: sameDataFlow(repaired, gold),
    restoredModuloAsks: moduloAsks,
    restoredModuloUnknowns: moduloAsks || matchModuloUnknowns(repaired, gold, knowable) !== null,
    asks: readings.length,
    asksForUnknownLiterals: count('unknown-literal'),
    asksForKnownLiterals: count('known-literal'),
    asksForComputedValues: count('computed'),
    asksUnmatched: count('unmatched'),
    duplicateAsks: readings.filter((a) => a.duplicate).length,
    roleCollapses: roleCollapses(gold, repaired).length,
    siblingCopies: siblingCopies(gold, repaired).length,
    lostLiterals: lostLiterals(input, gold, repaired),
    droppedCalls: droppedCalls(input, gold, repaired),
    askReadings: readings,
  };
}
