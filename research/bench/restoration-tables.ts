/**
 * Tables of the restoration benchmark, in Markdown (the page) and the same layout in a terminal: the full
 * row of every measure, a compact row for quick runs, and "before → now" rows pairing a baseline build
 * with the current one.
 */
import { asksPerRepair } from '../../src/score/index.ts';
import { ms, num, pct, table } from './markdown.ts';
import type { RecipeSummary, RestorationSummary, ScoredRow } from './restoration-summary.ts';

const name = (r: ScoredRow) => (r.kind === 'overall' ? '**overall**' : r.kind);
const agreeNames = (rows: readonly ScoredRow[]) => [...new Set(rows.flatMap((r) => Object.keys(r.agree)))];

type Cell = (r: ScoredRow) => string;

/** Every measure a table can show, by header. */
const COLUMNS: Readonly<Record<string, Cell>> = {
  detected: (r) => pct(r.detected, r.n),
  'repair valid': (r) => pct(r.valid, r.n),
  restored: (r) => pct(r.score.restored, r.n),
  'restored mod asks': (r) => pct(r.score.restoredModuloAsks, r.n),
  'mod unknowns': (r) => pct(r.score.restoredModuloUnknowns ?? 0, r.n),
  'role collapse': (r) => String(r.score.roleCollapse),
  'asks / repair': (r) => num(asksPerRepair(r.score)),
  'unfair asks': (r) => String(r.score.unfairAsks),
  'duplicate asks': (r) => String(r.score.duplicateAsks),
  'sibling copies': (r) => String(r.score.siblingCopies),
  'lost literal': (r) => String(r.score.lostLiterals),
  'dropped call': (r) => String(r.score.droppedCalls),
};

const agreeCell =
  (backend: string): Cell =>
  (r) =>
    pct(r.agree[backend] ?? 0, r.n);
const medianCell: Cell = (r) => ms(r.medianMs);

/** The columns `headers` (then agreement per backend, then the median time) of `rows`. */
function columns(rows: readonly ScoredRow[], headers: readonly string[], time = true): [string, Cell][] {
  return [
    ...headers.map((h): [string, Cell] => [h, COLUMNS[h]]),
    ...agreeNames(rows).map((o): [string, Cell] => [`agree ${o}`, agreeCell(o)]),
    ...(time ? [['median ms', medianCell] as [string, Cell]] : []),
  ];
}

function rowsTable(rows: readonly ScoredRow[], cols: readonly [string, Cell][], first: string): string {
  return table(
    [first, 'n', ...cols.map(([h]) => h)],
    rows.map((r) => [name(r), r.n, ...cols.map(([, cell]) => cell(r))]),
  );
}

/** Every measure, one row per kind. */
export function fullTable(rows: readonly ScoredRow[], first = 'mistake'): string {
  return rowsTable(rows, columns(rows, Object.keys(COLUMNS)), first);
}

const COMPACT = [
  'restored mod asks',
  'mod unknowns',
  'restored',
  'role collapse',
  'asks / repair',
  'duplicate asks',
];

/** The measures the repair model is tuned on, one row per kind. */
export function compactTable(rows: readonly ScoredRow[], first = 'mistake'): string {
  return rowsTable(rows, columns(rows, [...COMPACT, 'repair valid']), first);
}

/** Baseline and current side by side ("before → now"), rows matched by kind, then the time ratio. */
export function comparisonTable(
  base: readonly ScoredRow[],
  now: readonly ScoredRow[],
  first = 'mistake',
): string {
  const before = new Map(base.map((r) => [r.kind, r]));
  const cols = columns(now, COMPACT);
  return table(
    [first, 'n', ...cols.map(([h]) => h), 'time ratio'],
    now.map((r) => {
      const b = before.get(r.kind);
      return [
        name(r),
        r.n,
        ...cols.map(([, cell]) => (b ? `${cell(b)} → ${cell(r)}` : cell(r))),
        b ? `${num(r.medianMs / b.medianMs)}×` : '–',
      ];
    }),
  );
}

/** One measure as a matrix: a row per kind, a column per set, then all sets. */
export function matrixTable(recipe: RecipeSummary, measure: (r: ScoredRow) => string): string {
  const sets = Object.keys(recipe.sets);
  const cell = (rows: readonly ScoredRow[], kind: string) => {
    const r = rows.find((x) => x.kind === kind);
    return r ? measure(r) : '–';
  };
  return table(
    ['mistake', ...sets, 'all sets'],
    recipe.all.map((r) => [name(r), ...sets.map((s) => cell(recipe.sets[s], r.kind)), measure(r)]),
  );
}

/** Restored modulo asks as a share. */
export const restoredModAsks: Cell = COLUMNS['restored mod asks'];

/**
 * The baseline's numbers as `docs/benchmarks.md` shows them (a test keeps the two equal): per recipe, the
 * share restored modulo asks per kind and set, then the other measures over all sets. No times: those are
 * compared within one run on the restoration page.
 */
export function baselineDocTables(summary: RestorationSummary): string {
  const out: string[] = [];
  for (const recipe of ['first', 'second'] as const) {
    const r = summary.recipes[recipe];
    if (!r) continue;
    out.push(
      `${recipe === 'first' ? 'First' : 'Second'} recipe, restored modulo asks:`,
      '',
      matrixTable(r, restoredModAsks),
      '',
      `${recipe === 'first' ? 'First' : 'Second'} recipe, all sets:`,
      '',
      rowsTable(
        r.all,
        columns(
          r.all,
          ['restored', 'role collapse', 'asks / repair', 'unfair asks', 'duplicate asks'],
          false,
        ),
        'mistake',
      ),
      '',
    );
  }
  return out.join('\n');
}
