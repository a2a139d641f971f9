/**
 * One source per role: two parameters of one call never take the same output (the same field of the same
 * producer, or of the same memory item) unless the input already had them share it: no flight from London
 * to London. And the tie-breaks that go with it: a parameter missing its source prefers the label that
 * feeds its sibling of the same role (`originSkyId` from the label feeding `originEntityId`), parallel roles
 * and ordered operands take their sources in the plan's order, and of two calls of one API the nearer
 * feeds a later call first.
 */
import { leafOf } from '../catalog/catalog-index.ts';
import { role, words } from '../catalog/names.ts';
import { normalisePath } from '../read/references.ts';
import type { ApiSpec, ParamSpec, PathSegment } from '../model/types.ts';
import { describedAlike } from '../catalog/context-match.ts';
import { knownLabel, type CompileContext } from './context.ts';
import type { Call } from './plan.ts';
import { NO_FEATURES, type Features } from '../model/features.ts';
import { ranItems } from './memory.ts';
import { numberedPlace } from './numbering.ts';

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
 * How a label stands to a parameter it may feed: it already feeds a sibling parameter of the same role
 * (`originEntityId` for `originSkyId`: `role`), a parameter of this name elsewhere in the plan (`plan`), any
 * other parameter of this step (`sibling`), or nothing of it (`other`). A tie-break preference, in that order.
 */
export type Affinity = 'role' | 'plan' | 'sibling' | 'other';

export function affinity(param: string, label: string, feeds: Feeds): Affinity {
  const fed = feeds.siblings.get(label);
  const r = role(param);
  if (fed && r !== undefined && fed.some((q) => role(q) === r)) return 'role';
  if (feeds.plan.get(param)?.has(label)) return 'plan';
  return fed ? 'sibling' : 'other';
}

/** The closeness features of filling a parameter from a label of each affinity. */
export const FILL_AFFINITY: Readonly<Record<Affinity, Features>> = {
  role: NO_FEATURES,
  plan: { closePlanFeed: 1 },
  sibling: { closeSibling: 1 },
  other: { closeOther: 1 },
};

/** The closeness features of moving a reference to a label of each affinity. */
export const MOVE_AFFINITY: Readonly<Record<Affinity, Features>> = {
  role: NO_FEATURES,
  plan: { movePlanFeed: 1 },
  sibling: { moveSibling: 1 },
  other: { moveOther: 1 },
};

/**
 * Of two earlier calls of one API (two account lookups), the nearer feeds `call` first: the value the plan
 * last looked up. The steps between them as a share of the plan (`closeRecency`); 0 for a call whose API no
 * other earlier input call, nor a memory item's executed call, has.
 */
export function recency(ctx: CompileContext, call: Call, j: Call, earlier: readonly Call[]): number {
  const twice =
    earlier.some(
      (k) =>
        k.origin >= 0 &&
        k.origin !== j.origin &&
        k.apis.some((c) => c.api !== null && j.apis.some((d) => d.api === c.api)),
    ) || j.apis.some((c) => c.api !== null && ranItems(ctx, c.api.name).length > 0);
  return twice ? Math.max(0, call.pos - j.pos) / Math.max(ctx.steps.length, 1) : 0;
}

/** The words after a role word (`sky id` for `originSkyId`); null for a one-word name. */
function remainder(name: string): string | null {
  const w = words(name);
  return w.length > 1 ? w.slice(1).join(' ') : null;
}

/**
 * Parallel roles: two names that differ only by their first word (`originSkyId`, `destinationSkyId`;
 * `from_account_id`, `to_account_id`). The roles they stand for (`origin`, `destination`) take their
 * values from different calls.
 */
export function parallel(a: string, b: string): boolean {
  const [ra, rb] = [remainder(a), remainder(b)];
  return ra !== null && ra === rb && role(a) !== role(b);
}

