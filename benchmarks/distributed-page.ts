/** The result page of the distributed-batch benchmark (`distributed.ts`): throughput, chunk size, recovery. */
import type { Machine } from '../research/bench/markdown.ts';

/** Wall time and CPU seconds (every thread of every process measured) of each phase of a run. */
export interface Phases {
  readonly submitMs: number;
  readonly workMs: number;
  readonly collectMs: number;
  readonly submitCpu: number;
  readonly workCpu: number;
  readonly collectCpu: number;
  /** Redis's CPU seconds over the whole run (submit to collect). */
  readonly redisCpu: number;
}

export interface Timed {
  readonly ms: number;
  readonly cpu: number;
}

export interface Measured {
  readonly records: number;
  readonly threads: number;
  readonly repeats: number;
  /** `refract batch` runs. */
  readonly single: Timed[];
  /** One `work` process with every thread; two processes sharing them. */
  readonly one: Phases[];
  readonly two: Phases[];
  readonly chunks: (Phases & { readonly chunk: number })[];
  readonly recovery: { lock: number; stall: number; recoveredMs: number; parts: number }[];
  /** One-minute load average before and after. */
  readonly load: number[];
  /** `refract batch` and one `work` process on `factor` times the records, in the same repeats. */
  readonly large: { factor: number; single: Timed[]; one: Phases[] };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const sec = (ms: number) => (ms / 1000).toFixed(1);
const rate = (records: number, ms: number) => Math.round(records / (ms / 1000)).toLocaleString('en-US');
const percent = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)} %`;
const range = (xs: readonly number[]) => `${sec(Math.min(...xs))}–${sec(Math.max(...xs))}`;

/**
 * Redis CPU per job without the run's fixed part (polling, stall checks): the slope between the runs with
 * the most and the fewest jobs.
 */
function redisPerJob(d: Measured): string[] {
  if (d.chunks.length < 2) return [];
  const jobs = (c: Measured['chunks'][number]) => Math.ceil(d.records / c.chunk);
  const most = d.chunks.reduce((a, b) => (jobs(b) > jobs(a) ? b : a));
  const fewest = d.chunks.reduce((a, b) => (jobs(b) < jobs(a) ? b : a));
  const slope = (most.redisCpu - fewest.redisCpu) / (jobs(most) - jobs(fewest));
  if (!(slope > 0)) return [];
  return [
    `Per job, without the fixed part (the slope between ${jobs(most)} and ${jobs(fewest)} jobs): ${(slope * 1000).toFixed(2)} ms of`,
    `Redis CPU, so at most about ${Math.round(1 / slope).toLocaleString('en-US')} jobs per second for a whole cluster on one Redis.`,
    '',
  ];
}

export function distributedPage(m: Machine, command: string, d: Measured): string {
  const singleMs = d.single.map((s) => s.ms);
  const singleCpu = d.single.map((s) => s.cpu);
  const single = median(singleMs);
  const work = (runs: readonly Phases[]) => runs.map((r) => r.workMs);
  const total = (runs: readonly Phases[]) => runs.map((r) => r.submitMs + r.workMs + r.collectMs);
  const workCpu = (runs: readonly Phases[]) => runs.map((r) => r.workCpu);
  const totalCpu = (runs: readonly Phases[]) => runs.map((r) => r.submitCpu + r.workCpu + r.collectCpu);
  // Each run against the `refract batch` run of the same repeat (adjacent in time): the median of these
  // ratios resists the load drifting over the benchmark better than a ratio of medians.
  const paired = (xs: readonly number[], base: readonly number[]) => median(xs.map((x, r) => x / base[r]));
  const row = (name: string, runs: readonly Phases[]) => {
    const w = median(work(runs));
    const cells = [
      name,
      rate(d.records, w),
      `${sec(w)} (${range(work(runs))})`,
      percent(paired(work(runs), singleMs)),
      median(workCpu(runs)).toFixed(1),
      percent(paired(workCpu(runs), singleCpu)),
      `${sec(median(runs.map((r) => r.submitMs)))} / ${sec(median(runs.map((r) => r.collectMs)))}`,
      percent(paired(total(runs), singleMs)),
      percent(paired(totalCpu(runs), singleCpu)),
    ];
    return `| ${cells.join(' | ')} |`;
  };
  const one = paired(work(d.one), singleMs);
  const oneCpu = paired(workCpu(d.one), singleCpu);
  // Once started: the extra time and CPU of the large input over the small one, run by run (start-up
  // and end cancel out), per extra record.
  const extraRecords = (d.large.factor - 1) * d.records;
  const extra = (large: readonly number[], small: readonly number[]) => large.map((x, r) => x - small[r]);
  const steadyMs = extra(
    d.large.single.map((s) => s.ms),
    singleMs,
  );
  const steadyCpu = extra(
    d.large.single.map((s) => s.cpu),
    singleCpu,
  );
  const oneMs = extra(work(d.large.one), work(d.one));
  const oneCpuExtra = extra(workCpu(d.large.one), workCpu(d.one));
  const measurable = [steadyMs, steadyCpu, oneMs, oneCpuExtra].every((xs) => xs.every((x) => x > 0));
  const perRecord = (cpu: readonly number[]) => ((median(cpu) * 1000) / extraRecords).toFixed(3);
  const steadyRow = (name: string, ms: readonly number[], cpu: readonly number[], ratios: boolean) =>
    `| ${name} | ${rate(extraRecords, median(ms))} | ${ratios ? percent(paired(ms, steadyMs)) : '–'} | ${perRecord(cpu)} | ${ratios ? percent(paired(cpu, steadyCpu)) : '–'} |`;
  return [
    '# Distributed batch (BullMQ + Redis)',
    '',
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}; run ${m.date}; one-minute load`,
    `average ${d.load.map((x) => x.toFixed(1)).join(' before, ')} after (a shared machine: compare rows, not runs).`,
    `Regenerate: \`${command}\`. Every command is a spawned CLI, start-up included, as users run it; Redis`,
    `on loopback. Medians of ${d.repeats} interleaved runs (min–max in brackets); ratios: the median over the repeats of`,
    `each run against the \`refract batch\` run of the same repeat. Input: ${d.records.toLocaleString('en-US')} records`,
    '(`benchmarks/batch-dataset.ts`: the NESTFUL executable samples, about 5 % of them repaired by the solver).',
    `Every distributed output was checked against the \`refract batch\` output: equal but for \`timeMs\`.`,
    '',
    `## Throughput (${d.threads} repair threads in every set-up)`,
    '',
    '`work` = from starting the `work` processes until the last chunk is in place (the single-machine run:',
    'from start to exit); records/s over that time. `submit` cuts the input and enqueues its chunks; `collect`',
    'checks every part against the input and writes the output. Chunks of 500 records, 2 in flight per process.',
    '',
    '| set-up | records/s | work s | wall vs `refract batch` | work CPU s | CPU vs `refract batch` | submit / collect s | all three: wall | all three: CPU |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| \`refract batch --workers ${d.threads}\` | ${rate(d.records, single)} | ${sec(single)} (${range(singleMs)}) | – | ${median(singleCpu).toFixed(1)} | – | – | – | – |`,
    row(`1 \`work\` process × ${d.threads} threads`, d.one),
    row(`2 \`work\` processes × ${d.threads / 2} thread`, d.two),
    '',
    `Whole runs at one process: ${percent(one)} wall time, ${percent(oneCpu)} CPU time. Most of it is start-up,`,
    'paid once per `work` process (importing BullMQ and ioredis, connecting, reading the manifest), which the',
    'next table takes out. CPU time (user + system of every thread of the measured processes) is the steadier',
    'measure on this shared machine, where wall time can double between identical runs. Two processes on the',
    'same two cores add a second start-up and a second main thread, not cores: on separate machines each',
    'brings its own cores.',
    '',
    `## Once started (the extra ${extraRecords.toLocaleString('en-US')} records of a run on ${d.large.factor} times the input)`,
    '',
    `\`refract batch\` and one \`work\` process also ran on ${(d.large.factor * d.records).toLocaleString('en-US')} records in each repeat; the`,
    'difference between the large and the small run is the cost of the extra records alone, start-up and',
    'end cancelled out.',
    '',
    '| set-up | records/s | wall vs `refract batch` | CPU ms per record | CPU vs `refract batch` |',
    '| --- | --- | --- | --- | --- |',
    ...(measurable
      ? [
          steadyRow(`\`refract batch --workers ${d.threads}\``, steadyMs, steadyCpu, false),
          steadyRow(`1 \`work\` process × ${d.threads} threads`, oneMs, oneCpuExtra, true),
          '',
          `Overhead at one process once started: ${percent(paired(oneMs, steadyMs))} wall time, ${percent(paired(oneCpuExtra, steadyCpu))} CPU time`,
          '(target: within 10 % of `refract batch`).',
        ]
      : ['(none: the extra records took less time than the noise between runs; use a larger `--factor`)']),
    '',
    '## Chunk size (1 `work` process, 1 run each)',
    '',
    'Each chunk is one queue job: its cost (a few Redis round trips, a part written and synced, the',
    "chunk's last records waiting for its slowest) is paid per chunk. Redis CPU per job: Redis's own CPU",
    'time over the run (INFO cpu) divided by the jobs; Redis runs commands on one thread, so 1 / that is',
    'the most jobs per second a whole cluster can finish.',
    '',
    '| records per chunk | jobs | records/s | work s | work CPU s | submit s | collect s | Redis CPU per job |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...d.chunks
      .map((c) =>
        [
          c.chunk,
          Math.ceil(d.records / c.chunk),
          rate(d.records, c.workMs),
          sec(c.workMs),
          c.workCpu.toFixed(1),
          sec(c.submitMs),
          sec(c.collectMs),
          `${((c.redisCpu * 1000) / Math.ceil(d.records / c.chunk)).toFixed(2)} ms`,
        ].join(' | '),
      )
      .map((row) => `| ${row} |`),
    '',
    ...redisPerJob(d),
    '## Recovery from a killed worker',
    '',
    'Two `work` processes; one is killed with `kill -9` in the middle of a chunk. Time from the kill until',
    'every chunk it held is in place, done by the other: the chunks wait for their lock to expire, then for',
    'the stall checks (`--lock`, `--stall-check` of `work`), then are worked on again from the start. A lock',
    'is renewed every `--lock`/2, so it expires between `--lock`/2 and `--lock` after the kill, and BullMQ',
    'takes a chunk back at the first or the second stall check after that: the recovery takes between',
    '`--lock`/2 and `--lock` + 2 × `--stall-check`, plus the time of the chunk itself.',
    '',
    '| `--lock` s | `--stall-check` s | recovered in s |',
    '| --- | --- | --- |',
    ...d.recovery.map((r) => `| ${r.lock} | ${r.stall} | ${sec(r.recoveredMs)} |`),
    '',
  ].join('\n');
}
