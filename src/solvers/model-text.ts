/**
 * The neutral model as text any MILP solver reads: CPLEX LP and free MPS. Names are generated (`x12` for
 * variable 12, `c7` for row 7), never taken from user text, so no name can hit an LP reader's pitfalls
 * (operators, a leading digit, keywords, `inf`/`nan` prefixes). What LP cannot say is rewritten: a ranged
 * row becomes two rows (`c7_lo`, `c7_hi`), binaries are declared only in `Binary` (a bound line would
 * override it), continuous variables get `Bounds` lines. MPS keeps ranged rows as RANGES and marks binaries
 * `BV`. A row with no finite side is left out (it constrains nothing); comments carry what the text
 * cannot (the objective offset of a repair model).
 */
import type { MilpModel, Row } from '../model/milp.ts';
import { continuousSet, rowName, varName } from './verify.ts';

export type ModelFormat = 'lp' | 'mps';
export const MODEL_FORMATS: readonly ModelFormat[] = ['lp', 'mps'];

export interface ModelTextOptions {
  /** Comment lines written at the top (without the comment marker). */
  readonly comments?: readonly string[];
  /** MPS `NAME` (letters, digits, `_` and `-` kept; default `refract`). */
  readonly name?: string;
}

/** Longest LP line written; longer expressions continue on the next line (readers cap line length). */
const LP_LINE = 250;

/** Shortest text that reads back as the same double (`0.1`, `1e-7`, `-3`). */
function num(x: number): string {
  return Object.is(x, -0) ? '0' : String(x);
}

/** A row's coefficients merged per variable, in variable order, zeros left out. */
function terms(row: Row): [number, number][] {
  const merged = new Map<number, number>();
  row.vars.forEach((v, k) => merged.set(v, (merged.get(v) ?? 0) + row.coefs[k]));
  return [...merged].filter(([, c]) => c !== 0).sort((a, b) => a[0] - b[0]);
}

