/**
 * Tables of the restoration benchmark, in Markdown (the page) and the same layout in a terminal: the full
 * row of every measure, a compact row for quick runs, and "before → now" rows pairing a baseline build
 * with the current one.
 */
import { asksPerRepair } from '../../src/score/index.ts';
import { ms, num, pct, table } from './markdown.ts';
import type { ScoredRow } from './restoration-summary.ts';

const name = (r: ScoredRow) => (r.kind === 'overall' ? '**overall**' : r.kind);
const agreeNames = (rows: readonly ScoredRow[]) => [...new Set(rows.flatMap((r) => Object.keys(r.agree)))];

/** Every measure, one row per kind. */
export function fullTable(rows: readonly ScoredRow[], first = 'mistake'): string {
  const others = agreeNames(rows);
  return table(
    [
      first,
      'n',
      'detected',
      'repair valid',
      'restored',
      'restored mod asks',
      'role collapse',
      'asks / repair',
      'unfair asks',
      'duplicate asks',
      'sibling copies',
      'lost literal',
      'dropped call',
      ...others.map((o) => `agree ${o}`),
      'median ms',
    ],
    rows.map((r) => [
      name(r),
      r.n,
      pct(r.detected, r.n),
      pct(r.valid, r.n),
      pct(r.score.restored, r.n),
      pct(r.score.restoredModuloAsks, r.n),
      r.score.roleCollapse,
      num(asksPerRepair(r.score)),
      r.score.unfairAsks,
      r.score.duplicateAsks,
      r.score.siblingCopies,
      r.score.lostLiterals,
      r.score.droppedCalls,
      ...others.map((o) => pct(r.agree[o] ?? 0, r.n)),
      ms(r.medianMs),
    ]),
  );
}

/** The measures the repair model is tuned on, one row per kind. */
export function compactTable(rows: readonly ScoredRow[], first = 'mistake'): string {
  const others = agreeNames(rows);
  return table(
    [
      first,
      'n',
      'restored mod asks',
      'restored',
      'role collapse',
      'asks / repair',
      'dup asks',
      'valid',
      ...others.map((o) => `agree ${o}`),
      'median ms',
    ],
    rows.map((r) => [
      name(r),
      r.n,
      pct(r.score.restoredModuloAsks, r.n),
      pct(r.score.restored, r.n),
      r.score.roleCollapse,
      num(asksPerRepair(r.score)),
      r.score.duplicateAsks,
      pct(r.valid, r.n),
      ...others.map((o) => pct(r.agree[o] ?? 0, r.n)),
      ms(r.medianMs),
    ]),
  );
}

const arrow = (before: string, now: string) => `${before} → ${now}`;

/** Baseline and current side by side, rows matched by kind. */
export function comparisonTable(
  base: readonly ScoredRow[],
  now: readonly ScoredRow[],
  first = 'mistake',
): string {
  const others = agreeNames(now);
  const before = new Map(base.map((r) => [r.kind, r]));
  return table(
    [
      first,
      'n',
      'restored mod asks',
      'restored',
      'role collapse',
      'asks / repair',
      'dup asks',
      ...others.map((o) => `agree ${o}`),
      'median ms',
      'time ratio',
    ],
    now.map((r) => {
      const b = before.get(r.kind);
      const two = (f: (x: ScoredRow) => string) => (b ? arrow(f(b), f(r)) : f(r));
      return [
        name(r),
        r.n,
        two((x) => pct(x.score.restoredModuloAsks, x.n)),
        two((x) => pct(x.score.restored, x.n)),
        two((x) => String(x.score.roleCollapse)),
        two((x) => num(asksPerRepair(x.score))),
        two((x) => String(x.score.duplicateAsks)),
        ...others.map((o) => two((x) => pct(x.agree[o] ?? 0, x.n))),
        two((x) => ms(x.medianMs)),
        b ? `${num(r.medianMs / b.medianMs)}×` : '–',
      ];
    }),
  );
}
