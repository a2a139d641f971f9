/** The throughput page: batch records per second, scaling with workers, memory and start-up, two builds. */
import type { BenchContext } from './context.ts';
import { pageHeader, table } from './markdown.ts';
import { median } from './stats.ts';
import type { BatchCase, ThroughputResults } from './throughput.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const rate = (records: number, ms: number) => String(Math.round(records / (ms / 1000)));
const spread = (xs: readonly number[]) =>
  xs.length < 2 ? '–' : `${seconds(Math.min(...xs))}–${seconds(Math.max(...xs))}`;

function medianMs(c: BatchCase, build: string): number {
  return median(c.timings[build]?.ms ?? []);
}

function medianCpu(c: BatchCase, build: string): number {
  return median(c.timings[build]?.cpuMs ?? []);
}

const ratio = (a: number, b: number, digits = 1) => `${(a / b).toFixed(digits)}×`;

function batchTable(r: ThroughputResults): string {
  const rows = r.batch.map((c) => {
    const before = medianMs(c, 'previous');
    const after = medianMs(c, 'this');
    return [
      `${c.name} (${c.records.toLocaleString('en-US')})`,
      seconds(before),
      rate(c.records, before),
      seconds(medianCpu(c, 'previous')),
      seconds(after),
      rate(c.records, after),
      spread(c.timings.this?.ms ?? []),
      seconds(medianCpu(c, 'this')),
      ratio(before, after),
      ratio(medianCpu(c, 'previous'), medianCpu(c, 'this')),
      c.timings.previous?.digest === c.timings.this?.digest ? 'yes' : 'no',
    ];
  });
  return table(
    [
      'input, solver, workers (records)',
      'previous s',
      'rec/s',
      'CPU s',
      'this s',
      'rec/s',
      'min–max s',
      'CPU s',
      'wall ratio',
      'CPU ratio',
      'same repairs',
    ],
    rows,
  );
}

function scalingTable(r: ThroughputResults): string {
  const find = (input: string, solver: string, workers: number) =>
    r.batch.find((c) => c.input === input && c.solver === solver && c.workers === workers);
  const sets = [
    ['corrupted', 'portfolio', 'portfolio (default)'],
    ['corrupted', 'highs', 'HiGHS'],
    ['long', 'portfolio', 'portfolio (default), ×5'],
  ] as const;
  const rows = sets.flatMap(([input, solver, label]) => {
    const one = find(input, solver, 1);
    const two = find(input, solver, 2);
    if (!one || !two) return [];
    return r.builds.map((b) => [
      `${label} (${one.records.toLocaleString('en-US')}), ${b.label}`,
      seconds(medianMs(one, b.label)),
      seconds(medianMs(two, b.label)),
      ratio(medianMs(one, b.label), medianMs(two, b.label), 2),
      seconds(medianCpu(one, b.label)),
      seconds(medianCpu(two, b.label)),
    ]);
  });
  return table(
    [
      'corrupted records, build',
      '1 worker s',
      '2 workers s',
      '1 worker / 2 workers',
      '1 worker CPU s',
      '2 workers CPU s',
    ],
    rows,
  );
}

function memoryTable(r: ThroughputResults): string {
  return table(
    ['build', 'records', 'wall s', 'rec/s', 'CPU s', 'peak RSS MiB'],
    r.memory.map((m) => [
      m.build,
      m.records.toLocaleString('en-US'),
      seconds(m.ms),
      rate(m.records, m.ms),
      seconds(m.cpuMs),
      m.rssMiB.toFixed(0),
    ]),
  );
}

function startupTable(r: ThroughputResults): string {
  const cell = (xs: readonly number[] | undefined) =>
    xs && xs.length ? String(Math.round(median(xs))) : '–';
  const range = (xs: readonly number[] | undefined) =>
    xs && xs.length > 1 ? `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}` : '–';
  return table(
    ['what', 'previous ms', 'this ms', 'this min–max ms'],
    r.startup.map((s) => [s.name, cell(s.ms.previous), cell(s.ms.this), range(s.ms.this)]),
  );
}

export function throughputPage(ctx: BenchContext, r: ThroughputResults): string {
  const [previous, current] = r.builds;
  const how = (b: (typeof r.builds)[number]) =>
    b.compiled ? 'compiled JavaScript (`dist/`)' : 'TypeScript through tsx, workers included';
  return [
    pageHeader(
      'Throughput: `refract batch` and start-up, two builds side by side',
      ctx.machine,
      ctx.command,
      'Timings are wall-clock, each command in its own process, start-up included; medians.',
    ),
    `Builds: **previous** = ${previous.commit} (${how(previous)}); **this** = ${current.commit} (${how(current)}).`,
    'Each command runs in its own process, as a user runs it: times run from spawn to exit. The builds',
    `alternate; each batch command ran ${r.repeats} time(s) per build and the tables give medians (and the`,
    'spread of this build). CPU s is the CPU time of the whole process (every thread): what a',
    'run costs whatever else the machine is doing. The machine is shared: load average (1 min)',
    `${r.load[0].toFixed(1)} at the start and ${r.load[1].toFixed(1)} at the end of this run, on ${ctx.machine.nproc} cores.`,
    'Under load a process gets a share of the cores whatever its thread count, so wall times and the',
    'two-worker ratio then understate what an idle machine gives, while CPU times stay comparable.',
    'Each batch run starts once the machine has been quiet for a second (under 15 % of its CPU busy),',
    `waiting up to 30 s: ${r.quiet.busy} of the ${r.quiet.runs} batch runs started busy after waiting.`,
    '',
    '## Batch throughput',
    '',
    'Inputs: the corrupted NESTFUL executable records (`benchmarks/data/corrupted-executable.jsonl`) repeated with',
    'fresh ids (×5: five times as many, so that the warm-up of each worker, paid once, weighs less); the',
    'executable gold sequences that validate, repeated. `--catalog data/nestful/executable-spec.json`.',
    '"Same repairs": for every record, the two builds decided the same and returned the same sequence at the',
    'same cost (the rest of a result line, how edits and issues are written, may differ between builds).',
    '',
    batchTable(r),
    '',
    `The portfolio (lp-solver on models up to 300 variables, HiGHS above; the default) and HiGHS differ on`,
    `${r.portfolioDiffers} of the corrupted records (decision, sequence or cost): the tie-break terms order every`,
    'pair of different repairs, so every backend returns the same one.',
    '',
    '## Two workers against one',
    '',
    "Each worker pays its own warm-up (V8 compiling the repair's code for its own thread, and heap growth,",
    'over about the first 500 records), so two workers spend more CPU than one on the same records; the longer',
    'run shows what two cores give once both workers are warm. Under load the wall-time ratio says little (see',
    'above): compare the CPU columns.',
    '',
    scalingTable(r),
    '',
    '## Memory',
    '',
    'Valid records with one corrupted record in 1,000, 2 workers. Peak RSS covers the main thread and the workers.',
    '',
    memoryTable(r),
    '',
    '## Start-up',
    '',
    `Medians of ${r.startup[0]?.ms.this?.length ?? 0} runs. The one-record fix repairs \`samples/broken-flight.txt\`; the`,
    'worker time runs from `new Worker` to its ready message (the catalog and options loaded).',
    '',
    startupTable(r),
    '',
  ].join('\n');
}
