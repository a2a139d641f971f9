/**
 * The references inside a kept argument: each is kept (its label and path resolve before the call) or
 * reassigned to another output (same field of another label, or another field of the same label).
 */
import type { Json, OutputField } from '../model/types.ts';
import { leafOf, outputsByLeaf } from '../catalog/catalog-index.ts';
import { normalisePath, referenceSites, segments } from '../read/references.ts';
import { similarity, tieDistance } from '../catalog/names.ts';
import { memoryPaths, memoryProvides } from '../validate/outputs.ts';
import type { CompileContext } from './context.ts';
import type { Call, TokenOption } from './plan.ts';
import { originalLabel } from './context.ts';

const MAX_REASSIGN = 8;

function exactLeaves(
  byLeaf: Map<string, OutputField[]>,
  leaf: string,
  arg: string,
): [string, OutputField[]][] {
  const out: [string, OutputField[]][] = [];
  for (const name of leaf === arg ? [leaf] : [leaf, arg]) {
    const fields = byLeaf.get(name);
    if (fields) out.push([name, fields]);
  }
  return out;
}

/** `location.name` -> `location`, `news[].url` -> `news[]`, `skyId` -> ''. */
function parentOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? '' : path.slice(0, dot);
}

export function tokenPlans(
  ctx: CompileContext,
  call: Call,
  arg: string,
  value: Json,
  uses: readonly number[],
): void {
  const b = ctx.builder;
  const earlier = ctx.before(call.pos);
  for (const site of referenceSites(arg, value)) {
    const { label, path } = site.ref;
    const options: TokenOption[] = [];
    const shadowing: number[] = [];
    for (const j of earlier) {
      const as = j.labels.find((l) => l.label === label);
      if (!as) continue;
      shadowing.push(as.v);
      const provides = ctx.provides(j, path);
      if (provides.length === 0) continue;
      const v = ctx.variable(0);
      b.atMost([v], [as.v]);
      b.atMost([v], provides);
      options.push({ kind: 'keep', v, cost: 0, call: j.id });
    }
    if (Object.prototype.hasOwnProperty.call(ctx.memory, label) && memoryProvides(ctx.memory[label], path)) {
      const v = ctx.variable(0);
      // A step labelled like a memory item shadows it.
      for (const s of shadowing) b.atMost([v, s], 1);
      options.push({ kind: 'keep', v, cost: 0, call: null });
    }
    options.push(...reassignments(ctx, call, arg, label, normalisePath(path), earlier));
    b.equal(
      options.map((o) => o.v),
      uses,
    );
    call.tokens.push({ arg, site, options });
  }
}

