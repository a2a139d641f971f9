/**
 * "Restored modulo asks": is the repair the gold, once each `ask` is read as the value the gold holds
 * there? An ask may only stand for a literal of the gold that appears nowhere in the corrupted input: a
 * value the input holds should have been reused, and a value the gold computes by a reference should have
 * been wired. One ask stands for one value wherever it is used. Labels and the order of independent steps
 * do not matter, as in `sameDataFlow`.
 *
 * The search pairs each call of the repair (in its own order, so producers are paired before their
 * consumers) with an unpaired gold call of the same API and parameters, backtracking on ambiguity. It is
 * bounded; a search that runs out of budget counts as not restored. "Modulo unknowns" also lets the repair
 * leave out an argument whose gold literal appears nowhere in the input.
 */
import { canonicalJson } from '../model/canonical.ts';
import type { Json, Sequence } from '../model/types.ts';
import { findReferences } from '../read/references.ts';
import { isLiteral } from '../validate/validate.ts';
import { asksOf, callsOf, literalValues, producerIndex, wholeReference } from './steps.ts';

/** Search nodes allowed per record; NESTFUL-sized sequences need a few dozen. */
const BUDGET = 50_000;

interface Side {
  readonly sequence: Sequence;
  /** Sequence index → position among the calls (pseudo-steps have none). */
  readonly position: ReadonlyMap<number, number>;
}

function side(sequence: Sequence): Side {
  return { sequence, position: new Map(callsOf(sequence).map((c, k) => [c.index, k])) };
}

/**
 * A string with every reference rewritten to the gold call it points at (`$#3.skyId$`); references to
 * labels no call defines (memory items) keep their label. `pair` maps a repair call to its gold call; null
 * when a reference points at a call not paired yet or at an ask inside longer text.
 */
function canonicalText(
  text: string,
  s: Side,
  at: number,
  pair: ((call: number) => number | undefined) | null,
  asks: ReadonlySet<string>,
): string | null {
  let out = '';
  let last = 0;
  for (const f of findReferences(text)) {
    const producer = producerIndex(s.sequence, at, f.ref.label);
    let head: string;
    if (producer === null) {
      if (asks.has(f.ref.label)) return null;
      head = f.ref.label;
    } else {
      const call = s.position.get(producer);
      if (call === undefined) return null;
      const gold = pair ? pair(call) : call;
      if (gold === undefined) return null;
      head = `#${gold}`;
    }
    out += text.slice(last, f.start) + `$${head}${f.ref.raw.slice(1 + f.ref.label.length)}`;
    last = f.end;
  }
  return out + text.slice(last);
}

class Matcher {
  private nodes = 0;
  private readonly repairCalls;
  private readonly goldCalls;
  private readonly r: Side;
  private readonly g: Side;
  private readonly asks: Set<string>;
  private readonly known: Set<string>;
  /** Repair call position → gold call position. */
  private readonly paired = new Map<number, number>();
  private readonly used = new Set<number>();
  private bindings = new Map<string, string>();

  constructor(
    repaired: Sequence,
    gold: Sequence,
    input: Sequence,
    private readonly omissions: boolean,
  ) {
    this.r = side(repaired);
    this.g = side(gold);
    this.repairCalls = callsOf(repaired);
    this.goldCalls = callsOf(gold);
    this.asks = new Set(asksOf(repaired).map((a) => a.label));
    this.known = literalValues(input);
  }

  run(): ReadonlyMap<string, string> | null {
    if (this.repairCalls.length !== this.goldCalls.length) return null;
    return this.search(0) ? this.bindings : null;
  }

  private search(k: number): boolean {
    if (k === this.repairCalls.length) return true;
    if (++this.nodes > BUDGET) return false;
    const r = this.repairCalls[k];
    const keys = Object.keys(r.step.arguments).sort().join('\n');
    for (let j = 0; j < this.goldCalls.length; j++) {
      const g = this.goldCalls[j];
      if (this.used.has(j) || g.step.name !== r.step.name) continue;
      if (!this.sameKeys(r.step.arguments, g.step.arguments, keys)) continue;
      const saved = new Map(this.bindings);
      this.paired.set(k, j);
      this.used.add(j);
      const fits = Object.keys(r.step.arguments).every((p) =>
        this.unify(r.step.arguments[p], g.step.arguments[p], r.index, g.index),
      );
      if (fits && this.search(k + 1)) return true;
      this.paired.delete(k);
      this.used.delete(j);
      this.bindings = saved;
    }
    return false;
  }

  /** True when repair value `a` (at repair step `ra`) can stand for gold value `b` (at gold step `gb`). */
  private unify(a: Json, b: Json, ra: number, gb: number): boolean {
    const ask = wholeReference(a);
    if (ask !== null && ask.path.length === 0 && this.asks.has(ask.label) && !this.defines(ra, ask.label)) {
      if (!isLiteral(b)) return false;
      const value = canonicalJson(b);
      if (this.known.has(value)) return false;
      const bound = this.bindings.get(ask.label);
      if (bound !== undefined && bound !== value) return false;
      this.bindings.set(ask.label, value);
      return true;
    }
    if (typeof a === 'string') {
      if (typeof b !== 'string') return false;
      const left = canonicalText(a, this.r, ra, (call) => this.paired.get(call), this.asks);
      return left !== null && left === canonicalText(b, this.g, gb, null, new Set());
    }
    if (Array.isArray(a)) {
      return Array.isArray(b) && a.length === b.length && a.every((x, i) => this.unify(x, b[i], ra, gb));
    }
    if (a !== null && typeof a === 'object') {
      if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
      const ka = Object.keys(a).sort();
      const kb = Object.keys(b).sort();
      return (
        ka.join('\n') === kb.join('\n') &&
        ka.every((k) => this.unify((a as Record<string, Json>)[k], (b as Record<string, Json>)[k], ra, gb))
      );
    }
    return a === b;
  }

  /**
   * The repair call passes the gold call's parameters; with `omissions`, it may leave out those the gold
   * gives a literal the input holds nowhere (a value no repair can know, and no parameter it must ask for).
   */
  private sameKeys(r: Record<string, Json>, g: Record<string, Json>, keys: string): boolean {
    if (Object.keys(g).sort().join('\n') === keys) return true;
    if (!this.omissions || Object.keys(r).some((k) => !Object.prototype.hasOwnProperty.call(g, k)))
      return false;
    return Object.entries(g).every(
      ([k, v]) =>
        Object.prototype.hasOwnProperty.call(r, k) || (isLiteral(v) && !this.known.has(canonicalJson(v))),
    );
  }

  /** True when the label is a call's label in the repair before step `at` (then it is not an ask). */
  private defines(at: number, label: string): boolean {
    const producer = producerIndex(this.r.sequence, at, label);
    return producer !== null && this.r.position.has(producer);
  }
}

/**
 * The value each ask stands for (ask label → canonical JSON of the gold literal) when `repaired` restores
 * `gold` modulo asks for literals absent from `input`; null when it does not.
 */
export function matchModuloAsks(
  repaired: Sequence,
  gold: Sequence,
  input: Sequence,
): ReadonlyMap<string, string> | null {
  return new Matcher(repaired, gold, input, false).run();
}

/**
 * As `matchModuloAsks`, and the repair may also leave out an argument the gold gives a literal absent from
 * `input` (an optional value nobody can know from the input: `star_rating="4"` on a deleted search).
 */
export function matchModuloUnknowns(
  repaired: Sequence,
  gold: Sequence,
  input: Sequence,
): ReadonlyMap<string, string> | null {
  return new Matcher(repaired, gold, input, true).run();
}
