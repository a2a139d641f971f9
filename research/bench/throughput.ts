/**
 * Throughput of `refract batch` and start-up times, this build side by side with an earlier one on the same
 * inputs, in one run: every command runs in its own process (start-up included, as a user runs it), the
 * builds alternate, and each measurement is repeated so that the page can give medians and the spread (the
 * machine is shared). Inputs: the corrupted NESTFUL executable records repeated to 4,000 (fresh ids), the
 * valid gold sequences repeated to 20,000, and a mixed set (one corrupted record in 1,000) for memory.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context.ts';
import { loadCorrupted, loadGoldSet, NESTFUL_DIR, writeRecordsFile } from './data.ts';
import {
  commitBuild,
  currentBuild,
  runBuild,
  scratch,
  waitForQuiet,
  workerReadyMs,
  type Build,
  type RunResult,
} from './builds.ts';

/** The build before the compiled package: TypeScript run through tsx, one record per worker message. */
export const BASELINE_COMMIT = 'e692d8e';

const CATALOG = join(NESTFUL_DIR, 'executable-spec.json');

/**
 * What a batch run gives its workers, for `--catalog CATALOG` and every other option at its default: this
 * build's request, and the flags of builds from before the request vocabulary (e692d8e).
 */
const WORKER_SETUP = {
  request: { catalogPath: CATALOG },
  flags: {
    catalog: CATALOG,
    costModel: 'default',
    solver: 'highs',
    insert: true,
    types: 'warn',
    resultName: 'var_result',
  },
  stepByStep: false,
};

export interface Timing {
  /** Wall times of the repeats, in ms (spawn to exit). */
  readonly ms: readonly number[];
  /** CPU times of the repeats (every thread), in ms. */
  readonly cpuMs: readonly number[];
  readonly rssMiB: number;
  /** Digest of the repairs the output holds (equal digests: the same repair for every record). */
  readonly digest: string;
}

export interface BatchCase {
  readonly name: string;
  /** `long`: the corrupted records five times over, where warm-up is a smaller share of the run. */
  readonly input: 'corrupted' | 'long' | 'valid';
  readonly records: number;
  readonly solver: string;
  readonly workers: number;
  /** By build label (`previous`, `this`). */
  readonly timings: Readonly<Record<string, Timing>>;
}

export interface MemoryCase {
  readonly build: string;
  readonly records: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssMiB: number;
}

export interface StartupCase {
  readonly name: string;
  /** Repeats in ms, by build label. */
  readonly ms: Readonly<Record<string, readonly number[]>>;
}

export interface ThroughputResults {
  readonly builds: readonly Build[];
  readonly repeats: number;
  readonly batch: readonly BatchCase[];
  readonly memory: readonly MemoryCase[];
  readonly startup: readonly StartupCase[];
  /** Load averages (1 min) when the run started and ended. */
  readonly load: readonly [number, number];
  /** Records of the corrupted input whose repair differs between HiGHS and the portfolio (equal cost). */
  readonly portfolioDiffers: number;
  /** Batch runs (memory runs included), and those that started on a busy machine after waiting. */
  readonly quiet: { readonly runs: number; readonly busy: number };
}

/**
 * The repair of each record: what it decided and the sequence it returned, at what cost. The rest of a
 * result line (how edits and issues are rendered, timings) may change between builds without the repair
 * changing.
 */
const REPAIR_FIELDS = ['id', 'determination', 'status', 'sequence', 'cost', 'optimal'] as const;

function repairOf(line: string): string {
  const value = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(REPAIR_FIELDS.map((key) => value[key]));
}

/** The output's repairs, hashed. */
function digest(path: string): string {
  const hash = createHash('sha256');
  for (const line of readFileSync(path, 'utf8').split('\n'))
    if (line.trim() !== '') hash.update(repairOf(line));
  return hash.digest('hex').slice(0, 16);
}

/** Records whose repair differs between two outputs of the same input. */
function differingLines(a: string, b: string): number {
  const left = readFileSync(a, 'utf8').trim().split('\n');
  const right = readFileSync(b, 'utf8').trim().split('\n');
  return left.filter((line, i) => repairOf(line) !== repairOf(right[i] ?? '{}')).length;
}

function succeeded(what: string, result: RunResult): RunResult {
  // Exit 1 is "some records repaired"; anything else is a failure of the run.
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`${what}: exit ${result.status}: ${result.stderr}`);
  return result;
}