/** `2 x0 - x3 + 0.5 x7`, wrapped at LP_LINE; an empty sum is `0 x0` (LP has no empty expression). */
function lpSum(entries: readonly [number, number][], head: string): string[] {
  const parts = entries.length ? entries : [[0, 0] as [number, number]];
  const lines: string[] = [];
  let line = head;
  parts.forEach(([v, c], k) => {
    const abs = Math.abs(c);
    const coef = abs === 1 ? '' : `${num(abs)} `;
    const sign = c < 0 ? '-' : k === 0 ? '' : '+';
    const term = `${sign}${sign && ' '}${coef}${varName(v)}`;
    if (line.length + term.length + 1 > LP_LINE) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${term}`;
  });
  lines.push(line);
  return lines;
}

/** The model in CPLEX LP format. */
export function toLpText(model: MilpModel, options: ModelTextOptions = {}): string {
  const continuous = continuousSet(model);
  const objective: [number, number][] = [];
  model.cost.forEach((c, j) => {
    if (c !== 0) objective.push([j, c]);
  });
  const out: string[] = [
    ...(options.comments ?? []).map((c) => `\\ ${c}`),
    'Minimize',
    ...lpSum(objective, ' obj:'),
  ];
  out.push('Subject To');
  model.rows.forEach((row, i) => {
    const sum = terms(row);
    const name = rowName(i);
    const hasLower = row.lower > -Infinity;
    const hasUpper = row.upper < Infinity;
    if (hasLower && hasUpper && row.lower === row.upper)
      out.push(...withRhs(lpSum(sum, ` ${name}:`), `= ${num(row.lower)}`));
    else if (hasLower && hasUpper) {
      out.push(...withRhs(lpSum(sum, ` ${name}_lo:`), `>= ${num(row.lower)}`));
      out.push(...withRhs(lpSum(sum, ` ${name}_hi:`), `<= ${num(row.upper)}`));
    } else if (hasLower) out.push(...withRhs(lpSum(sum, ` ${name}:`), `>= ${num(row.lower)}`));
    else if (hasUpper) out.push(...withRhs(lpSum(sum, ` ${name}:`), `<= ${num(row.upper)}`));
  });
  const bounded = [...continuous].sort((a, b) => a - b);
  if (bounded.length > 0) out.push('Bounds', ...bounded.map((j) => ` 0 <= ${varName(j)} <= 1`));
  const binaries = Array.from({ length: model.numVars }, (_, j) => j).filter((j) => !continuous.has(j));
  if (binaries.length > 0) {
    out.push('Binary');
    for (let k = 0; k < binaries.length; k += 12)
      out.push(
        ` ${binaries
          .slice(k, k + 12)
          .map(varName)
          .join(' ')}`,
      );
  }
  out.push('End');
  return `${out.join('\n')}\n`;
}

function withRhs(lines: string[], rhs: string): string[] {
  const last = lines.length - 1;
  return lines.map((line, k) => (k === last ? `${line} ${rhs}` : line));
}

/** The model in free MPS format (names hold no spaces, so free and fixed readers agree on fields). */
export function toMpsText(model: MilpModel, options: ModelTextOptions = {}): string {
  const continuous = continuousSet(model);
  const rows = model.rows
    .map((row, i) => ({ row, i, lower: row.lower > -Infinity, upper: row.upper < Infinity }))
    .filter((r) => r.lower || r.upper);
  const type = (r: (typeof rows)[number]) =>
    r.lower && r.upper ? (r.row.lower === r.row.upper ? 'E' : 'G') : r.lower ? 'G' : 'L';
  const columns: [string, number][][] = Array.from({ length: model.numVars }, () => []);
  model.cost.forEach((c, j) => {
    if (c !== 0) columns[j].push(['obj', c]);
  });
  for (const r of rows) for (const [v, c] of terms(r.row)) columns[v].push([rowName(r.i), c]);
  const name = (options.name ?? 'refract').replace(/[^A-Za-z0-9_-]/g, '_') || 'refract';
  const out = [
    ...(options.comments ?? []).map((c) => `* ${c}`),
    `NAME ${name}`,
    'ROWS',
    ' N obj',
    ...rows.map((r) => ` ${type(r)} ${rowName(r.i)}`),
    'COLUMNS',
  ];
  let marker = 0;
  let inInteger = false;
  for (let j = 0; j < model.numVars; j++) {
    const integer = !continuous.has(j);
    if (integer !== inInteger) {
      out.push(`    M${marker++} 'MARKER' '${integer ? 'INTORG' : 'INTEND'}'`);
      inInteger = integer;
    }
    // A column must appear to exist: one without entries is written with a zero objective.
    const entries = columns[j].length ? columns[j] : [['obj', 0] as [string, number]];
    for (const [row, c] of entries) out.push(`    ${varName(j)} ${row} ${num(c)}`);
  }
  if (inInteger) out.push(`    M${marker} 'MARKER' 'INTEND'`);
  out.push('RHS');
  for (const r of rows) {
    const rhs = r.lower ? r.row.lower : r.row.upper;
    if (rhs !== 0) out.push(`    RHS ${rowName(r.i)} ${num(rhs)}`);
  }
  const ranged = rows.filter((r) => type(r) === 'G' && r.upper);
  if (ranged.length > 0) {
    out.push('RANGES');
    for (const r of ranged) out.push(`    RNG ${rowName(r.i)} ${num(r.row.upper - r.row.lower)}`);
  }
  out.push('BOUNDS');
  for (let j = 0; j < model.numVars; j++)
    out.push(continuous.has(j) ? ` UP BND ${varName(j)} 1` : ` BV BND ${varName(j)}`);
  out.push('ENDATA');
  return `${out.join('\n')}\n`;
}

/** The model as text in `format`. */
export function modelText(model: MilpModel, format: ModelFormat, options: ModelTextOptions = {}): string {
  return format === 'lp' ? toLpText(model, options) : toMpsText(model, options);
}
