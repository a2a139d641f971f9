/**
 * Steps of the distributed-batch benchmark: the CLI run as users run it, `work` processes started and
 * stopped, and the result directory watched (parts in place, a worker's half-written attempts under tmp/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = ['--import', 'tsx', '--import', './benchmarks/cpu-report.mjs', 'bin/refract.ts'];

/** Where the measured processes add their CPU seconds (one line each, at exit). */
export const CPU_FILE = join(tmpdir(), `refract-distributed-cpu-${process.pid}`);
const env = { ...process.env, REFRACT_BENCH_CPU: CPU_FILE };

/** The CPU seconds of the processes that exited since the last call (and forgets them). */
export function takeCpuSeconds(): number {
  if (!existsSync(CPU_FILE)) return 0;
  const total = readFileSync(CPU_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line), 0);
  rmSync(CPU_FILE);
  return total;
}

/** Runs `refract ARGS`; rejects on an exit code not in `ok`, with what the command said. */
export async function run(args: readonly string[], ok: readonly number[] = [0]): Promise<void> {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += String(chunk)));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code === null || !ok.includes(code)) throw new Error(`refract ${args.join(' ')}: exit ${code}\n${err}`);
}

export interface WorkProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** SIGTERM once it is connected (a clean stop: chunks in flight finish), then its exit. */
  stop(): Promise<void>;
}

export function startWork(url: string, threads: number, lock = 30, stall = 30): WorkProcess {
  const args = ['batch', 'work', '--queue', url, '--workers', String(threads), '--chunks-in-flight', '2'];
  args.push('--lock', String(lock), '--stall-check', String(stall));
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let err = '';
  const ready = new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: Buffer) => {
      err += String(chunk);
      if (err.includes('worker ready on')) resolve();
    }),
  );
  const exited = once(child, 'exit');
  return {
    child,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await Promise.race([ready, exited]);
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

export function partsIn(results: string): number {
  const dir = join(results, 'parts');
  return existsSync(dir) ? readdirSync(dir).length : 0;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Resolves once every chunk's part is in place. */
export async function completionOf(results: string, chunks: number): Promise<void> {
  while (partsIn(results) < chunks) await tick();
}

/** Chunks `pid` has half-written under tmp/ (part names start with the chunk number). */
function attemptsOf(results: string, pid: number): number[] {
  const dir = join(results, 'tmp');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.includes(`-${pid}-`))
    .map((name) => Number(name.split('-')[0]));
}

/**
 * Kills `doomed` with SIGKILL while it is in the middle of a chunk (after the first parts), and measures the
 * time from the kill until every chunk it was working on has its part (done by another worker).
 */
export async function killMidChunk(results: string, doomed: WorkProcess): Promise<number> {
  while (partsIn(results) < 2 || attemptsOf(results, doomed.pid).length === 0) await tick();
  doomed.child.kill('SIGKILL');
  const killed = performance.now();
  await once(doomed.child, 'exit');
  const interrupted = attemptsOf(results, doomed.pid);
  if (interrupted.length === 0) throw new Error('the kill landed between two chunks: nothing to recover');
  const done = (chunk: number) => existsSync(join(results, 'parts', String(chunk).padStart(6, '0')));
  while (!interrupted.every(done)) await tick();
  return performance.now() - killed;
}
