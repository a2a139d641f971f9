/**
 * decode: the solver's values + the plan -> the repaired sequence and its edits (the `invert` half).
 * Needs nothing but the plan: no reach back into the compiler.
 */
import type { Edit, Json, Step } from '../model/types.ts';
import { setOwn } from '../model/objects.ts';
import { argumentKey, type Call, type Plan, type Source } from '../compile/plan.ts';

import type { DroppedStep } from '../model/options.ts';

export interface Decoded {
  readonly sequence: Step[];
  readonly edits: Edit[];
  /** Input steps dropped because no catalog API could stand for them (the repair is partial). */
  readonly dropped: DroppedStep[];
  /** Objective recomputed from the values plus the plan's constant, plus `confirmCost`. */
  readonly cost: number;
  /** Defensive mode: the cost of the confirms, which annotate the optimum and are not part of the model. */
  readonly confirmCost: number;
  /** The uniqueness tie-breaks of the chosen variables (in the objective, not in `cost`). */
  readonly tie: number;
}

import { ASK, CONFIRM } from '../model/constants.ts';

import { fillValue, on, rewriteTokens, short, type AskFn } from './values.ts';

function freshLabels(
  plan: Plan,
  values: readonly number[],
  chosen: Map<number, string | null>,
): Map<number, string> {
  const labels = new Map<number, string>();
  let next = 1;
  for (const l of plan.takenLabels) {
    const m = /^var(\d+)$/.exec(l);
    if (m) next = Math.max(next, Number(m[1]) + 1);
  }
  const ordered = plan.calls.filter((c) => chosen.has(c.id)).sort((a, b) => a.pos - b.pos);
  for (const call of ordered) {
    const choice = call.labels.find((l) => on(values, l.v));
    if (!choice) continue;
    if (choice.label !== null) labels.set(call.id, choice.label);
    else {
      while (plan.takenLabels.has(`var${next}`)) next++;
      labels.set(call.id, `var${next++}`);
    }
  }
  return labels;
}

/**
 * The label of an ask for a parameter: its name where that is a label, else the name with every character a
 * label cannot hold as `_` (and `_` before a leading digit): `city-name` → `city_name`, `2fa code` →
 * `_2fa_code`. The ask's `slot` keeps the parameter's own name.
 */
export function askLabel(param: string): string {
  const label = param.replace(/[^A-Za-z0-9_]/g, '_');
  return label === '' ? 'value' : /^[0-9]/.test(label) ? `_${label}` : label;
}

