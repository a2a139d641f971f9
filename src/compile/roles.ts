/**
 * One source per role: two parameters of one call never take the same output (the same field of the same
 * producer, or of the same memory item) unless the input already had them share it: no flight from London
 * to London. And the tie-break that goes with it: a parameter missing its source prefers the label that
 * feeds its sibling of the same role (`originSkyId` from the label feeding `originEntityId`).
 */
import { leafOf } from '../catalog/catalog-index.ts';
import { role } from '../catalog/names.ts';
import { normalisePath } from '../read/references.ts';
import type { PathSegment } from '../model/types.ts';
import type { CompileContext } from './context.ts';
import type { Call } from './plan.ts';

/** What the plan already feeds from each label: in this step (`siblings`) and anywhere (`plan`). */
export interface Feeds {
  /** label -> parameters of this step it feeds. */
  readonly siblings: Map<string, string[]>;
  /** parameter name -> labels that feed a parameter of that name anywhere in the sequence. */
  readonly plan: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Which labels the arguments of a step reference, and which labels feed each parameter name anywhere. */
export function siblingFeeds(ctx: CompileContext, origin: number): Feeds {
  const siblings = new Map<string, string[]>();
  for (const site of origin >= 0 ? ctx.refs[origin] : []) {
    const list = siblings.get(site.ref.label) ?? [];
    list.push(site.param);
    siblings.set(site.ref.label, list);
  }
  return { siblings, plan: ctx.feedsByParam };
}

/**
 * Tie-break preference for feeding `param` from label `label`: a label that already feeds a sibling
 * parameter of the same role (`originEntityId` for `originSkyId`) first (0), then a label that feeds a
 * parameter of this name elsewhere in the plan (0.25), then any sibling (0.5), then others (1).
 */
export function affinity(param: string, label: string, feeds: Feeds): number {
  const fed = feeds.siblings.get(label);
  const r = role(param);
  if (fed && r !== undefined && fed.some((q) => role(q) === r)) return 0;
  if (feeds.plan.get(param)?.has(label)) return 0.25;
  return fed ? 0.5 : 1;
}

/** The value an output stands for: its producer and its leaf (`navigation.entityId` is `entityId`). */
function outputKey(producer: string, path: readonly PathSegment[]): string {
  return `${producer}\u0000${leafOf(normalisePath(path))}`;
}

interface Use {
  readonly v: number;
  /** The parameter (or argument) it feeds. */
  readonly slot: string;
  /** A kept reference the input itself shares with another parameter. */
  readonly shared: boolean;
}

/** Outputs the input step already feeds to two or more of its arguments (whole values only). */
function sharedInInput(ctx: CompileContext, call: Call): Set<string> {
  const byKey = new Map<string, Set<string>>();
  for (const site of call.origin >= 0 ? ctx.refs[call.origin] : []) {
    if (!site.whole || site.at.length > 0) continue;
    const key = `${site.ref.label}\u0000${leafOf(normalisePath(site.ref.path))}`;
    const params = byKey.get(key) ?? new Set<string>();
    params.add(site.param);
    byKey.set(key, params);
  }
  return new Set([...byKey].filter(([, params]) => params.size > 1).map(([key]) => key));
}

/** The rows: per call, per output, at most one parameter takes it (shared kept references excepted). */
export function roleRows(ctx: CompileContext): void {
  for (const call of ctx.calls) {
    if (call.kind === 'result') continue;
    const uses = new Map<string, Use[]>();
    const add = (key: string, use: Use) => {
      const list = uses.get(key);
      if (list) list.push(use);
      else uses.set(key, [use]);
    };
    for (const p of call.params) {
      for (const s of p.sources) {
        if (s.kind === 'output')
          add(outputKey(`c${s.call}`, s.path), { v: s.v, slot: p.param, shared: false });
        if (s.kind === 'memory')
          add(outputKey(`m${s.label}`, s.path), { v: s.v, slot: p.param, shared: false });
      }
    }
    const shared = sharedInInput(ctx, call);
    for (const t of call.tokens) {
      if (!t.site.whole || t.site.at.length > 0) continue;
      const { label, path } = t.site.ref;
      const own = shared.has(`${label}\u0000${leafOf(normalisePath(path))}`);
      for (const o of t.options) {
        if (o.kind === 'keep') {
          const producer = o.call === null ? `m${label}` : `c${o.call}`;
          add(outputKey(producer, path), { v: o.v, slot: t.arg, shared: own });
        } else if (o.kind === 'reassign') {
          const producer = o.call === null ? `m${o.memoryLabel}` : `c${o.call}`;
          add(outputKey(producer, o.path), { v: o.v, slot: t.arg, shared: false });
        }
      }
    }
    for (const group of uses.values()) {
      if (new Set(group.map((u) => u.slot)).size < 2) continue;
      const free = group.filter((u) => !u.shared).map((u) => u.v);
      if (free.length > 1) ctx.builder.atMost(free, 1);
      if (free.length === 0) continue;
      for (const u of group) if (u.shared) ctx.builder.atMost([u.v, ...free], 1);
    }
  }
}
