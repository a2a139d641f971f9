/**
 * Exhaustive search over a compiled plan's edits, independent of the MILP rows: every combination of
 * call existence, API, label, parameter source and reference option is decoded and judged by the validator
 * and by the intent rules of the model (one source per role, read from the plan's own sources), an ask
 * shared by its references costing once, and a parameter ask read by a later call of another API (a slot
 * share) costing once; the cheapest valid one is the optimum the solver must match. Branch and bound on the
 * (non-negative) edit costs, less the most the slot shares could rebate, keeps tiny instances fast.
 */
import { argumentKey, type Plan } from '../src/compile/plan.ts';
import { decode } from '../src/decode/decode.ts';
import { leafOf } from '../src/catalog/catalog-index.ts';
import { words } from '../src/catalog/names.ts';
import { describedAlike } from '../src/catalog/context-match.ts';
import { normalisePath, stepReferences } from '../src/read/references.ts';
import type { Catalog, Memory, PathSegment } from '../src/model/types.ts';
import { validate } from '../src/validate/validate.ts';

interface Choice {
  vars: number[];
  cost: number;
  /** A shared ask this choice reads (charged once, however many choices read it). */
  ask?: number;
}

/**
 * One source per role, read from the chosen sources of each call: two parameters do not read one producer
 * for the same field; nor parameters in parallel roles (`originX`/`destinationX`, or described alike)
 * through fields that do not name their role; nor two keys of the answer step at all. Exempt: both keep references the input
 * wrote, or (other than for the same field) the input read that producer's label for both.
 */
export function collapsesRoles(plan: Plan, on: ReadonlySet<number>): boolean {
  const labelOf = (call: number) => {
    const c = plan.calls[call];
    return c.restores ?? (c.origin >= 0 ? (plan.steps[c.origin].label ?? '') : '');
  };
  const roleWord = (name: string) => {
    const w = words(name);
    return w.length > 1 ? w[0] : undefined;
  };
  const rest = (name: string) => words(name).slice(1).join(' ');
  for (const c of plan.calls) {
    const read: { slot: string; producer: string; label: string; leaf: string; kept: boolean }[] = [];
    const leaf = (path: readonly PathSegment[]) => leafOf(normalisePath(path));
    for (const p of c.params)
      for (const s of p.sources) {
        if (!on.has(s.v)) continue;
        if (s.kind === 'output')
          read.push({
            slot: p.param,
            producer: `c${s.call}`,
            label: labelOf(s.call),
            leaf: leaf(s.path),
            kept: false,
          });
        if (s.kind === 'memory')
          read.push({
            slot: p.param,
            producer: `m${s.label}`,
            label: s.label,
            leaf: leaf(s.path),
            kept: false,
          });
      }
    for (const t of c.tokens) {
      if (!t.site.whole || t.site.at.length > 0) continue;
      for (const o of t.options) {
        if (!on.has(o.v) || o.kind === 'ask') continue;
        const memory = o.kind === 'keep' ? t.site.ref.label : (o.memoryLabel ?? '');
        read.push({
          slot: t.arg,
          producer: o.call === null ? `m${memory}` : `c${o.call}`,
          label: o.call === null ? memory : labelOf(o.call),
          leaf: leaf(o.kind === 'keep' ? t.site.ref.path : o.path),
          kept: o.kind === 'keep',
        });
      }
    }
    const inputs = new Map<string, string>();
    if (c.origin >= 0)
      for (const site of stepReferences(plan.steps[c.origin].arguments))
        if (site.whole && site.at.length === 0) inputs.set(site.param, site.ref.label);
    // A field that names its parameter's role (or every word of it) is not shared.
    const named = (r: (typeof read)[number]) => {
      const w = roleWord(r.slot);
      const field = words(r.leaf);
      return (w !== undefined && field.includes(w)) || words(r.slot).every((x) => field.includes(x));
    };
    const spec = (name: string) => c.apis.flatMap((a) => a.api?.params ?? []).find((p) => p.name === name);
    for (const a of read)
      for (const b of read) {
        if (a.slot >= b.slot || a.producer !== b.producer || (a.kept && b.kept)) continue;
        if (a.leaf === b.leaf) return true;
        if (a.label !== '' && inputs.get(a.slot) === a.label && inputs.get(b.slot) === a.label) continue;
        const [x, y] = [spec(a.slot), spec(b.slot)];
        const parallel =
          (roleWord(a.slot) !== undefined &&
            roleWord(a.slot) !== roleWord(b.slot) &&
            roleWord(b.slot) !== undefined &&
            rest(a.slot) === rest(b.slot)) ||
          (x !== undefined && y !== undefined && describedAlike(x, y));
        if (c.kind === 'result' || (parallel && !named(a) && !named(b))) return true;
      }
  }
  return false;
}

