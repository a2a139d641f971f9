/**
 * Solver comparison: the models compiled for the corrupted records go through every backend; time per
 * model, objective agreement with HiGHS, failures, and a plot of time against model size.
 */
import { compileFor } from '../../src/repair/repair.ts';
import { createSolver, objectivesAgree, type Solution, type SolverName } from '../../src/solvers/index.ts';
import type { MilpModel } from '../../src/model/milp.ts';
import { catalogOf, REFERENCE_MS, type BenchContext } from './context.ts';
import { ms, pageHeader, table } from './markdown.ts';
import { median, quantile, mean } from './stats.ts';
import { chartSpec } from './figures.ts';
import type { PlotSpec } from '../../src/batch/plot.ts';

export interface SolvedCase {
  readonly id: string;
  readonly vars: number;
  readonly rows: number;
  readonly results: ReadonlyMap<SolverName, { readonly solution: Solution; readonly ms: number }>;
}

export async function compareSolvers(ctx: BenchContext): Promise<SolvedCase[]> {
  const models: { id: string; model: MilpModel }[] = [];
  for (const set of ctx.sets) {
    for (const record of ctx.corrupted[set.name]) {
      models.push({ id: record.id, model: compileFor(record.sequence, catalogOf(ctx, set.name)).model });
    }
  }
  const results = models.map(() => new Map<SolverName, { solution: Solution; ms: number }>());
  for (const name of ctx.solvers) {
    const backend = createSolver(name);
    for (let i = 0; i < 20; i++) await backend.solve(models[i % models.length].model);
    for (let i = 0; i < models.length; i++) {
      const start = performance.now();
      const solution = await backend.solve(models[i].model);
      results[i].set(name, { solution, ms: performance.now() - start });
    }
    backend.dispose?.();
    ctx.log(`solvers ${name}: ${models.length} models`);
  }
  return models.map((m, i) => ({
    id: m.id,
    vars: m.model.numVars,
    rows: m.model.rows.length,
    results: results[i],
  }));
}

export interface Disagreement {
  readonly id: string;
  readonly vars: number;
  readonly solver: SolverName;
  readonly objective: number | undefined;
  readonly reference: number | undefined;
}

/** Optimal answers whose objective differs from HiGHS's optimal one beyond 1e-4 relative. */
export function disagreements(cases: readonly SolvedCase[]): Disagreement[] {
  const out: Disagreement[] = [];
  for (const c of cases) {
    const ref = c.results.get('highs')?.solution;
    if (!ref || ref.status !== 'optimal') continue;
    for (const [solver, { solution }] of c.results) {
      if (solver === 'highs' || solution.status !== 'optimal') continue;
      if (!objectivesAgree(ref, solution)) {
        out.push({ id: c.id, vars: c.vars, solver, objective: solution.objective, reference: ref.objective });
      }
    }
  }
  return out;
}

const BUCKETS: readonly [string, number, number][] = [
  ['≤ 50', 0, 50],
  ['51–100', 51, 100],
  ['101–200', 101, 200],
  ['201–400', 201, 400],
  ['> 400', 401, Infinity],
];

export function solversPage(ctx: BenchContext, cases: readonly SolvedCase[]): string {
  const times = (s: SolverName, cs = cases) =>
    cs.flatMap((c) => (c.results.has(s) ? [c.results.get(s)!.ms] : []));
  const failures = (s: SolverName) =>
    cases.filter((c) => c.results.get(s) && c.results.get(s)!.solution.status !== 'optimal');
  const summary = table(
    ['solver', 'models', 'optimal', 'failed', 'median ms', 'p99 ms', 'mean ms', 'total s'],
    ctx.solvers.map((s) => {
      const t = times(s);
      const failed = failures(s).length;
      return [
        s,
        t.length,
        t.length - failed,
        failed,
        ms(median(t)),
        ms(quantile(t, 0.99)),
        ms(mean(t)),
        (t.reduce((a, b) => a + b, 0) / 1000).toFixed(2),
      ];
    }),
  );
  const bySize = table(
    ['vars', 'models', ...ctx.solvers.map((s) => `${s} median ms`)],
    BUCKETS.flatMap(([label, lo, hi]) => {
      const cs = cases.filter((c) => c.vars >= lo && c.vars <= hi);
      return cs.length === 0 ? [] : [[label, cs.length, ...ctx.solvers.map((s) => ms(median(times(s, cs))))]];
    }),
  );
  const bad = disagreements(cases);
  const disagreeText =
    bad.length === 0
      ? 'None: every optimal objective agrees with HiGHS within 1e-4 relative.'
      : table(
          ['record', 'vars', 'solver', 'objective', 'HiGHS objective'],
          bad.map((d) => [d.id, d.vars, d.solver, String(d.objective), String(d.reference)]),
        );
  const failLines = ctx.solvers.flatMap((s) => {
    const reasons = new Map<string, number>();
    for (const c of failures(s)) {
      const sol = c.results.get(s)!.solution;
      const reason = `${sol.status}: ${(sol.reason ?? '').replace(/\d+/g, 'N')}`;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    return [...reasons].map(([reason, n]) => `- ${s}: ${n} × ${reason}`);
  });
  return [
    pageHeader('Solver comparison', ctx.machine, ctx.command),
    'The models `compileFor` builds for the corrupted records (all three sets) are solved by each backend',
    '(`createSolver(name).solve(model)`, one instance per backend, 20 warm-up solves). Time is the solve call',
    'alone (no compile, decode or validation).',
    '',
    summary,
    '',
    '## Median time by model size',
    '',
    bySize,
    '',
    '## Objective disagreements (beyond 1e-4 relative, against HiGHS)',
    '',
    disagreeText,
    '',
    '## Failures',
    '',
    failLines.length === 0 ? 'None.' : failLines.join('\n'),
    '',
    '![solve time against model size](solvers.svg)',
    '',
  ].join('\n');
}

export function solversPlot(ctx: BenchContext, cases: readonly SolvedCase[]): PlotSpec {
  return chartSpec({
    title: 'Solve time against model size (corrupted NESTFUL records)',
    xLabel: 'model variables',
    yLabel: 'solve time (ms, log scale)',
    yLog: true,
    lines: [{ y: REFERENCE_MS, label: 'reference tool: 0.678 s per instance' }],
    series: ctx.solvers.map((s) => ({
      name: s,
      points: cases.flatMap((c) => {
        const r = c.results.get(s);
        return r && r.solution.status === 'optimal' ? [[c.vars, r.ms] as const] : [];
      }),
    })),
  });
}
