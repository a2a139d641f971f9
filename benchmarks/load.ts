/**
 * Load test of `refract serve` on loopback: requests/s and latency at 1, 8 and 64 connections, on NESTFUL
 * executable sequences, gold and corrupted, POST /v1/fix with a catalog registered by name; then the
 * corrupted rows at 8 and 64 connections again while 130 slow senders and 100 abandoning clients run
 * (benchmarks/load-attack.ts); then the server's RSS after 1,000 normal and after 1,000 hostile requests,
 * each on a fresh server. The server runs in a child process (so the load generator does not share its
 * event loop). Bounded: every cell runs for `--duration` seconds, the whole run has a deadline.
 *
 *   npx tsx benchmarks/load.ts [--duration 10] [--workers N] [--skip-memory] [--out benchmarks/results/load.md]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildServer } from '../src/server/app.ts';
import { attackReport, rssAfterRequests, underAttack, type LoadKit } from './load-phases.ts';

const CONNECTIONS = [1, 8, 64];
const CORRUPTED = existsSync('benchmarks/data/corrupted-executable.jsonl')
  ? 'benchmarks/data/corrupted-executable.jsonl'
  : 'samples/broken-nestful.jsonl';

const { values } = parseArgs({
  options: {
    serve: { type: 'boolean' },
    duration: { type: 'string', default: '10' },
    workers: { type: 'string' },
    out: { type: 'string', default: 'benchmarks/results/load.md' },
    'skip-memory': { type: 'boolean' },
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const args = [...process.execArgv, fileURLToPath(import.meta.url), '--serve'];
  if (values.workers) args.push('--workers', values.workers);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /LISTENING (\S+)/.exec(seen);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with code ${code}`)));
  });
}

export interface Cell {
  set: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
}

function bodies(): Record<string, string[]> {
  const gold = (
    JSON.parse(readFileSync('data/nestful/executable-data.json', 'utf8')) as { output: unknown }[]
  ).map((s) => s.output);
  const corrupted = readFileSync(CORRUPTED, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { sequence: unknown }).sequence);
  const body = (sequence: unknown) => JSON.stringify({ sequence, catalogName: 'nestful' });
  return { gold: gold.map(body), corrupted: corrupted.map(body) };
}

async function measure(
  url: string,
  set: string,
  list: string[],
  connections: number,
  bound: { duration: number } | { amount: number },
) {
  const statuses: Record<string, number> = {};
  // One counter for all connections, so together they go through the whole set in order.
  let next = 0;
  const onResponse = (status: number, body: string) => {
    const key = status === 200 ? String((JSON.parse(body) as { status: string }).status) : `http ${status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  };
  const result = await autocannon({
    url,
    connections,
    ...bound,
    timeout: 120,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: '/v1/fix',
        setupRequest: (request) => ({ ...request, body: list[next++ % list.length] }),
        onResponse,
      },
    ],
  });
  const cell: Cell = {
    set,
    connections,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
  };
  process.stderr.write(`${set} c=${connections}: ${JSON.stringify(cell)}\n`);
  return cell;
}

async function main(): Promise<void> {
  const duration = Number(values.duration);
  const deadline = setTimeout(
    () => {
      process.stderr.write('load: deadline passed, stopping\n');
      process.exit(1);
    },
    (duration * (CONNECTIONS.length * 2 + 4) + 300) * 1000 * 2,
  );
  const load0 = loadavg()[0];
  const { child, url } = await startServer();
  try {
    const catalog = readFileSync('data/nestful/executable-spec.json', 'utf8');
    const put = await fetch(`${url}/v1/catalogs/nestful`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: catalog,
    });
    if (!put.ok) throw new Error(`catalog registration failed: ${put.status}`);
    const sets = bodies();
    type Health = { workers: { size: number; ready: number } };
    const health = async () => (await (await fetch(`${url}/v1/health`)).json()) as Health;
    while ((await health()).workers.ready < (await health()).workers.size) await sleep(100);
    const workers = (await health()).workers.size;
    // Warm-up: every worker loads the solver and receives the catalog.
    await measure(url, 'warm-up', sets.corrupted, workers * 2, { amount: workers * 10 });
    const rssBefore = rssMiB(child.pid!);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(child.pid!))), 250);
    const cells: Cell[] = [];
    for (const [set, list] of Object.entries(sets)) {
      for (const c of CONNECTIONS) cells.push(await measure(url, set, list, c, { duration }));
    }
    clearInterval(sampler);
    const rssAfter = rssMiB(child.pid!);
    const kit: LoadKit = { measure, startServer, rssMiB };
    const attacked = await underAttack(kit, url, sets.corrupted, duration, cells);
    const memory = values['skip-memory'] ? undefined : await rssAfterRequests(kit, sets.corrupted);
    writeFileSync(
      values.out!,
      report(cells, { duration, workers, rssBefore, rssPeak, rssAfter, load0 }, sets) +
        attackReport(attacked, memory),
    );
    process.stderr.write(`wrote ${values.out}\n`);
  } finally {
    child.kill('SIGTERM');
    clearTimeout(deadline);
  }
}

function report(
  cells: Cell[],
  run: {
    duration: number;
    workers: number;
    rssBefore: number;
    rssPeak: number;
    rssAfter: number;
    load0: number;
  },
  sets: Record<string, string[]>,
): string {
  const ms = (x: number) => x.toFixed(0);
  const rows = cells.map(
    (c) =>
      `| ${c.set} | ${c.connections} | ${c.requests} | ${c.rps.toFixed(1)} | ${ms(c.p50)} | ${ms(c.p90)} | ${ms(c.p99)} | ` +
      `${c.errors} | ${c.non2xx} | ${Object.entries(c.statuses)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')} |`,
  );
  return [
    '# Load: `refract serve`, POST /v1/fix',
    '',
    'Generated by `npx tsx benchmarks/load.ts` (autocannon on 127.0.0.1; the server in a child process).',
    '',
    `- Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `shared with other jobs (load average ${run.load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end), so the numbers are noisy.`,
    `- Server: ${run.workers} solve workers, default limits; catalog \`data/nestful/executable-spec.json\` registered by name.`,
    `- Sequences: gold = the ${sets.gold.length} of \`data/nestful/executable-data.json\`; corrupted = the ${sets.corrupted.length} of \`${CORRUPTED}\`; the connections share one cursor through them, in order.`,
    `- Each row: ${run.duration} s of load after a warm-up. Latency in ms.`,
    '',
    '| set | connections | requests | req/s | p50 | p90 | p99 | errors | non-2xx | result statuses |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `Server RSS (MiB, workers included): ${run.rssBefore.toFixed(0)} before the load, ${run.rssPeak.toFixed(0)} at the peak, ${run.rssAfter.toFixed(0)} after.`,
    '',
  ].join('\n');
}

if (values.serve) {
  // Child mode: the server alone. Requests may queue long at 64 connections, so the limit is generous.
  const app = buildServer({
    workers: values.workers ? Number(values.workers) : undefined,
    requestTimeoutMs: 120_000,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`LISTENING ${url}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  await main();
}