/**
 * A value read from a call that does not run (a moved copy's original, say: both go by one label, so the
 * decoded text alone would not show it), or re-pointed under the label it names (`via`) while its producer
 * does not take that label.
 */
function readsAbsent(plan: Plan, on: ReadonlySet<number>): boolean {
  const runs = (call: number) => plan.calls[call].apis.some((a) => on.has(a.v));
  return plan.calls.some(
    (c) =>
      c.params.some((p) => p.sources.some((s) => s.kind === 'output' && on.has(s.v) && !runs(s.call))) ||
      c.tokens.some((t) =>
        t.options.some(
          (o) =>
            on.has(o.v) &&
            o.kind !== 'ask' &&
            ((o.call !== null && !runs(o.call)) ||
              (o.kind === 'reassign' && o.via !== undefined && !on.has(o.via))),
        ),
      ),
  );
}

export interface Exhaustive {
  cost: number;
  leaves: number;
}

/**
 * The cheapest valid repair strictly below `bound` (pass the solver's cost plus a tolerance: the search then
 * only has to show that nothing valid is cheaper), or null when there is none.
 */
export function exhaustiveOptimum(
  plan: Plan,
  numVars: number,
  catalog: Catalog,
  memory: Memory = {},
  bound = Infinity,
  limit = 2_000_000,
): Exhaustive | null {
  const calls = plan.calls;
  // Existence groups: an original call with its moved copy (plus deletion); inserted calls alone (or absent).
  const groups: { options: { call: number; api: number; cost: number; vars: number[] }[] }[] = [];
  for (const c of calls) {
    if (c.kind === 'moved') continue;
    const options: { call: number; api: number; cost: number; vars: number[] }[] = [];
    c.apis.forEach((a, k) => options.push({ call: c.id, api: k, cost: a.cost, vars: [a.v] }));
    if (c.kind === 'original') {
      const copy = calls.find((m) => m.kind === 'moved' && m.origin === c.origin);
      copy?.apis.forEach((a, k) => options.push({ call: copy.id, api: k, cost: a.cost, vars: [a.v] }));
      const drops = Object.keys(plan.steps[c.origin].arguments).reduce(
        (sum, arg) => sum + plan.dropCosts.get(argumentKey(c.origin, arg))!,
        0,
      );
      if (c.deleteVar !== undefined)
        options.push({ call: -1, api: -1, cost: plan.costs[c.deleteVar] + drops, vars: [c.deleteVar] });
    }
    if (c.kind === 'inserted') options.push({ call: -1, api: -1, cost: 0, vars: [] });
    groups.push({ options });
  }
  let best = bound;
  let leaves = 0;
  const chosen: number[] = [];
  // The most every reader could save by reading another call's answer: partial costs are bounded by it.
  const saving = new Map<number, number>();
  for (const s of plan.slotShares) saving.set(s.reader, Math.max(saving.get(s.reader) ?? 0, s.rebate));
  const rebates = [...saving.values()].reduce((a, b) => a + b, 0);

  /** The slot shares among the asks that are on that save most: each reader reads one answer, no chains. */
  const bestShares = (on: ReadonlySet<number>): { vars: number[]; rebate: number } => {
    const open = plan.slotShares.filter((s) => on.has(s.asker) && on.has(s.reader));
    let top = { vars: [] as number[], rebate: 0 };
    const pick = (i: number, taken: typeof open, rebate: number) => {
      if (rebate > top.rebate) top = { vars: taken.map((s) => s.v), rebate };
      for (let k = i; k < open.length; k++) {
        const s = open[k];
        if (taken.some((t) => t.reader === s.reader || t.reader === s.asker || t.asker === s.reader))
          continue;
        pick(k + 1, [...taken, s], rebate + s.rebate);
      }
    };
    pick(0, [], 0);
    return top;
  };

  const leaf = (cost: number) => {
    leaves++;
    if (leaves > limit) throw new Error('exhaustive search too large');
    const shares = bestShares(new Set(chosen));
    const values = new Array<number>(numVars).fill(0);
    for (const v of [...chosen, ...shares.vars]) values[v] = 1;
    const decoded = decode(plan, values);
    if (!validate(decoded.sequence, catalog, { pseudoSteps: true, memory }).valid) return;
    if (collapsesRoles(plan, new Set(chosen))) return;
    if (readsAbsent(plan, new Set(chosen))) return;
    if (cost - shares.rebate < best) best = cost - shares.rebate;
  };

  // Per active call: label, then each parameter's source, then each used argument's reference options.
  const callChoices = (callId: number, api: number): Choice[][] => {
    const c = calls[callId];
    const decisions: Choice[][] = [];
    const mustLabel = c.kind !== 'original' || plan.steps[c.origin].label !== undefined;
    if (c.kind !== 'result') {
      const labels: Choice[] = c.labels.map((l) => ({ vars: [l.v], cost: l.cost }));
      if (!mustLabel) labels.push({ vars: [], cost: 0 });
      decisions.push(labels);
    }
    for (const p of c.params.filter((x) => x.choice === api)) {
      const options: Choice[] = p.sources.map((s) => ({
        vars: [s.v],
        cost: s.kind === 'arg' ? s.cost : s.cost,
      }));
      if (!p.required) options.push({ vars: [], cost: 0 });
      decisions.push(options);
    }
    return decisions;
  };

  const search = (g: number, active: { call: number; api: number }[], cost: number) => {
    if (cost - rebates >= best - 1e-9) return;
    if (g < groups.length) {
      for (const o of groups[g].options) {
        chosen.push(...o.vars);
        search(g + 1, o.call === -1 ? active : [...active, { call: o.call, api: o.api }], cost + o.cost);
        chosen.length -= o.vars.length;
      }
      return;
    }
    choose(
      active.flatMap((a) => callChoices(a.call, a.api)),
      cost,
      (c) => tokens(active, c),
    );
  };

  /** Every combination of one option per decision, bounded by the best cost so far. */
  const asked = new Array<number>(plan.asks.length).fill(0);
  const choose = (decisions: Choice[][], cost: number, done: (cost: number) => void) => {
    const inner = (d: number, c: number) => {
      if (c - rebates >= best - 1e-9) return;
      if (d === decisions.length) return done(c);
      for (const o of decisions[d]) {
        // A shared ask is on, and charged, once for all the references that read it.
        const first = o.ask !== undefined && asked[o.ask]++ === 0;
        const vars = first ? [...o.vars, plan.asks[o.ask!].v] : o.vars;
        chosen.push(...vars);
        inner(d + 1, c + o.cost + (first ? plan.asks[o.ask!].cost : 0));
        chosen.length -= vars.length;
        if (o.ask !== undefined) asked[o.ask]--;
      }
    };
    inner(0, cost);
  };

  // Arguments used by the chosen sources; unused ones are dropped; their references need one option each.
  const tokens = (active: { call: number; api: number }[], cost: number) => {
    const on = new Set(chosen);
    const decisions: Choice[][] = [];
    let drops = 0;
    for (const a of active) {
      const c = calls[a.call];
      const used = new Map<string, number>();
      for (const p of c.params.filter((x) => x.choice === a.api)) {
        for (const s of p.sources)
          if (s.kind === 'arg' && on.has(s.v)) used.set(s.arg, (used.get(s.arg) ?? 0) + 1);
      }
      if ([...used.values()].some((n) => n > 1)) return;
      const step = c.origin >= 0 ? plan.steps[c.origin] : undefined;
      for (const arg of Object.keys(step?.arguments ?? {})) {
        if (!used.has(arg)) drops += plan.dropCosts.get(argumentKey(c.origin, arg))!;
      }
      for (const t of c.tokens)
        if (used.has(t.arg))
          decisions.push(
            t.options.map((o) => ({ vars: [o.v], cost: o.cost, ask: o.kind === 'ask' ? o.ask : undefined })),
          );
    }
    choose(decisions, cost + drops, leaf);
  };

  search(0, [], 0);
  return best === bound ? null : { cost: best, leaves };
}
