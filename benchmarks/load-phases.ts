/**
 * The hostile phases of the load test (benchmarks/load.ts): the corrupted rows again while slow and
 * abandoning clients run, and the server's RSS after 1,000 normal and after 1,000 hostile requests, each
 * on a fresh server; and their part of the result page. The load test hands in its own tools (`LoadKit`).
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { Cell } from './load.ts';
import { hostileKinds, runMany, startAttack } from './load-attack.ts';

export interface LoadKit {
  measure(
    url: string,
    set: string,
    list: string[],
    connections: number,
    bound: { duration: number },
  ): Promise<Cell>;
  startServer(): Promise<{ child: ChildProcess; url: string }>;
  rssMiB(pid: number): number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Attacked {
  quiet: Cell;
  attacked: Cell;
  counts: { abandoned: number; slowConnections: number; slowCut: number };
}

/** The corrupted rows at 8 and 64 connections again, while 130 slow and 100 abandoning clients run. */
export async function underAttack(
  kit: LoadKit,
  url: string,
  list: string[],
  duration: number,
  quiet: Cell[],
): Promise<Attacked[]> {
  const port = Number(new URL(url).port);
  const out: Attacked[] = [];
  for (const connections of [8, 64]) {
    const attack = startAttack(port, {
      slow: 130,
      abandoning: 100,
      trickleMs: 1000,
      periodMs: 1000,
      bodies: list,
    });
    await sleep(2000);
    const attacked = await kit.measure(url, 'corrupted, attacked', list, connections, { duration });
    await attack.stop();
    const before = quiet.find((c) => c.set === 'corrupted' && c.connections === connections)!;
    out.push({ quiet: before, attacked, counts: { ...attack.counts } });
    await sleep(2000);
  }
  return out;
}

/** RSS (MiB) of a fresh server after 1,000 normal requests, and of another after 1,000 hostile ones. */
export async function rssAfterRequests(
  kit: LoadKit,
  list: string[],
): Promise<{ normal: number; hostile: number; statuses: Record<string, number>; kinds: string[] }> {
  const settle = async (pid: number) => {
    await sleep(3000);
    return kit.rssMiB(pid);
  };
  const fresh = async () => {
    const server = await kit.startServer();
    const put = await fetch(`${server.url}/v1/catalogs/nestful`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: readFileSync('data/nestful/executable-spec.json', 'utf8'),
    });
    if (!put.ok) throw new Error(`catalog registration failed: ${put.status}`);
    return { ...server, port: Number(new URL(server.url).port) };
  };
  const normal = await fresh();
  await runMany(1000, 8, async (i) => {
    const r = await fetch(`${normal.url}/v1/fix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: list[i % list.length],
    });
    await r.arrayBuffer();
    return r.status;
  });
  const normalRss = await settle(normal.child.pid!);
  normal.child.kill('SIGTERM');
  const hostile = await fresh();
  const sequence = (JSON.parse(list[0]) as { sequence: unknown }).sequence;
  const kinds = hostileKinds(hostile.port, sequence);
  const names = Object.keys(kinds).filter((k) => k !== 'slow body');
  // 100 slow bodies at once (cut by the body time-out), 900 of the other kinds in turn, 8 at a time.
  const slow = runMany(100, 100, () => kinds['slow body']());
  const statuses = await runMany(900, 8, (i) => kinds[names[i % names.length]]());
  for (const [k, n] of Object.entries(await slow)) statuses[k] = (statuses[k] ?? 0) + n;
  const hostileRss = await settle(hostile.child.pid!);
  hostile.child.kill('SIGTERM');
  return { normal: normalRss, hostile: hostileRss, statuses, kinds: Object.keys(kinds) };
}

export function attackReport(
  rows: Attacked[],
  memory: Awaited<ReturnType<typeof rssAfterRequests>> | undefined,
): string {
  const ms = (x: number) => x.toFixed(0);
  const code503 = (c: Cell) => c.statuses['http 503'] ?? 0;
  return [
    '',
    '## Under attack: 130 slow senders and 100 abandoning clients',
    '',
    'The corrupted rows again, while 130 sockets each send one byte a second into a 10,000-byte body (cut by',
    'the 10 s body time-out, then back) and 100 clients each send a /v1/fix request and disconnect at once,',
    'once a second. Server limits at their defaults (128 admitted requests).',
    '',
    '| connections | req/s quiet | req/s attacked | p99 quiet | p99 attacked | p99 ratio | legitimate 503 | abandoned requests | slow connections (cut) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.attacked.connections} | ${r.quiet.rps.toFixed(1)} | ${r.attacked.rps.toFixed(1)} | ${ms(r.quiet.p99)} | ${ms(r.attacked.p99)} | ` +
        `${(r.attacked.p99 / Math.max(1, r.quiet.p99)).toFixed(2)} | ${code503(r.attacked)} | ${r.counts.abandoned} | ${r.counts.slowConnections} (${r.counts.slowCut}) |`,
    ),
    '',
  ]
    .concat(memory ? memoryReport(memory) : [])
    .join('\n');
}

function memoryReport(memory: Awaited<ReturnType<typeof rssAfterRequests>>): string[] {
  return [
    '## Memory after hostile requests',
    '',
    `Each on a fresh server with the NESTFUL catalog registered, RSS 3 s after the last answer. Normal: 1,000`,
    `POST /v1/fix of corrupted sequences, 8 at a time. Hostile: 100 slow bodies at once, and 900 requests`,
    `taking turns among: ${memory.kinds.filter((k) => k !== 'slow body').join('; ')}.`,
    '',
    '| requests | RSS (MiB) |',
    '| --- | ---: |',
    `| 1,000 normal | ${memory.normal.toFixed(0)} |`,
    `| 1,000 hostile | ${memory.hostile.toFixed(0)} |`,
    `| ratio | ${(memory.hostile / memory.normal).toFixed(2)} |`,
    '',
    `Answers to the hostile requests by status (0: none, the client had left): ${Object.entries(
      memory.statuses,
    )
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}.`,
    '',
  ];
}
