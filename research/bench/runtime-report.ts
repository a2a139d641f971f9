/**
 * The runtime world on the restoration page: every benchmark record that has a runtime form
 * (runtime-data.ts) is repaired twice, as planned (its producers calls of the plan) and part-way through
 * (its producers executed, their results in memory), and both repairs are judged against their golds by
 * `src/score`. Per mistake kind and per source set: restored modulo unknowns, modulo asks, role collapse
 * and asks per repair, planned against runtime, so the table says what a memory item costs a repair.
 */
import type { SolverName } from '../../src/model/constants.ts';
import { repair } from '../../src/repair/repair.ts';
import { scoreRepair, type RepairVerdict } from '../../src/score/index.ts';
import type { LabelledRecord } from '../tuning/dataset.ts';
import { kindGroup } from './evaluate.ts';
import { num, pct, table } from './markdown.ts';
import { benchmarkRecords } from './records.ts';
import { runtimeRecord } from './runtime-data.ts';

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
  readonly runtime: Tally;
}

interface Tally {
  readonly unknowns: number;
  readonly asksToo: number;
  readonly roleCollapses: number;
  readonly asks: number;
}

async function verdict(record: LabelledRecord, solver: SolverName): Promise<RepairVerdict> {
  const result = await repair(record.sequence, record.catalog, { ...record.options, solver });
  const answered = result.status !== 'timeout' && result.status !== 'error';
  return scoreRepair({
    input: record.sequence,
    gold: record.gold,
    repaired: answered ? result.sequence : null,
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
  const pairs = benchmarkRecords()
    .flatMap((r) => {
      const made = runtimeRecord(r);
      return made ? [{ planned: r, runtime: made }] : [];
    })
    .filter((_, i) => i % options.every === 0);
  const judged: { kind: string; set: string; planned: RepairVerdict; runtime: RepairVerdict }[] = [];
  for (const { planned, runtime } of pairs) {
    judged.push({
      kind: kindGroup(planned.kind),
      set: planned.set,
      planned: await verdict(planned, options.solver),
      runtime: await verdict(runtime, options.solver),
    });
  }
  options.log?.(`runtime world: ${pairs.length} records`);
  const rows = (key: (j: (typeof judged)[number]) => string): RuntimeRow[] => {
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
        runtime: tally(group.map((j) => j.runtime)),
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
      'runtime: mod unknowns',
      'runtime: mod asks',
      'runtime: role collapse',
      'runtime: asks / repair',
    ],
    rows.map((r) => [
      r.name === 'overall' ? '**overall**' : r.name,
      r.n,
      pct(r.planned.unknowns, r.n),
      pct(r.runtime.unknowns, r.n),
      pct(r.runtime.asksToo, r.n),
      pct(r.runtime.roleCollapses, r.n),
      num(r.n === 0 ? 0 : r.runtime.asks / r.n),
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
    "catalog's declared outputs), and the sequence and gold are the steps left. Each record is repaired as planned",
    `(its producers planned calls) and part-way through, with ${summary.solver}, and judged by \`src/score\`.`,
    '',
    runtimeTable(summary.byKind, 'mistake'),
    '',
    'Per source set:',
    '',
    runtimeTable(summary.bySet, 'set'),
    '',
  ].join('\n');
}
