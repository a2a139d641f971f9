/**
 * The solver comparison page and plot: every model (from records, and the synthetic family up to 10⁴
 * variables) through every chosen backend, repeated; medians with their spread per source and per size
 * bucket, the crossover where HiGHS overtakes lp-solver, objective agreement with HiGHS, and failures.
 */
import type { PlotSpec } from '../../src/batch/plot.ts';
import type { SolverName } from '../../src/model/constants.ts';
import { REFERENCE_MS, type BenchContext } from './context.ts';
import {
  bucketLabel,
  buckets,
  crossover,
  modelMs,
  type Bucket,
  type Crossover,
  type Spread,
} from './crossover.ts';
import { chartSpec } from './figures.ts';
import { ms, pageHeader, table } from './markdown.ts';
import { quantile } from './stats.ts';
import { disagreements } from './solver-study.ts';
import type { SolverStudy } from './solver-run.ts';

/** `1.24 (0.68–6.53)`; a time-out (no time) shows as `>20 s`, and `2✗` counts the unsolved models. */
function spreadText(s: Spread | undefined, limit: number): string {
  if (!s) return '–';
  const t = (x: number) => (Number.isFinite(x) ? ms(x) : `>${limit} s`);
  return `${t(s.median)} (${t(s.p25)}–${t(s.p75)})${s.solved < s.given ? ` ${s.given - s.solved}✗` : ''}`;
}

function summary(study: SolverStudy): string {
  const sources = [...new Set(study.cases.map((c) => c.source))];
  const rows = sources.flatMap((source) =>
    study.solvers.map((s) => {
      const cs = study.cases.filter((c) => c.source === source);
      const given = cs.filter((c) => c.results[s]);
      const times = given.map((c) => modelMs(c, s)!);
      const solved = times.filter(Number.isFinite);
      const vars = cs.map((c) => c.vars);
      return [
        source,
        s,
        `${Math.min(...vars)}–${Math.max(...vars)}`,
        given.length,
        solved.length,
        given.length - solved.length,
        cs.length - given.length,
        spreadText(given.length ? spreadOf(times) : undefined, study.timeLimit),
        ms(quantile(solved, 0.99)),
        (solved.reduce((a, b) => a + b, 0) / 1000).toFixed(2),
      ];
    }),
  );
  return table(
    [
      'models',
      'solver',
      'vars',
      'given',
      'optimal',
      'failed',
      'skipped',
      'median ms (p25–p75)',
      'p99 ms',
      'total s',
    ],
    rows,
  );
}

function spreadOf(times: readonly number[]): Spread {
  const solved = times.filter(Number.isFinite).length;
  return {
    median: quantile(times, 0.5),
    p25: quantile(times, 0.25),
    p75: quantile(times, 0.75),
    solved,
    given: times.length,
  };
}

function bucketTable(list: readonly Bucket[], solvers: readonly SolverName[], limit: number): string {
  const ratio = (b: Bucket) =>
    Number.isNaN(b.ratio) ? '–' : Number.isFinite(b.ratio) ? `${b.ratio.toFixed(2)}×` : '∞';
  return table(
    ['vars', 'models', 'median vars', ...solvers.map((s) => `${s} ms`), 'lp-solver ÷ HiGHS'],
    list.map((b) => [
      bucketLabel(b),
      b.models,
      b.medianVars,
      ...solvers.map((s) => spreadText(b.solvers[s], limit)),
      ratio(b),
    ]),
  );
}

export function crossoverText(x: Crossover | null, solvers: readonly SolverName[]): string {
  if (!solvers.includes('highs') || !solvers.includes('lp-solver'))
    return 'The crossover needs both `highs` and `lp-solver` in `--solvers`.';
  if (!x) return 'HiGHS does not overtake lp-solver on any size measured here.';
  const below = x.below
    ? `lp-solver is faster up to the ${bucketLabel(x.below)} bucket (it takes ${x.below.ratio.toFixed(2)}× HiGHS's time there)`
    : 'HiGHS is faster in every bucket';
  const above = Number.isFinite(x.above.ratio) ? `${x.above.ratio.toFixed(2)}×` : 'more than the time limit';
  return (
    `**Crossover: HiGHS overtakes lp-solver at about ${Math.round(x.vars)} variables.** ${below}; from the ` +
    `${bucketLabel(x.above)} bucket on, lp-solver takes ${above} HiGHS's time, and more in every larger bucket.`
  );
}

