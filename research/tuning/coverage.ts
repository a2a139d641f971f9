/**
 * Candidate coverage: the share of labelled records whose gold the repair model can express at all. Each
 * record is solved constrained to its gold (`solvePoint({towardsGold})`, every link kept, dominated or not);
 * the record is covered when that point is the gold (restored modulo unknowns). A miss is a gold no weights
 * could reach: a candidate filter, a bound or an edit kind the model lacks, never a price.
 */
import type { CostModel } from '../../src/model/cost.ts';
import type { LabelledRecord } from './dataset.ts';
import type { EvalOptions } from './evaluate.ts';
import { solvePoint } from './gold-point.ts';
import { kindGroup } from '../bench/evaluate.ts';
import { MISS_REASONS, missReason, type Miss, type MissReason } from './coverage-reasons.ts';

export interface CoverageRow {
  readonly records: number;
  readonly covered: number;
}

export interface CoverageReport {
  readonly total: CoverageRow;
  /** Per set, then per mistake kind group. */
  readonly bySet: ReadonlyMap<string, CoverageRow>;
  readonly byKind: ReadonlyMap<string, CoverageRow>;
  /** The records not covered (ids, with their set and kind), each with what the model lacks (`missReason`). */
  readonly misses: readonly ({ id: string; set: string; kind: string } & Miss)[];
  /** How many misses each reason has, in `MISS_REASONS` order (the reasons with none left out). */
  readonly byReason: ReadonlyMap<MissReason, number>;
}

const add = (map: Map<string, { records: number; covered: number }>, key: string, covered: boolean) => {
  const row = map.get(key) ?? { records: 0, covered: 0 };
  row.records++;
  if (covered) row.covered++;
  map.set(key, row);
};

/** Measures candidate coverage over `records` under `cost` (prices order the gold's points, never hide them). */
export async function candidateCoverage(
  records: readonly LabelledRecord[],
  cost: CostModel,
  options: EvalOptions & { readonly log?: (line: string) => void } = {},
): Promise<CoverageReport> {
  const bySet = new Map<string, { records: number; covered: number }>();
  const byKind = new Map<string, { records: number; covered: number }>();
  const misses: ({ id: string; set: string; kind: string } & Miss)[] = [];
  let covered = 0;
  for (const [i, record] of records.entries()) {
    const point = await solvePoint(record, cost, { ...options, towardsGold: true });
    const ok = point?.restored === true;
    if (ok) covered++;
    else
      misses.push({
        id: record.id,
        set: record.set,
        kind: record.kind,
        ...missReason(record.gold, point?.sequence, point?.apis, record.catalog),
      });
    add(bySet, record.set, ok);
    add(byKind, kindGroup(record.kind), ok);
    if ((i + 1) % 500 === 0) options.log?.(`${i + 1}/${records.length} records, ${covered} covered`);
  }
  const byReason = new Map<MissReason, number>();
  for (const reason of MISS_REASONS) {
    const n = misses.filter((m) => m.reason === reason).length;
    if (n > 0) byReason.set(reason, n);
  }
  return { total: { records: records.length, covered }, bySet, byKind, misses, byReason };
}

const pct = (row: CoverageRow) => (row.records ? ((100 * row.covered) / row.records).toFixed(1) : '–');

/** The report as markdown: totals, per set, per kind, and the missed records' ids. */
export function coveragePage(report: CoverageReport, header: string): string {
  const table = (title: string, rows: ReadonlyMap<string, CoverageRow>) => [
    `| ${title} | records | covered | coverage % |`,
    '| --- | ---: | ---: | ---: |',
    ...[...rows].map(([k, r]) => `| ${k} | ${r.records} | ${r.covered} | ${pct(r)} |`),
  ];
  return [
    header,
    `Candidate coverage: **${pct(report.total)} %** (${report.total.covered} of ${report.total.records} records: ` +
      'the solve constrained to the gold restores it).',
    '',
    ...table('set', report.bySet),
    '',
    ...table('kind', report.byKind),
    '',
    'What the model lacks, read off the point closest to the gold (the first difference of each miss):',
    '',
    '| reason | records |',
    '| --- | ---: |',
    ...[...report.byReason].map(([reason, n]) => `| ${reason} | ${n} |`),
    '',
    `Not covered (${report.misses.length}):`,
    '',
    ...report.misses.map(
      (m) =>
        `- \`${m.id}\` (${m.set}, ${m.kind || 'no kind'}): ${m.reason}${m.detail ? ` \`${m.detail}\`` : ''}`,
    ),
    '',
  ].join('\n');
}
