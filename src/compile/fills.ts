/**
 * The sources of a required parameter beyond the call's own arguments: an earlier output of its name
 * (`reassign`) or of a name mapped onto it (`newMap`), a memory item, a literal the sequence passes to a
 * parameter of the same name (`reuseLiteral`, never one a sibling call of the same API already passes: two
 * identical calls are a guess, not a repair), or `ask`, priced by what a person can know (and whose answer
 * a later call of another API may read: see `slotShareRows`).
 */
import type { ApiSpec, Json, OutputField, ParamSpec } from '../model/types.ts';
import { leafOf, outputsByLeaf } from '../catalog/catalog-index.ts';
import { tieDistance, words } from '../catalog/names.ts';
import { canonicalJson } from '../model/canonical.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { isLiteral } from '../validate/validate.ts';
import { literalMismatch, typesCanMatch } from '../validate/literals.ts';
import { memoryPaths } from '../validate/outputs.ts';
import { normalisePath, referenceSites, segments, stepReferences } from '../read/references.ts';
import { knownLabel, type CompileContext } from './context.ts';
import type { Call, Source } from './plan.ts';
import { affinity, PLAN_AFFINITY, siblingFeeds } from './roles.ts';
import { askCost, registerSlotAsk } from './asks.ts';
import { gapBefore } from './numbering.ts';
import { unreadFeeds } from './unread.ts';

/** At most this many sources besides `ask` per parameter (the cheapest). */
const MAX_FILLS = 12;

interface Candidate {
  readonly cost: number;
  /** Read from a call the repair would insert (offered after what the sequence itself has). */
  readonly inserted?: boolean;
  readonly kind: 'reassign' | 'newMap' | 'fromMemory' | 'reuseLiteral';
  readonly make: (v: number) => Source;
  readonly rows?: (v: number) => void;
}

