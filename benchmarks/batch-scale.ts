/**
 * Scale test of `refract batch`: generates a large JSONL dataset in a temporary directory (the NESTFUL
 * executable samples, one corrupted record every `--broken-every` lines), runs the batch in this process
 * and reports throughput and memory. Worker threads live in this process, so RSS covers them too.
 *
 *   npx tsx benchmarks/batch-scale.ts [--records 200000] [--workers N] [--broken-every 1000] [--input FILE]
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runBatch } from '../src/batch/run.ts';
import { createProgress } from '../src/batch/progress.ts';
import { summaryLine } from '../src/batch/summary-report.ts';
import { generate } from './batch-dataset.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '200000' },
    workers: { type: 'string', default: String(availableParallelism()) },
    'broken-every': { type: 'string', default: '1000' },
    input: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

const CATALOG = 'data/nestful/executable-spec.json';
const dir = mkdtempSync(join(tmpdir(), 'refract-batch-scale-'));
try {
  const records = Number(args.records);
  const input = args.input ?? join(dir, 'input.jsonl');
  if (!args.input) await generate(input, records, Number(args['broken-every']));
  const out = join(dir, 'output.jsonl');
  const samples: { rss: number; heap: number }[] = [];
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    samples.push({ rss: m.rss, heap: m.heapUsed });
  }, 250);
  const start = performance.now();
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const report = await runBatch({
    input: createReadStream(input),
    inputPath: input,
    out,
    request: { catalogPath: CATALOG },
    workers: Number(args.workers),
    progress: createProgress(process.stderr, { quiet: args.quiet }),
  });
  const seconds = (performance.now() - start) / 1000;
  // Share of the run the main thread (reading, parsing, ordering, writing) was busy.
  const mainBusy = performance.eventLoopUtilization(loop).utilization;
  // CPU of every thread: on a shared machine the cores actually granted (cpu / wall) bound the speed-up.
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  clearInterval(sampler);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(share * samples.length))];
  const shares = [0.1, 0.25, 0.5, 0.75, 0.9] as const;
  console.log(
    JSON.stringify({
      records: report.processed,
      workers: Number(args.workers),
      seconds: Math.round(seconds * 10) / 10,
      recordsPerSecond: Math.round(report.processed / seconds),
      cpuSeconds: Math.round(cpuSeconds * 10) / 10,
      coresUsed: Math.round((cpuSeconds / seconds) * 100) / 100,
      mainThreadBusy: Math.round(mainBusy * 100) / 100,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      // Over the run's duration: total RSS, and the main thread's live heap.
      rssMbAt: Object.fromEntries(shares.map((p) => [`${p * 100}%`, mb(at(p)?.rss ?? 0)])),
      mainHeapMbAt: Object.fromEntries(shares.map((p) => [`${p * 100}%`, mb(at(p)?.heap ?? 0)])),
      statuses: report.summary.statuses,
    }),
  );
  console.log(summaryLine(report.summary));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
