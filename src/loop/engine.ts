/**
 * The generic repair loop (docs/loop.md): a fixer proposes whole new states, the issue count and the
 * checks judge them. It knows nothing of tool calls: a state is anything with a list of issues.
 *
 *     state <- initial; history <- [count(issues(state))]
 *     repeat until rounds = maxRounds:
 *         if issues(state) is empty and checks(state) pass: stop (solved)
 *         candidate <- fixer.propose(state, feedback(state), round)
 *         accept it only if it has strictly fewer issues and passes the checks
 *         rounds += 1; history.append(count(issues(state)))
 *         if consecutive rejections >= stallLimit: stop (stalled)
 */
import { errorMessage } from '../model/errors.ts';

/** What a fixer returns when it has nothing to propose (or failed): the round stalls with this reason. */
export interface Stalled {
  readonly stalled: string;
}

/** Outcome of one check: pass, or fail with a reason. */
export interface CheckResult {
  readonly pass: boolean;
  readonly reason?: string;
}

export type Checks<S> = (state: S) => boolean | CheckResult | Promise<boolean | CheckResult>;

export interface Fixer<S> {
  propose(state: S, feedback: string, round: number): Promise<S | Stalled>;
}

export interface LoopOptions<S, I> {
  readonly initial: S;
  /** The open issues of a state; the loop minimises their count. */
  readonly issues: (state: S) => readonly I[] | Promise<readonly I[]>;
  /** Extra checks every accepted state must pass (none = always pass). */
  readonly checks?: Checks<S>;
  readonly fixer: Fixer<S>;
  /** What the fixer is shown for a state. */
  readonly feedback: (state: S, issues: readonly I[]) => string | Promise<string>;
  /** Default 10. */
  readonly maxRounds?: number;
  /** Consecutive rejected rounds before giving up; default 2. */
  readonly stallLimit?: number;
  /** Time limit for one proposal in milliseconds (none by default; fixers may enforce their own). */
  readonly proposeTimeoutMs?: number;
  /** Tells a real state from garbage; a candidate failing it stalls the round. */
  readonly isState?: (value: unknown) => value is S;
}

export type StopReason = 'solved' | 'stalled' | 'max-rounds';

/** One round of the loop. */
export interface RoundRecord {
  readonly round: number;
  readonly accepted: boolean;
  /** Why the candidate was accepted or rejected, or why the fixer stalled. */
  readonly reason: string;
  /** Issue count of the candidate (absent when there was no usable candidate). */
  readonly candidateIssues?: number;
  /** Issue count of the state after the round. */
  readonly issues: number;
}

export interface LoopResult<S, I> {
  readonly state: S;
  readonly rounds: number;
  readonly accepted: number;
  /** Rounds whose candidate was rejected or never came (rounds - accepted). */
  readonly stalled: number;
  /** Issue count of the initial state, then of the state after each round. */
  readonly history: readonly number[];
  readonly stop: StopReason;
  /** Issues of the final state: what is left for a human. */
  readonly leftover: readonly I[];
  /** The final state's check, when there are checks and it was evaluated (a failure is left for a human too). */
  readonly check?: CheckResult;
  readonly log: readonly RoundRecord[];
}

/** The stalled outcome with a reason. */
export function stall(reason: string): Stalled {
  return { stalled: reason };
}

/** True for a `Stalled` outcome (exactly one string key `stalled`). */
export function isStalled(value: unknown): value is Stalled {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'stalled' && typeof (value as Stalled).stalled === 'string';
}

