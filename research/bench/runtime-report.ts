/**
 * The runtime world on the restoration page: every benchmark record that has a runtime form
 * (runtime-data.ts) is repaired three times, as planned (its producers calls of the plan) and part-way
 * through in both forms (continued; replanned under a tries limit), and each repair is judged against its
 * gold by `src/score`. Per mistake kind and per source set: restored modulo unknowns and modulo asks, role
 * collapse and asks per repair, planned against runtime, so the table says what a memory item costs a repair.
 */
import type { SolverName } from '../../src/model/constants.ts';
import { repair } from '../../src/repair/repair.ts';
import { scoreRepair, type RepairVerdict } from '../../src/score/index.ts';
import type { LabelledRecord } from '../tuning/dataset.ts';
import { kindGroup } from './evaluate.ts';
import { num, pct, table } from './markdown.ts';
import { benchmarkRecords } from './records.ts';
import { runtimeFormsOf } from './runtime-data.ts';

/** The runtime world's records are every `every`-th record with a runtime form. */
export interface RuntimeSummary {
  readonly every: number;
  readonly solver: SolverName;
  readonly byKind: readonly RuntimeRow[];
  readonly bySet: readonly RuntimeRow[];
}

export interface RuntimeRow {
  readonly name: string;
  readonly n: number;
  readonly planned: Tally;
  readonly continued: Tally;
  readonly replanned: Tally;
}

interface Tally {
  readonly unknowns: number;
  readonly asksToo: number;
  readonly roleCollapses: number;
  readonly asks: number;
}

interface Judged {
  readonly kind: string;
  readonly set: string;
  readonly planned: RepairVerdict;
  readonly continued: RepairVerdict;
  readonly replanned: RepairVerdict;
}

async function verdict(record: LabelledRecord, solver: SolverName): Promise<RepairVerdict> {
  const result = await repair(record.sequence, record.catalog, { ...record.options, solver });
  const answered = result.status !== 'timeout' && result.status !== 'error';
  return scoreRepair({
    input: record.sequence,
    gold: record.gold,
    repaired: answered ? result.sequence : null,
    executed: record.options?.executed,
  });
}

const tally = (vs: readonly RepairVerdict[]): Tally => ({
  unknowns: vs.filter((v) => v.restoredModuloUnknowns).length,
  asksToo: vs.filter((v) => v.restoredModuloAsks).length,
  roleCollapses: vs.filter((v) => v.roleCollapses > 0).length,
  asks: vs.reduce((s, v) => s + v.asks, 0),
});

export async function measureRuntime(options: {
  readonly every: number;
  readonly solver: SolverName;
  readonly log?: (line: string) => void;
}): Promise<RuntimeSummary> {
  const chosen = runtimeFormsOf(benchmarkRecords(), options.every);
  const judged: Judged[] = [];
  for (const { record, forms } of chosen) {
    judged.push({
      kind: kindGroup(record.kind),
      set: record.set,
      planned: await verdict(record, options.solver),
      continued: await verdict(forms.continued, options.solver),
      replanned: await verdict(forms.replanned, options.solver),
    });
  }
  options.log?.(`runtime world: ${chosen.length} records, each in two forms`);
  const rows = (key: (j: Judged) => string): RuntimeRow[] => {
    // Single mistakes by name, then records of several (`2 mistakes`), then all.
    const names = [...new Set(judged.map(key))].sort(
      (a, b) => Number(/^\d/.test(a)) - Number(/^\d/.test(b)) || (a < b ? -1 : 1),
    );
    return [...names, 'overall'].map((name) => {
      const group = judged.filter((j) => name === 'overall' || key(j) === name);
      return {
        name,
        n: group.length,
        planned: tally(group.map((j) => j.planned)),
        continued: tally(group.map((j) => j.continued)),
        replanned: tally(group.map((j) => j.replanned)),
      };
    });
  };
  return {
    every: options.every,
    solver: options.solver,
    byKind: rows((j) => j.kind),
    bySet: rows((j) => j.set),
  };
}

function runtimeTable(rows: readonly RuntimeRow[], first: string): string {
  return table(
    [
      first,
      'n',
      'planned: mod unknowns',
      'continued: mod unknowns',
      'continued: mod asks',
      'replanned: mod unknowns',
      'replanned: mod asks',
      'runtime: role collapse',
      'runtime: asks / repair',
    ],
    rows.map((r) => [
      r.name === 'overall' ? '**overall**' : r.name,
      r.n,
      pct(r.planned.unknowns, r.n),
      pct(r.continued.unknowns, r.n),
      pct(r.continued.asksToo, r.n),
      pct(r.replanned.unknowns, r.n),
      pct(r.replanned.asksToo, r.n),
      pct(r.continued.roleCollapses + r.replanned.roleCollapses, 2 * r.n),
      num(r.n === 0 ? 0 : (r.continued.asks + r.replanned.asks) / (2 * r.n)),
    ]),
  );
}

/** The restoration page's section on the runtime world. */
export function runtimeSection(summary: RuntimeSummary): string {
  const share = summary.every === 1 ? 'every record' : `every ${summary.every}th record`;
  return [
    '## Runtime world: memory and executed calls',
    '',
    `The benchmark's records part-way through (\`research/bench/runtime-data.ts\`), ${share} that has a runtime`,
    'form: the gold steps before the mistake have run (`executed`), memory holds their results (shaped by the',
    "catalog's declared outputs), and the gold is the steps left. Each record is repaired as planned (its",
    'producers planned calls), **continued** (the sequence is the steps left) and **replanned** (the whole',
    'sequence again, the calls that ran repeated, under `maxTries` 1: the repeats must go and their readers read',
    `memory), with ${summary.solver}, and judged by \`src/score\`; role collapse and asks per repair are over both`,
    'runtime forms.',
    '',
    runtimeTable(summary.byKind, 'mistake'),
    '',
    'Per source set:',
    '',
    runtimeTable(summary.bySet, 'set'),
    '',
  ].join('\n');
}
