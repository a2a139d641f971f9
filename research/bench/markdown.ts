/** Markdown helpers for the result pages: tables, number formats, and the machine header every page has. */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

const NUMERIC = /^(-?[\d.]+(e-?\d+)?[%×]?|–)$/;

/** Display width as Markdown formatters count it (our pages hold no wide characters). */
function width(text: string): number {
  return [...text].length;
}

/**
 * A Markdown table with padded, aligned columns (numeric columns right-aligned), laid out the way
 * Prettier writes tables, so the pages pass `prettier --check`.
 */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) => row.map(String));
  const right = headers.map((_, i) => cells.length > 0 && cells.every((row) => NUMERIC.test(row[i] ?? '')));
  const widths = headers.map((h, i) => Math.max(3, width(h), ...cells.map((row) => width(row[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const fill = ' '.repeat(widths[i] - width(text));
    return right[i] ? fill + text : text + fill;
  };
  const line = (row: readonly string[]) => `| ${row.map(pad).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? '-'.repeat(w - 1) + ':' : '-'.repeat(w))).join(' | ')} |`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

/** A share as a percentage with one decimal (`97.3%`); `–` for no data. */
export function pct(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Milliseconds with sensible precision. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return '–';
  if (x < 1) return x.toFixed(3);
  if (x < 100) return x.toFixed(2);
  return x.toFixed(0);
}

export function num(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

export interface Machine {
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly date: string;
  /** One-minute load average when the run started: the machine is shared, and timings move with it. */
  readonly load: number;
}

export function machine(now = new Date()): Machine {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    load: Math.round(loadavg()[0] * 10) / 10,
  };
}

/** The header block of a result page: title, machine and the command that regenerates it. */
export function pageHeader(
  title: string,
  m: Machine,
  command: string,
  timings = 'Timings are wall-clock, in-process, after warm-up; medians unless stated.',
): string {
  return [
    `# ${title}`,
    '',
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}; run ${m.date}, load average ${m.load}.`,
    `Regenerate: \`${command}\`. ${timings}`,
    '',
  ].join('\n');
}
