/**
 * Benchmark of the distributed batch (`refract batch submit|work|collect`) against the single-machine
 * `refract batch` on the same generated input, on a Redis on loopback: records/s with one and two `work`
 * processes (the same number of repair threads as the single-machine run), the overhead ratio, records/s
 * per chunk size, and the time from a `kill -9` of a worker until its interrupted chunks are done again, per
 * lock setting. Every command runs as users run it (a spawned CLI, start-up included); runs of the three
 * set-ups are interleaved so that the shared machine's noise spreads over all of them. Every distributed
 * output is checked against the single-machine output (equal but for `timeMs`). Writes
 * benchmarks/results/distributed.md.
 *
 *   npm run bench:distributed [-- --records 20000 --repeats 3 --factor 5 --redis redis://HOST:PORT --quick]
 *   npm run bench:distributed -- --render     # the page again from distributed.json, without measuring
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { machine, type Machine } from '../research/bench/markdown.ts';
import { generate } from './batch-dataset.ts';
import { distributedPage, type Measured, type Phases, type Timed } from './distributed-page.ts';
import { localRedis, type LocalRedis } from './redis-server.ts';
import {
  completionOf,
  CPU_FILE,
  killMidChunk,
  partsIn,
  run,
  startWork,
  takeCpuSeconds,
} from './distributed-steps.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '20000' },
    repeats: { type: 'string', default: '3' },
    factor: { type: 'string', default: '5' },
    redis: { type: 'string' },
    out: { type: 'string', default: 'benchmarks/results/distributed.md' },
    quick: { type: 'boolean', default: false },
    render: { type: 'boolean', default: false },
  },
});

const CATALOG = 'data/nestful/executable-spec.json';
const THREADS = 2;
const records = args.quick ? 4_000 : Number(args.records);
const repeats = args.quick ? 1 : Number(args.repeats);
const factor = args.quick ? 2 : Number(args.factor);
const log = (line: string) => process.stderr.write(`distributed: ${line}\n`);
const seconds = (ms: number) => ms / 1000;

// --render: the page again from the measurements saved beside it (after a change of wording), no run.
if (args.render) {
  const saved = JSON.parse(readFileSync(args.out.replace(/\.md$/, '.json'), 'utf8')) as Measured & {
    machine: Machine;
    command: string;
  };
  writeFileSync(args.out, distributedPage(saved.machine, saved.command, saved));
  console.log(args.out);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'refract-distributed-'));
let redis: LocalRedis | undefined;
// Interrupted: the Redis started here and the temporary files go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (redis?.stop() ?? Promise.resolve()).finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}
try {
  redis = await localRedis(args.redis);
  const url = redis.url;
  const flush = async () => {
    const client = new Redis(url);
    await client.flushdb();
    client.disconnect();
  };
  /** Redis's own CPU seconds so far (user + system, from INFO). */
  const redisCpu = async () => {
    const client = new Redis(url);
    const info = await client.info('cpu');
    client.disconnect();
    const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
    return field('used_cpu_user') + field('used_cpu_sys');
  };
  // The input, and one `factor` times its size: the difference between the two runs of a set-up is the
  // time of the extra records once started (start-up and end cancel out).
  const input = join(dir, 'input.jsonl');
  const large = join(dir, 'large.jsonl');
  await generate(input, records, 1000);
  await generate(large, factor * records, 1000);
  const load = [loadavg()[0]];
  const singleOut = (file: string) => `${file}.single`;
  const withoutTimes = (path: string) =>
    readFileSync(path, 'utf8').replace(/"timeMs":[0-9.e+-]+/g, '"timeMs":0');

  /** `refract batch` on all threads: spawn to exit, and its CPU seconds. */
  const singleRun = async (file = input): Promise<Timed> => {
    takeCpuSeconds();
    const began = performance.now();
    await run(
      [
        'batch',
        '--catalog',
        CATALOG,
        '--workers',
        String(THREADS),
        '-q',
        file,
        '--out',
        singleOut(file),
        '--overwrite',
      ],
      [0, 1, 2],
    );
    return { ms: performance.now() - began, cpu: takeCpuSeconds() };
  };

  /** submit, `processes` work processes sharing the threads, collect; each phase timed. */
  const distributedRun = async (
    processes: number,
    chunk = 500,
    file = input,
    name = `p${processes}c${chunk}`,
  ): Promise<Phases> => {
    await flush();
    const results = join(dir, name);
    rmSync(results, { recursive: true, force: true });
    takeCpuSeconds();
    const redisBefore = await redisCpu();
    const submitBegan = performance.now();
    await run(
      ['batch', 'submit', file, '--queue', url, '--run', name, '--results', results].concat([
        '--catalog',
        CATALOG,
        '--chunk',
        String(chunk),
        '-q',
      ]),
    );
    const submitMs = performance.now() - submitBegan;
    const submitCpu = takeCpuSeconds();
    const chunks = JSON.parse(readFileSync(join(results, 'manifest.json'), 'utf8')).chunks as number;
    const workBegan = performance.now();
    const workers = Array.from({ length: processes }, () => startWork(url, THREADS / processes));
    await completionOf(results, chunks);
    const workMs = performance.now() - workBegan;
    await Promise.all(workers.map((w) => w.stop()));
    const workCpu = takeCpuSeconds();
    const out = join(dir, `${name}.jsonl`);
    const collectBegan = performance.now();
    await run(
      ['batch', 'collect', '--run', name, '--results', results, '--out', out, '--overwrite', '-q'],
      [0, 1, 2],
    );
    const collectMs = performance.now() - collectBegan;
    const collectCpu = takeCpuSeconds();
    const redisCpuSeconds = (await redisCpu()) - redisBefore;
    if (withoutTimes(out) !== withoutTimes(singleOut(file)))
      throw new Error(`${name}: output differs from refract batch`);
    rmSync(results, { recursive: true, force: true });
    return { submitMs, workMs, collectMs, submitCpu, workCpu, collectCpu, redisCpu: redisCpuSeconds };
  };

  const measured: Measured = {
    records,
    threads: THREADS,
    repeats,
    single: [],
    one: [],
    two: [],
    chunks: [],
    recovery: [],
    load,
    large: { factor, single: [], one: [] },
  };
  for (let r = 0; r < repeats; r++) {
    measured.single.push(await singleRun());
    log(`repeat ${r + 1}: refract batch ${seconds(measured.single.at(-1)!.ms).toFixed(1)} s`);
    measured.one.push(await distributedRun(1));
    log(`repeat ${r + 1}: 1 work process ${seconds(measured.one.at(-1)!.workMs).toFixed(1)} s`);
    measured.two.push(await distributedRun(2));
    log(`repeat ${r + 1}: 2 work processes ${seconds(measured.two.at(-1)!.workMs).toFixed(1)} s`);
    measured.large.single.push(await singleRun(large));
    measured.large.one.push(await distributedRun(1, 500, large));
    const [a, b] = [measured.large.single.at(-1)!.ms, measured.large.one.at(-1)!.workMs];
    log(
      `repeat ${r + 1}: ${factor} times the records: ${seconds(a).toFixed(1)} s, ${seconds(b).toFixed(1)} s`,
    );
  }
  for (const chunk of args.quick ? [50, 500] : [10, 50, 500, 2000]) {
    measured.chunks.push({ chunk, ...(await distributedRun(1, chunk)) });
    log(`chunk ${chunk}: ${seconds(measured.chunks.at(-1)!.workMs).toFixed(1)} s`);
  }
  const settings = args.quick
    ? [{ lock: 4, stall: 1 }]
    : [
        { lock: 30, stall: 30 },
        { lock: 10, stall: 2 },
        { lock: 4, stall: 1 },
      ];
  for (const { lock, stall } of settings) {
    await flush();
    const results = join(dir, `recovery-${lock}`);
    await run(
      ['batch', 'submit', input, '--queue', url, '--run', `recovery-${lock}`, '--results', results].concat([
        '--catalog',
        CATALOG,
        '-q',
      ]),
    );
    const doomed = startWork(url, 1, lock, stall);
    const steady = startWork(url, 1, lock, stall);
    const recoveredMs = await killMidChunk(results, doomed);
    const chunks = JSON.parse(readFileSync(join(results, 'manifest.json'), 'utf8')).chunks as number;
    await completionOf(results, chunks);
    await steady.stop();
    measured.recovery.push({ lock, stall, recoveredMs, parts: partsIn(results) });
    log(`lock ${lock} s, stall check ${stall} s: recovered in ${seconds(recoveredMs).toFixed(1)} s`);
  }
  load.push(loadavg()[0]);
  const command = `npm run bench:distributed${args.quick ? ' -- --quick' : ''}`;
  const where = machine();
  writeFileSync(args.out, distributedPage(where, command, measured));
  // The measurements beside the page, to re-render it (--render) or to compare runs.
  const saved = { ...measured, machine: where, command };
  writeFileSync(args.out.replace(/\.md$/, '.json'), JSON.stringify(saved, null, 2) + '\n');
  console.log(args.out);
} finally {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(CPU_FILE, { force: true });
}
