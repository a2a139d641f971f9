/**
 * Restoration benchmark: validate and repair every corrupted record, then measure detection, repair
 * validity, restoration of the gold (by data flow), executability (no `ask`), edits and cost per kind.
 */
import type { Catalog, Sequence } from '../../src/model/types.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import { repair } from '../../src/repair/repair.ts';
import { isLiteral, validate } from '../../src/validate/validate.ts';
import type { CorruptionRecord } from './data.ts';
import { table, pct, num, ms } from './markdown.ts';
import { sameDataFlow, signature } from '../../src/read/signature.ts';
import { mean, median } from './stats.ts';

export interface Outcome {
  readonly id: string;
  readonly kind: string;
  readonly set: string;
  /** The validator calls the corrupted sequence invalid. */
  readonly detected: boolean;
  readonly status: string;
  /** The returned sequence re-validates (with `ask`/`confirm` pseudo-steps allowed). */
  readonly valid: boolean;
  /** Same data flow as the gold (labels and independent step order ignored). */
  readonly restored: boolean;
  /** Same as the gold up to label names, in the same order (`signature` of src/read/signature.ts). */
  readonly restoredInOrder: boolean;
  /** No `ask`/`confirm` pseudo-step in the repair. */
  readonly executable: boolean;
  /** The repair lost a literal argument value that the input and the gold both have (user data gone). */
  readonly lostLiteral: boolean;
  readonly edits: number;
  readonly cost: number;
  readonly timeMs: number;
  readonly vars?: number;
  readonly rows?: number;
  readonly reason?: string;
  /** The repair as a diff against the corrupted input, kept when the gold was not restored. */
  readonly diff?: string;
}

export async function evaluateRecord(
  record: CorruptionRecord,
  catalog: Catalog,
  options: RepairOptions = {},
): Promise<Outcome> {
  const detected = !validate(record.sequence, catalog, options).valid;
  const result = await repair(record.sequence, catalog, options);
  const answered = result.status === 'repaired' || result.status === 'valid';
  const valid = answered && validate(result.sequence, catalog, { ...options, pseudoSteps: true }).valid;
  const restored = answered && sameDataFlow(result.sequence, record.gold);
  return {
    id: record.id,
    kind: record.kind,
    set: record.set,
    detected,
    status: result.status,
    valid,
    restored,
    restoredInOrder: answered && signature(result.sequence) === signature(record.gold),
    executable: answered && result.isExecutable !== false,
    lostLiteral: answered && losesLiteral(record.sequence, record.gold, result.sequence),
    edits: result.edits.length,
    cost: result.cost,
    timeMs: result.timeMs,
    vars: result.model?.vars,
    rows: result.model?.rows,
    reason: result.reason,
    ...(restored ? {} : { diff: result.diff }),
  };
}

/** Literal argument values of a sequence (whole values without references), as a multiset. */
function literals(sequence: Sequence): Map<string, number> {
  const out = new Map<string, number>();
  for (const step of sequence) {
    for (const value of Object.values(step.arguments)) {
      if (!isLiteral(value)) continue;
      const key = JSON.stringify(value);
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

/** True when a literal that the input and the gold share is missing from the repair. */
export function losesLiteral(input: Sequence, gold: Sequence, repaired: Sequence): boolean {
  const [a, g, r] = [literals(input), literals(gold), literals(repaired)];
  for (const [key, n] of a) if ((r.get(key) ?? 0) < Math.min(n, g.get(key) ?? 0)) return true;
  return false;
}

export async function evaluate(
  records: readonly CorruptionRecord[],
  catalogOf: (set: string) => Catalog,
  options: RepairOptions = {},
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const record of records) out.push(await evaluateRecord(record, catalogOf(record.set), options));
  return out;
}

/** Combinations are grouped by their number of mistakes. */
export function kindGroup(kind: string): string {
  const parts = kind.split('+').length;
  return parts > 1 ? `${parts} mistakes` : kind;
}

export interface KindSummary {
  readonly kind: string;
  readonly n: number;
  readonly detected: number;
  readonly valid: number;
  readonly restored: number;
  readonly restoredInOrder: number;
  readonly executable: number;
  readonly lostLiteral: number;
  readonly meanEdits: number;
  readonly meanCost: number;
  readonly medianMs: number;
}

function summary(kind: string, xs: readonly Outcome[]): KindSummary {
  const count = (f: (o: Outcome) => boolean) => xs.filter(f).length;
  return {
    kind,
    n: xs.length,
    detected: count((o) => o.detected),
    valid: count((o) => o.valid),
    restored: count((o) => o.restored),
    restoredInOrder: count((o) => o.restoredInOrder),
    executable: count((o) => o.executable),
    lostLiteral: count((o) => o.lostLiteral),
    meanEdits: mean(xs.map((o) => o.edits)),
    meanCost: mean(xs.map((o) => o.cost)),
    medianMs: median(xs.map((o) => o.timeMs)),
  };
}

/** One row per kind group (in `order`, then any others), then `overall`. */
export function summarise(outcomes: readonly Outcome[], order: readonly string[] = []): KindSummary[] {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const key = kindGroup(o.kind);
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const keys = [
    ...order.filter((k) => groups.has(k)),
    ...[...groups.keys()].filter((k) => !order.includes(k)),
  ];
  return [...keys.map((k) => summary(k, groups.get(k)!)), summary('overall', outcomes)];
}

export function restorationTable(rows: readonly KindSummary[]): string {
  return table(
    [
      'mistake',
      'n',
      'detected',
      'repair valid',
      'restored (data flow)',
      'restored (same order)',
      'executable',
      'lost a literal',
      'mean edits',
      'mean cost',
      'median ms',
    ],
    rows.map((r) => [
      r.kind === 'overall' ? '**overall**' : r.kind,
      r.n,
      pct(r.detected, r.n),
      pct(r.valid, r.n),
      pct(r.restored, r.n),
      pct(r.restoredInOrder, r.n),
      pct(r.executable, r.n),
      pct(r.lostLiteral, r.n),
      num(r.meanEdits),
      num(r.meanCost),
      ms(r.medianMs),
    ]),
  );
}