/** One way a call can be fed: a source or a reference option, with the output it reads. */
interface Feed {
  readonly v: number;
  /** The parameter (or argument) it feeds. */
  readonly slot: string;
  /** The producing call (`c<id>`) or memory item (`m<label>`), and the label it is known by. */
  readonly producer: string;
  readonly label: string;
  readonly leaf: string;
  /** A reference kept as the input wrote it. */
  readonly kept: boolean;
}

function feedsOf(ctx: CompileContext, call: Call): Feed[] {
  const feeds: Feed[] = [];
  const leafOfPath = (path: readonly PathSegment[]) => leafOf(normalisePath(path));
  const from = (id: number | null, memory: string) =>
    id === null
      ? { producer: `m${memory}`, label: memory }
      : { producer: `c${id}`, label: knownLabel(ctx, ctx.calls[id]) };
  for (const p of call.params) {
    for (const s of p.sources) {
      if (s.kind === 'output')
        feeds.push({ v: s.v, slot: p.param, ...from(s.call, ''), leaf: leafOfPath(s.path), kept: false });
      if (s.kind === 'memory')
        feeds.push({ v: s.v, slot: p.param, ...from(null, s.label), leaf: leafOfPath(s.path), kept: false });
    }
  }
  for (const t of call.tokens) {
    if (!t.site.whole || t.site.at.length > 0) continue;
    const { label, path } = t.site.ref;
    for (const o of t.options) {
      if (o.kind === 'keep')
        feeds.push({ v: o.v, slot: t.arg, ...from(o.call, label), leaf: leafOfPath(path), kept: true });
      else if (o.kind === 'reassign')
        feeds.push({
          v: o.v,
          slot: t.arg,
          ...from(o.call, o.memoryLabel ?? ''),
          leaf: leafOfPath(o.path),
          kept: false,
        });
    }
  }
  return feeds;
}

/** The label each argument of the input step reads whole, by argument. */
function inputLabels(ctx: CompileContext, call: Call): Map<string, string> {
  const labels = new Map<string, string>();
  for (const site of call.origin >= 0 ? ctx.refs[call.origin] : [])
    if (site.whole && site.at.length === 0) labels.set(site.param, site.ref.label);
  return labels;
}

/**
 * A field that names the parameter's own role is not shared: `departure_date` for `departure_date`, `origin`
 * for `origin` (the field carries the role word, or every word of the parameter).
 */
function roleBound(f: Feed): boolean {
  const own = words(f.slot);
  const field = words(f.leaf);
  const r = role(f.slot);
  return (r !== undefined && field.includes(r)) || own.every((w) => field.includes(w));
}

/**
 * Whether two feeds of one call may not both be on: different parameters reading one producer for the same
 * field, or in parallel roles (by name, or described alike) through fields that do not name their roles, or
 * (in the answer step, whose keys each name a result) at all. Unless the input already had them share it:
 * both keep the references the input wrote, or (for a producer) the input read that label for both.
 */
function conflict(
  answer: boolean,
  inputs: Map<string, string>,
  specs: Map<string, ParamSpec>,
  a: Feed,
  b: Feed,
): 'role' | 'answer' | false {
  if (a.slot === b.slot || a.producer !== b.producer || (a.kept && b.kept)) return false;
  if (a.leaf === b.leaf) return 'role';
  const sharedLabel = a.label !== '' && inputs.get(a.slot) === a.label && inputs.get(b.slot) === a.label;
  if (sharedLabel) return false;
  const [x, y] = [specs.get(a.slot), specs.get(b.slot)];
  const alike = parallel(a.slot, b.slot) || (x !== undefined && y !== undefined && describedAlike(x, y));
  if (alike && !roleBound(a) && !roleBound(b)) return 'role';
  return answer ? 'answer' : false;
}

/**
 * Whether the answer keys' rule may be paid rather than kept: each re-pointed key's input label (`var20`,
 * `var3` past the count) is no place in the count, where a deleted step would stand (`var4` between var3 and
 * var5 says a step was lost there, and the key reads it).
 */