function failureLines(study: SolverStudy): string[] {
  return study.solvers.flatMap((s) => {
    const reasons = new Map<string, number>();
    for (const c of study.cases) {
      const r = c.results[s];
      if (!r || r.status === 'optimal') continue;
      const reason = r.reason ? `${r.status}: ${r.reason.replace(/\d+(\.\d+)?/g, 'N')}` : r.status;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    return [...reasons].map(([reason, n]) => `- ${s}: ${n} × ${reason}`);
  });
}

function intro(study: SolverStudy): string[] {
  const times = study.repeat === 1 ? 'once' : `${study.repeat} times`;
  return [
    `Models: ${study.sources.join(', ')}, compiled as a repair compiles them (\`compileFor\`).`,
    ...(study.familyMaxVars > 0
      ? [
          `Plus the synthetic family up to ${study.familyMaxVars.toLocaleString('en-US')} variables`,
          '(`research/bench/solver-family.ts`): plans of 4–320 calls with one mistake per 10 calls, repaired',
          'against the executable catalog cloned to 25 APIs per call, with 5 random mappings per call.',
        ]
      : []),
    `Each backend (${study.solvers.join(', ')}; lp-solver without the product's 400-variable cap) solves`,
    `every model ${times} with a ${study.timeLimit} s limit, after 20 warm-up solves; the backends take`,
    'turns on each model. A model’s time is the median of its repeats (the solve call alone: no compile,',
    'decode or validation); spreads are the 25th–75th percentiles over the models. A backend that fails',
    'or runs out of time on two models is given no larger one (`skipped`); `N✗` counts unsolved models.',
  ];
}

export function solversPage(ctx: BenchContext, study: SolverStudy): string {
  const list = buckets(study.cases, study.solvers);
  const bad = disagreements(study.cases);
  const failures = failureLines(study);
  return [
    pageHeader('Solver comparison', ctx.machine, ctx.command),
    ...intro(study),
    '',
    summary(study),
    '',
    '## Time by model size',
    '',
    bucketTable(list, study.solvers, study.timeLimit),
    '',
    crossoverText(crossover(list), study.solvers),
    '',
    '![solve time against model size](solvers.svg)',
    '',
    '## Objective disagreements (beyond 1e-4 relative, against HiGHS)',
    '',
    bad.length === 0
      ? 'None: every optimal objective agrees with HiGHS within 1e-4 relative.'
      : table(
          ['model', 'vars', 'solver', 'objective', 'HiGHS objective'],
          bad.map((d) => [d.id, d.vars, d.solver, String(d.objective), String(d.reference)]),
        ),
    '',
    '## Failures',
    '',
    failures.length === 0 ? 'None.' : failures.join('\n'),
    '',
  ].join('\n');
}

const PAIRED: Readonly<Record<SolverName, readonly [string, string]>> = {
  highs: ['#1f77b4', '#aec7e8'],
  'lp-solver': ['#d62728', '#ff9896'],
  portfolio: ['#2ca02c', '#98df8a'],
};

export function solversPlot(study: SolverStudy): PlotSpec {
  const list = buckets(study.cases, study.solvers);
  const x = crossover(list);
  return chartSpec({
    title: 'Solve time against model size',
    xLabel: 'model variables (log scale)',
    yLabel: 'solve time, ms (log scale)',
    xLog: true,
    yLog: true,
    lines: [{ y: REFERENCE_MS, label: 'reference tool: 0.678 s per instance' }],
    xLines: x ? [{ x: x.vars, label: `crossover ≈ ${Math.round(x.vars)} vars` }] : [],
    // One hue per solver: dark for the bucket medians, light for the models.
    colours: study.solvers.flatMap((s) => PAIRED[s]),
    series: study.solvers.flatMap((s) => [
      {
        name: `${s} (bucket median, p25–p75)`,
        style: 'both' as const,
        points: list.flatMap((b) => {
          const sp = b.solvers[s];
          return sp && Number.isFinite(sp.median)
            ? [
                {
                  x: b.medianVars,
                  y: sp.median,
                  lo: sp.p25,
                  hi: Number.isFinite(sp.p75) ? sp.p75 : undefined,
                },
              ]
            : [];
        }),
      },
      {
        name: `${s} (each model)`,
        points: study.cases.flatMap((c) => {
          const t = modelMs(c, s);
          return t !== undefined && Number.isFinite(t) ? [[c.vars, t] as const] : [];
        }),
      },
    ]),
  });
}