export function decode(plan: Plan, values: readonly number[]): Decoded {
  const edits: Edit[] = [];
  const chosen = new Map<number, number>(); // call id -> api choice index
  for (const call of plan.calls) {
    const k = call.apis.findIndex((a) => on(values, a.v));
    if (k !== -1) chosen.set(call.id, k);
  }
  const labels = freshLabels(plan, values, new Map([...chosen.keys()].map((id) => [id, null])));
  const slots = new Set<string>(plan.takenLabels);
  const order = plan.calls.filter((c) => chosen.has(c.id)).sort((a, b) => a.pos - b.pos || a.id - b.id);
  const sequence: Step[] = [];
  const freeSlot = (name: string) => {
    const base = askLabel(name);
    let slot = base;
    for (let n = 2; slots.has(slot); n++) slot = `${base}_${n}`;
    slots.add(slot);
    return slot;
  };
  // A shared ask is asked once, before its first consumer; later consumers read the same answer.
  const shared = new Map<number, string>();
  // A parameter ask's answer, by its variable; and the share (if on) through which a reader reads one.
  const answers = new Map<number, string>();
  const reads = new Map(plan.slotShares.filter((s) => on(values, s.v)).map((s) => [s.reader, s]));
  for (const call of order) {
    const asks: Step[] = [];
    const confirms = new Map<string, string>();
    const at = call.origin >= 0 ? call.origin : Math.ceil(call.pos);
    const step = buildStep(
      plan,
      call,
      chosen.get(call.id)!,
      values,
      labels,
      confirms,
      (param, v) => {
        const share = reads.get(v);
        const known = share === undefined ? undefined : answers.get(share.asker);
        if (share !== undefined && known !== undefined) return { slot: known, rebate: share.rebate };
        const slot = freeSlot(param);
        answers.set(v, slot);
        asks.push({ name: ASK, arguments: { slot: param }, label: slot });
        return { slot, rebate: 0 };
      },
      edits,
      (k, from) => {
        const known = shared.get(k);
        if (known !== undefined) return known;
        const ask = plan.asks[k];
        const slot = ask.label ?? freeSlot(ask.slot);
        slots.add(slot);
        shared.set(k, slot);
        asks.push({ name: ASK, arguments: { slot: ask.slot }, label: slot });
        edits.push({
          kind: 'slotFill',
          step: at,
          from,
          to: `$${slot}$`,
          cost: ask.cost,
          detail: `ask(${ask.slot}) for ${from}`,
        });
        return slot;
      },
    );
    sequence.push(...asks);
    for (const [param, why] of confirms) {
      sequence.push({ name: CONFIRM, arguments: { [param]: step.arguments[param] } });
      edits.push({
        kind: 'confirm',
        step: call.origin >= 0 ? call.origin : Math.ceil(call.pos),
        param,
        cost: plan.confirmCost,
        detail: `confirm ${param}=${short(step.arguments[param])} for ${step.name}: ${why}`,
      });
    }
    sequence.push(step);
  }
  const dropped: DroppedStep[] = [];
  for (const call of plan.calls) {
    if (call.deleteVar !== undefined && on(values, call.deleteVar)) {
      const step = plan.steps[call.origin];
      if (call.apis.length === 0)
        dropped.push({ step: call.origin, name: step.name, reason: 'no catalog API is close to its name' });
      const lost = Object.keys(step.arguments).reduce(
        (sum, arg) => sum + dropCostOf(plan, call.origin, arg),
        0,
      );
      // A repeat of an executed call goes for what that call returned: the edit names it (an agent answers
      // the dropped call's tool_call_id with that result).
      const reused = plan.reused.get(call.origin);
      edits.push({
        kind: 'deleteStep',
        step: call.origin,
        from: step.name,
        ...(reused !== undefined ? { to: reused } : {}),
        cost: plan.costs[call.deleteVar] + lost,
        detail:
          `delete step ${call.origin + 1} (${step.label ? `${step.label} = ` : ''}${step.name})` +
          (reused !== undefined ? `: a repeat of executed ${reused}, whose result memory holds` : ''),
      });
    }
  }
  edits.sort((a, b) => a.step - b.step);
  let cost = plan.offset;
  let tie = 0;
  values.forEach((x, v) => {
    if (x > 0.5) {
      cost += plan.costs[v];
      tie += plan.ties[v];
    }
  });
  const confirmCost = edits.filter((e) => e.kind === 'confirm').length * plan.confirmCost;
  return { sequence, edits, dropped, cost: cost + confirmCost, confirmCost, tie };
}

function renamed(step: number, from: string, to: string, cost: number): Edit {
  return { kind: 'renameApi', step, from, to, cost, detail: `call ${to} instead of ${from}` };
}

