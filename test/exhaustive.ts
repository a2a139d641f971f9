/**
 * Exhaustive search over a compiled plan's edits, independent of the MILP rows: every combination of
 * call existence, API, label, parameter source and reference option is decoded and judged by the validator
 * alone; the cheapest valid one is the optimum the solver must match. Branch and bound on the (non-negative)
 * edit costs keeps tiny instances fast.
 */
import type { Plan } from '../src/compile/plan.ts';
import { decode } from '../src/decode/decode.ts';
import type { Catalog, Memory } from '../src/model/types.ts';
import { validate } from '../src/validate/validate.ts';

interface Choice {
  vars: number[];
  cost: number;
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
      const drops = Object.keys(plan.steps[c.origin].arguments).length * plan.dropCost;
      options.push({ call: -1, api: -1, cost: plan.costs[c.deleteVar!] + drops, vars: [c.deleteVar!] });
    }
    if (c.kind === 'inserted') options.push({ call: -1, api: -1, cost: 0, vars: [] });
    groups.push({ options });
  }
  let best = bound;
  let leaves = 0;
  const chosen: number[] = [];

  const leaf = (cost: number) => {
    leaves++;
    if (leaves > limit) throw new Error('exhaustive search too large');
    const values = new Array<number>(numVars).fill(0);
    for (const v of chosen) values[v] = 1;
    const decoded = decode(plan, values);
    if (!validate(decoded.sequence, catalog, { pseudoSteps: true, memory }).valid) return;
    if (cost < best) best = cost;
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
    if (cost >= best - 1e-9) return;
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
  const choose = (decisions: Choice[][], cost: number, done: (cost: number) => void) => {
    const inner = (d: number, c: number) => {
      if (c >= best - 1e-9) return;
      if (d === decisions.length) return done(c);
      for (const o of decisions[d]) {
        chosen.push(...o.vars);
        inner(d + 1, c + o.cost);
        chosen.length -= o.vars.length;
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
        if (!used.has(arg)) drops += c.kind === 'result' ? plan.dropResultCost : plan.dropCost;
      }
      for (const t of c.tokens)
        if (used.has(t.arg)) decisions.push(t.options.map((o) => ({ vars: [o.v], cost: o.cost })));
    }
    choose(decisions, cost + drops, leaf);
  };

  search(0, [], 0);
  return best === bound ? null : { cost: best, leaves };
}