export async function measureThroughput(
  ctx: BenchContext,
  baseline = BASELINE_COMMIT,
): Promise<ThroughputResults> {
  const load0 = loadavg()[0];
  const space = scratch();
  try {
    const { dir } = space;
    ctx.log(`throughput: building this checkout and ${baseline}`);
    const builds = [commitBuild(baseline), currentBuild()];
    const repeats = ctx.quick ? 1 : 3;
    const corrupted = loadCorrupted('executable').map((r) => r.sequence);
    const valid = loadGoldSet('executable').gold.map((g) => g.steps);
    const inputs = {
      corrupted: { path: join(dir, 'corrupted.jsonl'), records: ctx.quick ? 1_000 : 4_000 },
      long: { path: join(dir, 'long.jsonl'), records: ctx.quick ? 5_000 : 20_000 },
      valid: { path: join(dir, 'valid.jsonl'), records: ctx.quick ? 5_000 : 20_000 },
    };
    await writeRecordsFile(inputs.corrupted.path, inputs.corrupted.records, corrupted);
    await writeRecordsFile(inputs.long.path, inputs.long.records, corrupted);
    await writeRecordsFile(inputs.valid.path, inputs.valid.records, valid);

    const plans: Omit<BatchCase, 'timings' | 'records'>[] = [
      {
        name: 'corrupted, portfolio (default), 2 workers',
        input: 'corrupted',
        solver: 'portfolio',
        workers: 2,
      },
      {
        name: 'corrupted, portfolio (default), 1 worker',
        input: 'corrupted',
        solver: 'portfolio',
        workers: 1,
      },
      { name: 'corrupted, HiGHS, 2 workers', input: 'corrupted', solver: 'highs', workers: 2 },
      { name: 'corrupted, HiGHS, 1 worker', input: 'corrupted', solver: 'highs', workers: 1 },
      { name: 'corrupted ×5, portfolio, 2 workers', input: 'long', solver: 'portfolio', workers: 2 },
      { name: 'corrupted ×5, portfolio, 1 worker', input: 'long', solver: 'portfolio', workers: 1 },
      { name: 'valid, 2 workers', input: 'valid', solver: 'portfolio', workers: 2 },
    ];
    const times = plans.map(() => new Map<string, number[]>());
    const cpu = plans.map(() => new Map<string, number[]>());
    const last = plans.map(() => new Map<string, RunResult & { out: string }>());
    const quiet = { runs: 0, busy: 0 };
    /** Each batch run starts once other people's work has left the machine (or after 30 s of waiting). */
    const runQuiet = (build: Build, args: readonly string[]): RunResult => {
      quiet.runs++;
      if (!waitForQuiet()) quiet.busy++;
      return runBuild(build, args, dir);
    };
    for (let rep = 0; rep < repeats; rep++) {
      plans.forEach((plan, k) => {
        for (const build of rep % 2 === 0 ? builds : [...builds].reverse()) {
          const out = join(dir, `out-${k}-${build.label}.jsonl`);
          const args = [
            'batch',
            '--catalog',
            CATALOG,
            '--solver',
            plan.solver,
            '--workers',
            String(plan.workers),
            '-q',
            '-o',
            out,
            inputs[plan.input].path,
          ];
          // Removed first: a batch refuses to replace a non-empty --out, and an earlier build has no --overwrite.
          rmSync(out, { force: true });
          const result = succeeded(`${build.label}: ${plan.name}`, runQuiet(build, args));
          times[k].set(build.label, [...(times[k].get(build.label) ?? []), result.ms]);
          cpu[k].set(build.label, [...(cpu[k].get(build.label) ?? []), result.cpuMs]);
          last[k].set(build.label, { ...result, out });
          ctx.log(`throughput: ${build.label} ${plan.name}: ${(result.ms / 1000).toFixed(2)} s`);
        }
      });
    }
    const batch: BatchCase[] = plans.map((plan, k) => ({
      ...plan,
      records: inputs[plan.input].records,
      timings: Object.fromEntries(
        builds.map((b) => {
          const run = last[k].get(b.label)!;
          const timing: Timing = {
            ms: times[k].get(b.label)!,
            cpuMs: cpu[k].get(b.label)!,
            rssMiB: run.rssMiB,
            digest: digest(run.out),
          };
          return [b.label, timing];
        }),
      ),
    }));
    const portfolioDiffers = differingLines(last[0].get('this')!.out, last[2].get('this')!.out);

    const memory: MemoryCase[] = [];
    for (const records of ctx.quick ? [20_000] : [20_000, 200_000]) {
      const path = join(dir, `mixed-${records}.jsonl`);
      await writeRecordsFile(path, records, valid, 1_000, corrupted);
      for (const build of builds) {
        const args = [
          'batch',
          '--catalog',
          CATALOG,
          '--workers',
          '2',
          '-q',
          '-o',
          join(dir, 'mixed-out.jsonl'),
          path,
        ];
        rmSync(join(dir, 'mixed-out.jsonl'), { force: true });
        const result = succeeded(`${build.label}: memory`, runQuiet(build, args));
        memory.push({
          build: build.label,
          records,
          ms: result.ms,
          cpuMs: result.cpuMs,
          rssMiB: result.rssMiB,
        });
        ctx.log(
          `throughput: ${build.label} ${records} mixed records: ${(result.ms / 1000).toFixed(1)} s, ${result.rssMiB.toFixed(0)} MiB`,
        );
      }
    }

    const startup = measureStartup(builds, ctx.quick ? 3 : 10, dir);
    return {
      builds,
      repeats,
      batch,
      memory,
      startup,
      load: [load0, loadavg()[0]],
      portfolioDiffers,
      quiet,
    };
  } finally {
    space.remove();
  }
}

function measureStartup(builds: readonly Build[], repeats: number, dir: string): StartupCase[] {
  const sample = join(builds[1].root, 'samples', 'broken-flight.txt');
  const cases: { name: string; run: (b: Build) => number[] }[] = [
    { name: '`refract --version`', run: (b) => repeat(repeats, () => runBuild(b, ['--version'], dir).ms) },
    {
      name: 'one-record `refract fix` (a repair: HiGHS loaded and solving)',
      run: (b) => repeat(repeats, () => runBuild(b, ['fix', '--catalog', CATALOG, sample], dir).ms),
    },
    {
      name: 'batch worker: created to ready',
      run: (b) => workerReadyMs(b, WORKER_SETUP, repeats, dir),
    },
  ];
  return cases.map((c) => ({ name: c.name, ms: Object.fromEntries(builds.map((b) => [b.label, c.run(b)])) }));
}

function repeat(times: number, fn: () => number): number[] {
  return Array.from({ length: times }, fn);
}