function softAnswer(ctx: CompileContext, inputs: Map<string, string>, a: Feed, b: Feed): boolean {
  return [a, b]
    .filter((f) => !f.kept)
    .every((f) => {
      const label = inputs.get(f.slot);
      return label !== undefined && numberedPlace(ctx, label) === undefined;
    });
}

/** The rows of one source per role, for every call. */
export function roleRows(ctx: CompileContext): void {
  for (const call of ctx.calls) {
    const byProducer = new Map<string, Feed[]>();
    for (const f of feedsOf(ctx, call)) {
      const list = byProducer.get(f.producer);
      if (list) list.push(f);
      else byProducer.set(f.producer, [f]);
    }
    const answer = call.kind === 'result';
    const inputs = inputLabels(ctx, call);
    const specs = new Map(call.apis.flatMap((c) => c.api?.params ?? []).map((p) => [p.name, p]));
    for (const group of byProducer.values()) {
      for (let x = 0; x < group.length; x++)
        for (let y = x + 1; y < group.length; y++) {
          const kind = conflict(answer, inputs, specs, group[x], group[y]);
          if (kind === false) continue;
          if (kind === 'role' || !softAnswer(ctx, inputs, group[x], group[y]))
            ctx.builder.atMost([group[x].v, group[y].v], 1);
          else {
            // Two answer keys name two results: reading one call for both costs `answerSharedProducer`.
            const both = ctx.variable({ answerSharedProducer: 1 });
            ctx.builder.row(
              [
                [group[x].v, 1],
                [group[y].v, 1],
                [both, -1],
              ],
              -Infinity,
              1,
            );
          }
        }
    }
  }
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** The place a name gives its operand: 1 for `num1`, 0 for `first` (undefined for other names). */
function operandPlace(name: string): number | undefined {
  const digits = /^(.*?[A-Za-z_])(\d)$/.exec(name);
  if (digits) return Number(digits[2]);
  const k = ORDINALS.indexOf(name.toLowerCase());
  return k >= 0 ? k : undefined;
}

/** What ordered operands share: `num` for `num1`, '' for `first`. */
function operandStem(name: string): string | undefined {
  if (operandPlace(name) === undefined) return undefined;
  const digits = /^(.*?[A-Za-z_])(\d)$/.exec(name);
  return digits ? digits[1] : '';
}

/**
 * The place of `p`'s role among the parallel roles of `api` (0 for `originSkyId`, 1 for `destinationSkyId`:
 * the order of the API's parameters; of `num2` among num1, num2), undefined when it has none.
 */
export function roleRank(api: ApiSpec, p: ParamSpec): number | undefined {
  let ranks = roleRanks.get(api);
  if (!ranks) roleRanks.set(api, (ranks = new Map()));
  if (!ranks.has(p.name)) ranks.set(p.name, rankAmongRoles(api, p));
  return ranks.get(p.name);
}

/** Each API's role ranks by parameter name (a pure function of the API, asked once per record and source). */
const roleRanks = new WeakMap<ApiSpec, Map<string, number | undefined>>();

function rankAmongRoles(api: ApiSpec, p: ParamSpec): number | undefined {
  const own = words(p.name);
  // Ordered operands: `first`/`second`, `num1`/`num2`.
  const place = operandPlace(p.name);
  if (place !== undefined) {
    const stem = operandStem(p.name);
    const places = api.params.filter((q) => operandStem(q.name) === stem).map((q) => operandPlace(q.name));
    if (places.length > 1) return places.filter((n) => n !== undefined && n < place).length;
  }
  if (own.length > 1) {
    const rest = own.slice(1).join(' ');
    const roles: string[] = [];
    for (const q of api.params) {
      const w = words(q.name);
      if (w.length === own.length && w.slice(1).join(' ') === rest && !roles.includes(w[0])) roles.push(w[0]);
    }
    if (roles.length > 1) return roles.indexOf(own[0]);
  }
  // Roles described alike (`home`, `away`: "Which team (home)." and "(away)."), in the API's order.
  const alike = api.params.filter((q) => q === p || describedAlike(p, q));
  return alike.length > 1 ? alike.indexOf(p) : undefined;
}