function buildStep(
  plan: Plan,
  call: Call,
  k: number,
  values: readonly number[],
  labels: Map<number, string>,
  confirms: Map<string, string>,
  ask: AskFn,
  edits: Edit[],
  askFor: (ask: number, from: string) => string,
): Step {
  // Defensive mode: every value the repair put where the input had none, or re-pointed, is invented and
  // gets a confirm that says where it came from; asks (a person answers them) and kept values do not.
  const confirm = (param: string, why: string): void => {
    if (plan.defensive && !confirms.has(param)) confirms.set(param, why);
  };
  const inserted = (producer: number | null): boolean =>
    producer !== null && plan.calls[producer].kind === 'inserted';
  const choice = call.apis[k];
  const original = call.origin >= 0 ? plan.steps[call.origin] : undefined;
  const at = call.origin >= 0 ? call.origin : Math.ceil(call.pos);
  const name = choice.api?.name ?? original!.name;
  const label = labels.get(call.id);
  if (call.restores !== undefined) {
    edits.push({
      kind: 'restoreStep',
      step: at,
      to: name,
      cost: choice.cost,
      detail: `restore ${label} = ${name} before step ${at + 1} (a deleted step: ${call.need} referenced)`,
    });
  } else if (call.reruns !== undefined) {
    edits.push({
      kind: 'restoreStep',
      step: at,
      to: name,
      cost: choice.cost,
      detail: `restore ${label} = ${name} before step ${at + 1} (memory item ${call.reruns} holds nothing: ${call.need} referenced)`,
    });
  } else if (call.fills !== undefined) {
    edits.push({
      kind: 'restoreStep',
      step: at,
      to: name,
      cost: choice.cost,
      detail: `restore ${label} = ${name} before step ${at + 1} (the labels skip ${call.fills}; it produces ${call.need})`,
    });
  } else if (call.kind === 'inserted') {
    edits.push({
      kind: 'insertCall',
      step: at,
      to: name,
      cost: choice.cost,
      detail: `insert ${label} = ${name} before step ${at + 1} (produces ${call.need})`,
    });
  } else if (call.kind === 'moved') {
    // Renamed as well, the move costs what it costs alone and the rest is the rename's.
    const move = name === original!.name ? choice.cost : Math.min(choice.cost, call.moveCost ?? choice.cost);
    edits.push({
      kind: 'moveStep',
      step: at,
      to: String(Math.ceil(call.pos)),
      cost: move,
      detail: `move step ${at + 1} (${original!.label ?? original!.name}) before step ${Math.ceil(call.pos) + 1}`,
    });
    if (name !== original!.name) edits.push(renamed(at, original!.name, name, choice.cost - move));
  } else if (original && name !== original.name) {
    edits.push(renamed(at, original.name, name, choice.cost));
  }
  const labelChoice = call.labels.find((l) => on(values, l.v));
  if ((call.kind === 'original' || call.kind === 'moved') && labelChoice && labelChoice.cost > 0) {
    const kind = original!.label === undefined ? 'addLabel' : 'relabel';
    edits.push({
      kind,
      step: at,
      from: original!.label,
      to: label,
      cost: labelChoice.cost,
      detail:
        kind === 'addLabel' ? `label step ${at + 1} as ${label}` : `relabel ${original!.label} -> ${label}`,
    });
  }
  const args: Record<string, Json> = {};
  const params = call.params.filter((p) => p.choice === k);
  const byArg = new Map<string, { param: string; source: Source }>();
  const filled: { param: string; source: Source }[] = [];
  for (const p of params) {
    const source = p.sources.find((s) => on(values, s.v));
    if (!source) continue;
    if (source.kind === 'arg') byArg.set(source.arg, { param: p.param, source });
    else filled.push({ param: p.param, source });
  }
  // A dropped argument whose parameter is filled anew keeps its place: the diff shows one changed value.
  const refilled = new Set(filled.map((f) => f.param));
  for (const [arg, value] of Object.entries(original?.arguments ?? {})) {
    const use = byArg.get(arg);
    if (!use) {
      const cost = dropCostOf(plan, call.origin, arg);
      edits.push({ kind: 'dropParam', step: at, param: arg, cost, detail: `drop ${arg}=${short(value)}` });
      if (refilled.has(arg) && !Object.prototype.hasOwnProperty.call(args, arg)) setOwn(args, arg, null);
      continue;
    }
    if (use.param !== arg) {
      edits.push({
        kind: 'renameParam',
        step: at,
        param: use.param,
        from: arg,
        to: use.param,
        cost: use.source.cost,
        detail: `rename ${arg} -> ${use.param}`,
      });
    }
    setOwn(
      args,
      use.param,
      rewriteTokens(
        call,
        arg,
        value,
        values,
        labels,
        at,
        edits,
        (option, raw) => {
          if (option.kind === 'keep') {
            if (inserted(option.call)) confirm(use.param, 'an output of a call the repair inserted');
          } else if (!plan.features[option.v]?.reuseExecuted) {
            const to = inserted(option.call)
              ? ', to a call the repair inserted'
              : option.call === null
                ? `, to memory item ${option.memoryLabel}`
                : '';
            confirm(use.param, `re-pointed from ${raw}${to}`);
          }
        },
        askFor,
      ),
    );
  }
  for (const { param, source } of filled) {
    const why = inventedFill(source, inserted);
    if (why !== null) confirm(param, why);
    setOwn(args, param, fillValue(plan, source, labels, ask, at, param, edits));
  }
  return label === undefined ? { name, arguments: args } : { name, arguments: args, label };
}

/** Why a filled value is the repair's invention (`null`: it is not: asked, or the user's own goal value). */
function inventedFill(source: Source, inserted: (producer: number | null) => boolean): string | null {
  switch (source.kind) {
    case 'output':
      if (inserted(source.call)) return 'an output of a call the repair inserted';
      if (source.mapped) return 'an output of another name, by a mapping';
      if (source.fromStep !== undefined) return `the value passed at step ${source.fromStep + 1}`;
      if (source.linked || source.unread) return 'an output of another name, by evidence';
      return 'an earlier output of the same name';
    case 'memory':
      if (source.fromStep !== undefined) return `the value passed at step ${source.fromStep + 1}`;
      if (source.fromExecuted !== undefined)
        return `the value passed to executed call ${source.fromExecuted + 1}`;
      if (source.unread) return 'a memory item of another name, by evidence';
      return source.mapped ? 'a memory item, by a mapping' : 'a memory item';
    case 'literal':
      if (source.fromExecuted !== undefined)
        return `the value passed to executed call ${source.fromExecuted + 1}`;
      return source.fromStep < 0 || source.defaulted
        ? null
        : `the value passed at step ${source.fromStep + 1}`;
    default:
      return null;
  }
}

/** What dropping an original argument cost in the model. */
function dropCostOf(plan: Plan, step: number, arg: string): number {
  return plan.dropCosts.get(argumentKey(step, arg)) ?? 0;
}
