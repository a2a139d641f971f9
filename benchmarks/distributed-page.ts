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
    `Overhead at one process: ${percent(one)} wall time, ${percent(oneCpu)} CPU time (target: within 10 % of`,
    `\`refract batch\`). CPU time (user + system of every thread of the measured processes) is the steadier`,
    'measure here: wall time on this shared machine varies by a factor of two between identical runs. Two processes on the',
    'same two cores add a second start-up and a second main thread, not cores: on separate machines each',
    'brings its own cores.',
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
    '## Recovery from a killed worker',
    '',
    'Two `work` processes; one is killed with `kill -9` in the middle of a chunk. Time from the kill until',
    'every chunk it held is in place, done by the other: the chunks wait for their lock to expire, then for',
    'the next stall check (`--lock`, `--stall-check` of `work`), then are worked on again from the start.',
    '',
    '| `--lock` s | `--stall-check` s | recovered in s |',
    '| --- | --- | --- |',
    ...d.recovery.map((r) => `| ${r.lock} | ${r.stall} | ${sec(r.recoveredMs)} |`),
    '',
  ].join('\n');
}