async function runCheck<S>(checks: Checks<S> | undefined, state: S): Promise<CheckResult> {
  if (!checks) return { pass: true };
  try {
    const out = await checks(state);
    if (typeof out === 'boolean') return out ? { pass: true } : { pass: false, reason: 'check failed' };
    if (out && typeof out === 'object' && typeof out.pass === 'boolean') return out;
    return { pass: false, reason: 'check returned no verdict' };
  } catch (error) {
    return { pass: false, reason: `check threw: ${errorMessage(error)}` };
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number | undefined): Promise<T | Stalled> {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Stalled>((resolve) => {
    timer = setTimeout(() => resolve(stall(`fixer timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function count(limit: number | undefined, fallback: number, name: string): number {
  const n = limit ?? fallback;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  return n;
}

/** Runs the loop. Never throws for a fixer's fault; throws only when `issues` fails on the initial state. */
export async function runLoop<S, I>(options: LoopOptions<S, I>): Promise<LoopResult<S, I>> {
  const maxRounds = count(options.maxRounds, 10, 'maxRounds');
  const stallLimit = Math.max(1, count(options.stallLimit, 2, 'stallLimit'));
  let state = options.initial;
  let open = await options.issues(state);
  let check: CheckResult | undefined;
  const history = [open.length];
  const log: RoundRecord[] = [];
  let accepted = 0;
  let consecutive = 0;
  let stop: StopReason | undefined;

  for (let round = 0; round < maxRounds; round++) {
    if (open.length === 0) {
      check ??= await runCheck(options.checks, state);
      if (check.pass) {
        stop = 'solved';
        break;
      }
    }
    const outcome = await propose(options, state, open, round);
    let record: RoundRecord;
    if ('stalled' in outcome) {
      record = { round, accepted: false, reason: outcome.stalled, issues: open.length };
    } else {
      const { candidate, candidateOpen } = outcome;
      let reason: string;
      let ok = false;
      let candidateCheck: CheckResult | undefined;
      if (candidateOpen.length >= open.length) {
        reason = `not better: ${candidateOpen.length} issue(s), state has ${open.length}`;
      } else {
        candidateCheck = await runCheck(options.checks, candidate);
        ok = candidateCheck.pass;
        reason = ok
          ? `better: ${candidateOpen.length} issue(s), state had ${open.length}`
          : `checks failed: ${candidateCheck.reason ?? 'check failed'}`;
      }
      if (ok) {
        state = candidate;
        open = candidateOpen;
        check = candidateCheck;
      }
      record = { round, accepted: ok, reason, candidateIssues: candidateOpen.length, issues: open.length };
    }
    log.push(record);
    history.push(open.length);
    if (record.accepted) {
      accepted += 1;
      consecutive = 0;
    } else if (++consecutive >= stallLimit) {
      stop = 'stalled';
      break;
    }
  }

  if (stop === undefined) {
    if (open.length === 0) check ??= await runCheck(options.checks, state);
    stop = open.length === 0 && check?.pass ? 'solved' : 'max-rounds';
  }
  const rounds = log.length;
  const checked = options.checks && check ? { check } : {};
  return {
    state,
    rounds,
    accepted,
    stalled: rounds - accepted,
    history,
    stop,
    leftover: open,
    ...checked,
    log,
  };
}

type Proposal<S, I> = Stalled | { candidate: S; candidateOpen: readonly I[] };

/** Asks the fixer for a candidate and counts its issues; every fault becomes a stalled outcome. */
async function propose<S, I>(
  options: LoopOptions<S, I>,
  state: S,
  open: readonly I[],
  round: number,
): Promise<Proposal<S, I>> {
  let text: string;
  try {
    text = await options.feedback(state, open);
  } catch (error) {
    return stall(`feedback failed: ${errorMessage(error)}`);
  }
  let out: unknown;
  try {
    out = await withTimeout(
      Promise.resolve().then(() => options.fixer.propose(state, text, round)),
      options.proposeTimeoutMs,
    );
  } catch (error) {
    return stall(`fixer failed: ${errorMessage(error)}`);
  }
  if (isStalled(out)) return out;
  if (out === undefined || out === null || (options.isState && !options.isState(out))) {
    return stall('fixer returned no usable state');
  }
  const candidate = out as S;
  try {
    return { candidate, candidateOpen: await options.issues(candidate) };
  } catch (error) {
    return stall(`candidate could not be judged: ${errorMessage(error)}`);
  }
}
