/**
 * Tables of the large-catalog benchmark: per world and recipe, one row per kind with restored modulo
 * unknowns on the shipped catalog and on the world's, then the other measures on the world's, stranger
 * calls and unsupported wirings; and the section of the restoration page that holds them, spliced in
 * place between two markers when only the large worlds were measured.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { asksPerRepair } from '../../src/score/index.ts';
import { ms, num, pct, table } from './markdown.ts';
import { REPEAT_EVERY, type LargeRow, type LargeSummary, type LargeWorldSummary } from './large-run.ts';
import type { LargeRecipe } from './worlds/large.ts';

export const LARGE_BEGIN = '<!-- large-worlds:begin -->';
export const LARGE_END = '<!-- large-worlds:end -->';

const RECIPE_TITLES: Readonly<Record<LargeRecipe, string>> = {
  first: 'first recipe (shipped records)',
  second: 'second recipe (shipped records)',
  flat: 'flat plans',
};

const name = (r: LargeRow) => (r.kind === 'overall' ? '**overall**' : r.kind);

export function largeTable(rows: readonly LargeRow[]): string {
  const withSmall = rows.some((r) => r.small);
  return table(
    [
      'mistake',
      'n',
      ...(withSmall ? ['small: mod unknowns'] : []),
      'mod unknowns',
      'restored mod asks',
      'role collapse',
      'asks / repair',
      'strangers',
      'of them, lost call a stranger',
      'unsupported',
      'of them, gold unsupported too',
      'lost calls',
      'blind pick',
      'median ms',
    ],
    rows.map((r) => [
      name(r),
      r.n,
      ...(withSmall ? [r.small ? pct(r.small.restoredModuloUnknowns, r.small.n) : '–'] : []),
      pct(r.score.restoredModuloUnknowns, r.n),
      pct(r.score.restoredModuloAsks, r.n),
      String(r.score.roleCollapse),
      num(asksPerRepair(r.score)),
      pct(r.strangers, r.n),
      String(r.strangersOfStrangeGold),
      String(r.unsupported),
      String(r.unsupportedOfUnsupportedGold),
      String(r.lostCalls),
      pct(r.blindPick, r.lostCalls),
      ms(r.medianMs),
    ]),
  );
}

function worldLines(w: LargeWorldSummary): string[] {
  const out = [
    `### ${w.world}: ${w.apis} APIs, ${w.measured} of ${w.records} records`,
    '',
    `Repair time p50 ${ms(w.p50Ms)} ms, p90 ${ms(w.p90Ms)} ms, p99 ${ms(w.p99Ms)} ms (in-process, after a first repair ` +
      `built the catalog's index; a parameter name's computed mappings are worked out on its first use). ` +
      `Again over every ${REPEAT_EVERY}th of those records (${w.again.n}), every name's mappings cached: ` +
      `p50 ${ms(w.again.p50Ms)} ms, p90 ${ms(w.again.p90Ms)} ms, p99 ${ms(w.again.p99Ms)} ms.`,
    '',
  ];
  for (const [recipe, rows] of Object.entries(w.recipes) as [LargeRecipe, LargeRow[]][]) {
    out.push(`${RECIPE_TITLES[recipe]}:`, '', largeTable(rows), '');
  }
  if (w.examples.length > 0) {
    out.push('Stranger calls and unsupported wirings (first few):', '');
    for (const e of w.examples) out.push(`- \`${e}\``);
    out.push('');
  }
  return out;
}

/** The whole report: a line on what was run, then each world. */
export function largeReport(summary: LargeSummary): string {
  return [
    `Large-catalog worlds, cost model \`${summary.model}\`, ${summary.every === 1 ? 'every record' : `every ${summary.every}th record per recipe and kind`}, ${summary.solver}.`,
    '',
    ...summary.worlds.flatMap(worldLines),
  ].join('\n');
}

/** The restoration page's section on the large worlds, between its markers. */
export function largeSection(summary: LargeSummary, command: string, alone = true): string {
  return [
    LARGE_BEGIN,
    '## Large catalogs',
    '',
    `Measured ${summary.date} with \`${command}\`${alone ? ' (this section alone; the rest of the page is from its own run)' : ''}.`,
    'Worlds: the union of every shipped catalog plus seeded distractor APIs that reuse',
    'the common field and parameter names (`research/bench/worlds/large.ts`, `docs/benchmarks.md`).',
    '**small: mod unknowns** is the same records repaired against the shipped catalog they come from.',
    '**strangers**: repairs with a call the repair inserted or restored of an API sharing no content word',
    'with the plan nor with the parameters it feeds (and not in the gold). **of them, lost call a stranger**:',
    'those where a call the gold adds to the input is one too (a lost call of a flat plan that only the answer',
    'reads: any of the APIs that output the field could have been it). **unsupported**: wirings the repair',
    'made (not in the input or the gold) to an output with no name, description or type evidence',
    '(`src/score/strangers.ts`). **of them, gold unsupported too**: those in repairs whose gold, judged as a',
    'repair of the input, makes such a wiring itself (`text` from `lyrics`: names alone cannot support it).',
    '**lost calls**: records whose gold adds a call to the input. **blind pick**: of those, the expected share',
    'whose lost API a pick at random among its stand-ins names (the APIs that output every field the gold',
    'reads from it; `src/score/blind-pick.ts`): what the field names alone can tell. In a flat plan, whose lost',
    'call is an unrelated request only the answer reads, nothing else in the input tells the stand-ins apart.',
    '',
    largeReport(summary),
    LARGE_END,
  ].join('\n');
}

/** Replaces (or appends) the large-world section of a page file. */
export function spliceLargeSection(path: string, section: string): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const begin = text.indexOf(LARGE_BEGIN);
  const end = text.indexOf(LARGE_END);
  const next =
    begin >= 0 && end > begin
      ? text.slice(0, begin) + section + text.slice(end + LARGE_END.length)
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, next);
}
