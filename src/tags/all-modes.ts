/**
 * The "all modes" view: one sequence repaired under each recovery setting side by side (as given, without
 * mappings, without memory, with only the APIs it already calls, compressed), so a reader sees which
 * pattern each repair depends on.
 */
import type { Catalog, Sequence } from '../model/types.ts';
import { compress } from '../repair/compress.ts';
import { repair } from '../repair/repair.ts';
import type { RepairOptions, RepairResult } from '../model/options.ts';
import type { Status } from '../model/constants.ts';

export const MODES = ['default', 'no-mappings', 'no-memory', 'given-only', 'compress'] as const;
export type ModeName = (typeof MODES)[number];

export interface ModeRow {
  readonly mode: ModeName;
  readonly status: Status;
  readonly determination: boolean | null;
  readonly cost: number;
  readonly edits: number;
  /** How likely the repair is the intended plan (1 for a valid input); none when not worked out. */
  readonly confidence?: number;
  /** True when the result has no `ask`/`confirm` pseudo-step; null when no result was decided. */
  readonly executable: boolean | null;
  /** The diff's changed lines (`-`, `+`, `?`), without the kept ones. */
  readonly changed: readonly string[];
  readonly reason?: string;
}

export interface AllModes {
  readonly rows: readonly ModeRow[];
  /** The full results, in the order of `rows`. */
  readonly results: readonly RepairResult[];
}

/** The options of each mode, derived from the caller's. */
export function modeOptions(mode: ModeName, options: RepairOptions): RepairOptions {
  switch (mode) {
    case 'no-mappings':
      return { ...options, mappings: undefined, catalogMappings: false };
    case 'no-memory':
      return { ...options, memory: undefined };
    case 'given-only':
      return { ...options, givenOnly: true };
    default:
      return options;
  }
}

/**
 * Runs every mode in turn (one solver at a time: the modes share the machine, not a pool). The compress
 * row takes `compressOptions` when given: a caller that defaults the cost model per command (the CLI,
 * where `compress` uses the `compress` preset) prices it as that command does.
 */
export async function allModes(
  sequence: Sequence,
  catalog: Catalog,
  options: RepairOptions = {},
  compressOptions: RepairOptions = options,
): Promise<AllModes> {
  const rows: ModeRow[] = [];
  const results: RepairResult[] = [];
  for (const mode of MODES) {
    const opts = modeOptions(mode, mode === 'compress' ? compressOptions : options);
    const result =
      mode === 'compress' ? await compress(sequence, catalog, opts) : await repair(sequence, catalog, opts);
    results.push(result);
    rows.push(toRow(mode, result));
  }
  return { rows, results };
}

function toRow(mode: ModeName, r: RepairResult): ModeRow {
  const decided = r.status !== 'timeout' && r.status !== 'error';
  return {
    mode,
    status: r.status,
    determination: r.determination,
    cost: r.cost,
    edits: r.edits.length,
    ...(r.confidence !== undefined ? { confidence: r.confidence } : {}),
    executable: decided ? (r.isExecutable ?? null) : null,
    changed: r.diff.split('\n').filter((line) => /^[-+?] /.test(line)),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
  };
}

/** A compact table: one line per mode, its changed lines indented below it. */
export function formatModes(view: AllModes): string {
  const head = ['mode', 'status', 'cost', 'edits', 'confidence', 'executable'];
  const cells = view.rows.map((r) => [
    r.mode,
    r.status,
    String(r.cost),
    String(r.edits),
    r.confidence === undefined ? '-' : String(r.confidence),
    r.executable === null ? '-' : r.executable ? 'yes' : 'no',
  ]);
  const widths = head.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k].length)));
  const line = (c: string[]) =>
    c
      .map((x, k) => x.padEnd(widths[k]))
      .join('  ')
      .trimEnd();
  const out = [line(head)];
  view.rows.forEach((r, k) => {
    out.push(line(cells[k]));
    for (const changed of r.changed) out.push(`    ${changed}`);
    if (r.reason !== undefined && r.status !== 'valid' && r.status !== 'repaired')
      out.push(`    (${r.reason})`);
  });
  return out.join('\n');
}