function reassignments(
  ctx: CompileContext,
  call: Call,
  arg: string,
  label: string,
  norm: string,
  earlier: readonly Call[],
): TokenOption[] {
  const w = ctx.weights;
  const min = ctx.cost.minSimilarity;
  const leaf = leafOf(norm);
  const found: { cost: number; call: number | null; memoryLabel?: string; path: string }[] = [];
  // How close a field is to the broken one: the same path, or a leaf close to the broken leaf or the argument.
  // A different path with the same leaf (`navigation.skyId` for `skyId`) ranks just below the same path.
  const byLeaf = new Map<string, number>();
  const leafCloseness = (other: string): number => {
    let c = byLeaf.get(other);
    if (c === undefined) {
      c = 0.95 * Math.max(similarity(other, leaf), other === arg ? 0.9 : similarity(other, arg) * 0.85);
      byLeaf.set(other, c);
    }
    return c;
  };
  // Under the same parent (`location.mae` -> `location.name`) the whole paths are compared, which is kinder
  // to short misspelt leaves.
  const parent = parentOf(norm);
  const closeness = (path: string): number => {
    if (path === norm) return 1;
    const depth = 0.01 * (path.split(/\.|\[\]/).length - 1);
    const leafClose = leafCloseness(leafOf(path));
    const sibling = parent !== '' && parentOf(path) === parent ? 0.95 * similarity(path, norm) : 0;
    return Math.max(leafClose, sibling) - depth;
  };
  // A whole output (`$var3$`) is re-pointed only when its label is made up: another call's whole output is
  // a guess, never a replacement for a call that exists.
  const orphan = !ctx.steps.some((s) => s.label === label);
  // Nor is it pointed at an output the same step already uses whole (an answer would list it twice).
  const usedWhole = new Set(
    call.origin >= 0
      ? ctx.refs[call.origin].filter((r) => r.ref.path.length === 0).map((r) => r.ref.label)
      : [],
  );
  for (const j of earlier) {
    const sameLabel = originalLabel(ctx, j) === label;
    if (norm === '') {
      if (!orphan || usedWhole.has(originalLabel(ctx, j))) continue;
      // A whole output (`$var3$`): any other earlier call's whole output, the closest label first.
      if (!sameLabel)
        found.push({
          cost: w.reassign + w.tieBreak * (0.5 + 0.5 * tieDistance(label, originalLabel(ctx, j))),
          call: j.id,
          path: '',
        });
      continue;
    }
    const seen = new Set<string>();
    // Fuzzy field matching on the same label, or on a label close to a made-up one (`var20` ~ `var2`);
    // elsewhere only the same leaf (or the argument's own name) is looked up: a wider search stays cheap.
    const fuzzy = sameLabel || (orphan && tieDistance(label, originalLabel(ctx, j)) <= 0.34);
    for (const choice of j.apis) {
      if (!choice.api) continue;
      const byLeaf = outputsByLeaf(choice.api);
      const leaves = fuzzy ? byLeaf : exactLeaves(byLeaf, leaf, arg);
      for (const [other, fields] of leaves) {
        // Cheap filter first: the leaf must be close enough before any path is looked at.
        if (
          leafCloseness(other) < min - 0.05 &&
          !fields.some((f) => f.path === norm || (parent !== '' && parentOf(f.path) === parent))
        )
          continue;
        for (const f of fields) {
          if (seen.has(f.path)) continue;
          seen.add(f.path);
          if (sameLabel && f.path === norm) continue; // that is a keep
          const close = closeness(f.path);
          if (close < min) continue;
          // Same label, other field first; then the same field under the closest other label.
          const tie = sameLabel
            ? 0.5 * (1 - close)
            : 0.5 + 0.5 * tieDistance(label, originalLabel(ctx, j)) + (1 - close);
          found.push({ cost: w.reassign + w.tieBreak * tie, call: j.id, path: f.path });
        }
      }
    }
  }
  for (const [m, value] of Object.entries(ctx.memory)) {
    if (norm === '') {
      if (m !== label && orphan)
        found.push({
          cost: w.fromMemory + w.tieBreak * (0.5 + 0.5 * tieDistance(label, m)),
          call: null,
          memoryLabel: m,
          path: '',
        });
      continue;
    }
    for (const mp of memoryPaths(value as Json)) {
      if (m === label && mp === norm) continue;
      const close = closeness(mp);
      if (close < min) continue;
      const tie = m === label ? 0.5 * (1 - close) : 0.5 + 0.5 * tieDistance(label, m) + (1 - close);
      found.push({ cost: w.fromMemory + w.tieBreak * tie, call: null, memoryLabel: m, path: mp });
    }
  }
  found.sort((a, b) => a.cost - b.cost);
  return found.slice(0, MAX_REASSIGN).map((f) => {
    const path = segments(f.path);
    const v = ctx.variable(f.cost, f.call === null ? 'fromMemory' : 'reassign');
    if (f.call !== null) {
      const j = ctx.calls[f.call];
      ctx.builder.atMost([v], ctx.provides(j, path));
      ctx.builder.atMost([v], ctx.labelled(j));
    } else ctx.unshadowed(v, f.memoryLabel!, call.pos);
    return { kind: 'reassign', v, cost: f.cost, call: f.call, memoryLabel: f.memoryLabel, path };
  });
}
