/**
 * The big fuzz run: each target gets its inputs from a fixed seed, bounded by a time budget per target;
 * failures are grouped by message and the first failing input is shrunk.
 */
import fc from 'fast-check';
import { runOne, type Target } from './harness.ts';
import { targets } from './targets.ts';

export interface Report {
  target: string;
  inputs: number;
  results: number;
  inputErrors: number;
  failures: number;
  ms: number;
  kinds: Record<string, { count: number; example: string }>;
  shrunk?: string;
}

const describeError = (e: unknown) =>
  (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)).slice(0, 300);
const preview = (v: unknown) => {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = '(too deep to print)';
  }
  return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
};

export async function fuzzTarget(
  target: Target,
  runs: number,
  seed: number,
  budgetMs: number,
): Promise<Report> {
  const report: Report = {
    target: target.name,
    inputs: 0,
    results: 0,
    inputErrors: 0,
    failures: 0,
    ms: 0,
    kinds: {},
  };
  const start = performance.now();
  for (const input of fc.sample(target.arbitrary, { numRuns: runs, seed })) {
    if (performance.now() - start > budgetMs) break;
    report.inputs++;
    try {
      if ((await runOne(target, input)) === 'result') report.results++;
      else report.inputErrors++;
    } catch (error) {
      report.failures++;
      const kind = describeError(error).replace(/\d+/g, 'N').slice(0, 120);
      report.kinds[kind] ??= { count: 0, example: preview(input) };
      report.kinds[kind].count++;
    }
  }
  if (report.failures > 0) {
    const found = await fc.check(
      fc.asyncProperty(target.arbitrary, async (x) => void (await runOne(target, x))),
      {
        seed,
        numRuns: Math.min(runs, 500),
        // Shrinking re-runs the target many times: bound it, keeping the smallest input found so far.
        interruptAfterTimeLimit: 60_000,
      },
    );
    if (found.failed)
      report.shrunk = `${preview(found.counterexample?.[0])} -> ${describeError(found.errorInstance)}`;
  }
  report.ms = Math.round(performance.now() - start);
  return report;
}

const line = (r: Report) =>
  `${r.target.padEnd(22)} ${String(r.inputs).padStart(6)} inputs  ${String(r.results).padStart(6)} results  ${String(r.inputErrors).padStart(6)} InputErrors  ${String(r.failures).padStart(5)} failures  ${(r.ms / 1000).toFixed(1)} s`;

/** Runs the targets named by the command line; the exit code is 1 when any input failed. */
export async function main(args: string[]): Promise<void> {
  const flag = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const runs = flag('--runs', 6000);
  const solverRuns = flag('--solver-runs', 500);
  const seed = flag('--seed', 42);
  const budget = flag('--budget', 180) * 1000;
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
  const started = performance.now();
  const reports: Report[] = [];
  for (const target of targets()) {
    if (only && !only.includes(target.name)) continue;
    const report = await fuzzTarget(target, target.solver ? solverRuns : runs, seed, budget);
    reports.push(report);
    console.log(line(report));
    for (const [kind, { count, example }] of Object.entries(report.kinds))
      console.log(`    ${count} x ${kind}\n      e.g. ${example}`);
    if (report.shrunk) console.log(`    shrunk: ${report.shrunk}`);
  }
  const total = reports.reduce((n, r) => n + r.inputs, 0);
  const failures = reports.reduce((n, r) => n + r.failures, 0);
  console.log(
    `total: ${total} inputs, ${failures} failures, seed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exitCode = failures > 0 ? 1 : 0;
}