/** Non-argument sources of required parameter `p` of `api` at `call`. */
export function fillSources(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Source[] {
  const w = ctx.weights;
  const tie = w.tieBreak;
  const feeds = siblingFeeds(ctx, call.origin);
  const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
  // The step passed `p` a reference: the plan takes the value from an output. When that reference names a
  // deleted step, refilling `p` from an output of another name would re-point it in disguise.
  const own =
    step && Object.prototype.hasOwnProperty.call(step.arguments, p.name) ? step.arguments[p.name] : undefined;
  const fromOutput = own !== undefined && !isLiteral(own);
  const lostStep =
    fromOutput && stepReferences({ [p.name]: own }).some((site) => ctx.restorable.has(site.ref.label));
  const candidates: Candidate[] = [];
  const mapped = lostStep
    ? new Map<string, number>()
    : new Map(ctx.mappedFrom(p.name).map((m) => [m.from, m.score]));
  const fieldCost = (leaf: string): { cost: number; mapped: boolean } | null => {
    if (leaf === p.name) return { cost: w.reassign, mapped: false };
    const score = mapped.get(leaf);
    return score === undefined ? null : { cost: w.newMap * (2 - score), mapped: true };
  };
  const names = [p.name, ...mapped.keys()];
  const rank = roleRank(api, p);
  // A parallel role (origin, destination) read elsewhere in the plan is another trip's: only a sibling of the
  // same role, then the plan's order, says where it comes from.
  const roles = rank !== undefined;
  const near = (label: string) => {
    const a = affinity(p.name, label, feeds);
    return roles && a === PLAN_AFFINITY ? 1 : a;
  };
  for (const j of ctx.before(call.pos)) {
    const label = knownLabel(ctx, j);
    // The cheapest way each field of the call can feed `p`: by its name, a mapping, or in context.
    const best = new Map<string, { field: OutputField; fc: { cost: number; mapped: boolean } }>();
    const offer = (field: OutputField, fc: { cost: number; mapped: boolean }) => {
      const known = best.get(field.path);
      if (typesCanMatch(field.type, p.type) && (!known || fc.cost < known.fc.cost))
        best.set(field.path, { field, fc });
    };
    for (const choice of j.apis) {
      if (!choice.api) continue;
      const byLeaf = outputsByLeaf(choice.api);
      for (const name of names) for (const f of byLeaf.get(name) ?? []) offer(f, fieldCost(name)!);
      // A field the parameter's name ends with, whose producer names the rest (`id` of search_artist
      // for `artist_id`): priced as a map of that score.
      if (lostStep) continue;
      for (const { field, score } of ctx.contextFields(p, choice.api))
        offer(field, { cost: w.newMap * (2 - score), mapped: true });
    }
    // Parallel roles take their sources in the order the plan made them: the earlier airport search is the
    // origin, the later one the destination (sources that are not the input's calls all count as earliest).
    const order = (rank ?? 0) * (j.origin >= 0 ? 1 - j.pos / Math.max(ctx.steps.length, 1) : 1);
    for (const { field, fc } of best.values()) {
      const path = segments(field.path);
      const depth = path.length - 1;
      const cost = fc.cost + tie * (near(label) + 0.1 * depth + 0.1 * tieDistance(p.name, label) + order);
      candidates.push({
        cost,
        inserted: j.kind === 'inserted',
        kind: fc.mapped ? 'newMap' : 'reassign',
        make: (v) => ({ kind: 'output', v, cost, call: j.id, path, mapped: fc.mapped }),
        rows: (v) => {
          ctx.builder.atMost([v], ctx.provides(j, path));
          ctx.builder.atMost([v], ctx.labelled(j));
        },
      });
    }
  }
  for (const [label, value] of Object.entries(ctx.memory)) {
    for (const mp of memoryPaths(value as Json)) {
      const fc = fieldCost(leafOf(mp));
      if (!fc) continue;
      const path = segments(mp);
      const extra = fc.mapped ? fc.cost - w.newMap : 0;
      const cost =
        w.fromMemory + extra + tie * (affinity(p.name, label, feeds) + 0.1 * (path.length - 1) + (rank ?? 0));
      candidates.push({
        cost,
        kind: 'fromMemory',
        make: (v) => ({ kind: 'memory', v, cost, label, path, mapped: fc.mapped }),
        rows: (v) => ctx.unshadowed(v, label, call.pos),
      });
    }
  }
  // A value the plan took from an output is not replaced by a copy of some other call's input.
  if (!fromOutput) {
    const reused = references(ctx, call, api, p);
    // Where another call reads the value from an output, that is the plan's way of getting it: the
    // literal it was computed from comes second.
    const after = reused.length > 0 ? tie : 0;
    candidates.push(...reused, ...literals(ctx, call, api, p, after));
  }
  // What the sequence has first (its calls, memory, its literals), then outputs of calls to insert.
  candidates.sort((a, b) => Number(a.inserted ?? false) - Number(b.inserted ?? false) || a.cost - b.cost);
  const sources: Source[] = candidates.slice(0, MAX_FILLS).map((c) => {
    const v = ctx.variable(c.cost, c.kind);
    c.rows?.(v);
    return c.make(v);
  });
  // Right after a label the count skips (a deleted step none of whose uses is left), a missing value that
  // calls produce is likelier that step's output than the user's: asking for it pays the premium.
  const skipped = call.origin >= 0 && own === undefined && gapBefore(ctx, call.origin) !== undefined;
  const fields = own === undefined ? (skipped ? [p.name] : []) : referencedFields(own);
  const cost = askCost(ctx, p.name, fields);
  const v = ctx.variable(cost, 'slotFill');
  sources.push({ kind: 'ask', v, cost });
  registerSlotAsk(ctx, { call, api: api.name, param: p.name, v, cost });
  return sources;
}

/**
 * Literals the sequence passes to another parameter named `p`, nearest step first; never a value that a
 * call of the same API already passes for `p` (a copy of a sibling call), nor one an earlier call takes
 * and outputs again (its output is the source).
 */
function literals(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec, extra: number): Candidate[] {
  const w = ctx.weights;
  const siblings = siblingValues(ctx, call, api, p);
  // A labelled call that takes `p` and also outputs it: the plan reads the value from its output (an
  // earlier output of the parameter's own name is a source already), not from a copy of its input.
  const echoes = (k: number) => {
    const step = ctx.steps[k];
    const producer = ctx.index.byName.get(step.name);
    return step.label !== undefined && producer !== undefined && outputsByLeaf(producer).has(p.name);
  };
  // A call whose output no other call reads and could feed `p` is the lost source: its output, not a copy of
  // its input (`get_translation(text)` after `analyze_sentiment(text="I love it")` translates the sentiment).
  const step = call.origin >= 0 ? ctx.steps[call.origin] : undefined;
  const lost = !(step && Object.prototype.hasOwnProperty.call(step.arguments, p.name))
    ? new Set(unreadFeeds(ctx, call, p).map((f) => f.call.origin))
    : new Set<number>();
  const seen = new Set<string>();
  const out: Candidate[] = [];
  ctx.steps.forEach((other, k) => {
    if (k === call.origin || lost.has(k) || !Object.prototype.hasOwnProperty.call(other.arguments, p.name))
      return;
    const value = other.arguments[p.name];
    const key = canonicalJson(value);
    if (!isLiteral(value) || seen.has(key) || siblings.has(key) || (k < call.pos && echoes(k))) return;
    if (ctx.options.strictTypes && literalMismatch(value, p)) return;
    seen.add(key);
    const distance = Math.abs(call.pos - k) / Math.max(ctx.steps.length, 1);
    const cost = w.reuseLiteral + extra + w.tieBreak * distance;
    out.push({
      cost,
      kind: 'reuseLiteral',
      make: (v) => ({ kind: 'literal', v, cost, value, fromStep: k }),
      // Calls put in (restored, inserted) of one API never take one copied value between them.
      rows:
        call.kind === 'inserted'
          ? (v) => twinCopy(ctx, `${api.name}\u0000${p.name}\u0000${key}`, v)
          : undefined,
    });
  });
  return out;
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
function roleRank(api: ApiSpec, p: ParamSpec): number | undefined {
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
  if (own.length < 2) return undefined;
  const rest = own.slice(1).join(' ');
  const roles: string[] = [];
  for (const q of api.params) {
    const w = words(q.name);
    if (w.length === own.length && w.slice(1).join(' ') === rest && !roles.includes(w[0])) roles.push(w[0]);
  }
  return roles.length > 1 ? roles.indexOf(own[0]) : undefined;
}

/** The values (canonical JSON) that other calls of `api` pass for `p`: copying one makes a twin call. */
function siblingValues(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Set<string> {
  const siblings = new Set<string>();
  ctx.steps.forEach((other, k) => {
    if (k === call.origin || other.name !== api.name) return;
    if (Object.prototype.hasOwnProperty.call(other.arguments, p.name))
      siblings.add(canonicalJson(other.arguments[p.name]));
  });
  return siblings;
}

/**
 * References another call passes whole to a parameter named `p` (`q = $var1.location.name$` on the
 * forecast, for the time zone's `q`), read from the same output: the plan's way of feeding that kind of
 * value, priced as `reuseLiteral`. Never one a call of the same API passes (a twin call).
 */
function references(ctx: CompileContext, call: Call, api: ApiSpec, p: ParamSpec): Candidate[] {
  const w = ctx.weights;
  const siblings = siblingValues(ctx, call, api, p);
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const answer = ctx.options.resultName ?? DEFAULT_RESULT_NAME;
  for (const { step: k, site } of ctx.wholeFeeds.get(p.name) ?? []) {
    const other = ctx.steps[k];
    // The answer's keys name what it shows, not parameters.
    if (k === call.origin || (other.name === answer && k === ctx.steps.length - 1)) continue;
    const value = other.arguments[p.name];
    const key = canonicalJson(value);
    if (seen.has(key) || siblings.has(key)) continue;
    seen.add(key);
    const path = site.ref.path;
    const distance = Math.abs(call.pos - k) / Math.max(ctx.steps.length, 1);
    const cost = w.reuseLiteral + w.tieBreak * distance;
    for (const j of ctx.before(call.pos)) {
      if (j.kind === 'result' || knownLabel(ctx, j) !== site.ref.label) continue;
      out.push({
        cost,
        kind: 'reuseLiteral',
        make: (v) => ({ kind: 'output', v, cost, call: j.id, path, mapped: false, fromStep: k }),
        rows: (v) => {
          ctx.builder.atMost([v], ctx.provides(j, path));
          ctx.builder.atMost([v], ctx.labelled(j));
        },
      });
    }
  }
  return out;
}

/** The fields a value references (their leaves), for pricing a question about it. */
export function referencedFields(value: Json): string[] {
  return referenceSites('', value)
    .map((site) => leafOf(normalisePath(site.ref.path)))
    .filter((f) => f !== '');
}

function twinCopy(ctx: CompileContext, key: string, v: number): void {
  const list = ctx.twinCopies.get(key);
  if (list) list.push(v);
  else ctx.twinCopies.set(key, [v]);
}

/** At most one call put in per API takes a given copied value for a parameter (no twins: two "Paris"). */
export function twinRows(ctx: CompileContext): void {
  for (const vars of ctx.twinCopies.values()) if (vars.length > 1) ctx.builder.atMost(vars, 1);
}
