/**
 * Builds of refract to run side by side: this checkout (compiled into `dist/` first) and an earlier commit,
 * extracted from git by `extractBuild` (sharing this checkout's `node_modules`). A commit that has a build
 * (`tsconfig.build.json`) is compiled there; an older one runs its TypeScript through tsx, as it did.
 * Commands run in child processes, timed from spawn to exit, with their peak RSS (threads included).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractBuild } from './build-ref.ts';
import { ROOT } from './data.ts';

export interface Build {
  /** `previous` or `this`, and the commit. */
  readonly label: string;
  readonly commit: string;
  /** The build's root: its `models/`, `samples/` and `package.json` live there. */
  readonly root: string;
  /** The executable's script (`dist/bin/refract.js`, or `bin/refract.js` for a tsx-run build). */
  readonly bin: string;
  /** The batch worker's entry and, for a TypeScript one, the boot file that registers tsx. */
  readonly worker: { readonly entry: string; readonly boot?: string };
  readonly compiled: boolean;
}

export interface RunResult {
  readonly ms: number;
  /** Peak resident set of the whole process (main thread and workers), in MiB. */
  readonly rssMiB: number;
  /** CPU time of the whole process (user and system, every thread), in ms: what the run cost, whatever
   * else the machine was doing. */
  readonly cpuMs: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function git(args: readonly string[]): string {
  const result = spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

function check(what: string, result: SpawnSyncReturns<string>): void {
  if (result.status !== 0)
    throw new Error(`${what} failed (${result.status}): ${result.stderr}${result.stdout}`);
}

function describeBuild(label: string, commit: string, root: string): Build {
  const compiled = existsSync(join(root, 'tsconfig.build.json'));
  return {
    label,
    commit,
    root,
    bin: join(root, compiled ? 'dist/bin/refract.js' : 'bin/refract.js'),
    worker: compiled
      ? { entry: join(root, 'dist/src/batch/worker.js') }
      : { entry: join(root, 'src/batch/worker.ts'), boot: join(root, 'src/workers/boot.mjs') },
    compiled,
  };
}

/**
 * Builds a build into its `dist/` with its own `npm run build` (from scratch, no output of a removed file;
 * each build as it was built then: compiled only, or compiled with its batch worker bundled).
 */
function compile(root: string): void {
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
  check(`building ${root}`, result);
}

/** This checkout, compiled now. */
export function currentBuild(): Build {
  compile(ROOT);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  return describeBuild('this', `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? '+changes' : ''}`, ROOT);
}

/** An earlier commit, extracted and built there when it has a build. */
export function commitBuild(ref: string): Build {
  const { commit, dir } = extractBuild(ref, '--baseline');
  const build = describeBuild('previous', commit.slice(0, 7), dir);
  if (build.compiled) compile(dir);
  return build;
}

/** A scratch folder for builds, inputs and outputs; `remove` deletes it. */
export function scratch(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'refract-throughput-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Busy and total CPU ticks of the whole machine so far (Linux `/proc/stat`); undefined elsewhere. */
function cpuTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/** Share of the machine's CPU under which it counts as quiet (other people's work on a shared machine). */
const QUIET_SHARE = 0.15;

/**
 * Waits (up to `maxMs`) until the machine has been quiet for a second: on a shared machine other people's
 * test runs come and go, and a run that starts during one measures them as much as refract. True when it
 * got quiet; false after `maxMs` (the run then starts anyway) or where the load cannot be read.
 */
export function waitForQuiet(maxMs = 30_000): boolean {
  const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  const start = Date.now();
  do {
    const before = cpuTicks();
    sleep(1000);
    const after = cpuTicks();
    if (!before || !after || after.total === before.total) return false;
    if ((after.busy - before.busy) / (after.total - before.total) < QUIET_SHARE) return true;
  } while (Date.now() - start < maxMs);
  return false;
}

/** Loaded into each run: writes the process's resource usage when it exits. */
const USAGE_HOOK = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.REFRACT_USAGE_FILE, JSON.stringify(process.resourceUsage())));
`;

/** Runs `refract <args>` of a build in a child process: wall time from spawn to exit, peak RSS, CPU time. */
export function runBuild(build: Build, args: readonly string[], dir: string): RunResult {
  const usageFile = join(dir, 'usage.json');
  const hook = join(dir, 'usage-hook.mjs');
  if (!existsSync(hook)) writeFileSync(hook, USAGE_HOOK);
  rmSync(usageFile, { force: true });
  const start = performance.now();
  const result = spawnSync(process.execPath, ['--import', hook, build.bin, ...args], {
    cwd: build.root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: '', REFRACT_USAGE_FILE: usageFile },
  });
  const ms = performance.now() - start;
  const usage = existsSync(usageFile)
    ? (JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage)
    : { maxRSS: NaN, userCPUTime: NaN, systemCPUTime: NaN };
  return {
    ms,
    rssMiB: usage.maxRSS / 1024,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

/** The script that times worker start-up, run by `workerReadyMs` in a child process. */
const READY_SCRIPT = `
import { Worker } from 'node:worker_threads';
const [entry, boot, data, times] = [process.argv[2], process.argv[3], JSON.parse(process.argv[4]), Number(process.argv[5])];
const out = [];
for (let i = 0; i < times; i++) {
  const start = performance.now();
  const worker = new Worker(boot || entry, { workerData: { entry: 'file://' + entry, data } });
  await new Promise((resolve, reject) => {
    worker.on('message', (m) => m && m.ready && resolve());
    worker.on('error', reject);
  });
  out.push(performance.now() - start);
  await worker.terminate();
}
console.log(JSON.stringify(out));
`;

/**
 * Milliseconds from creating a batch worker of `build` to its ready message, for `times` workers in turn.
 * `data` is what the batch run gives its workers (`WorkerSetup`).
 */
export function workerReadyMs(build: Build, data: object, times: number, dir: string): number[] {
  const script = join(dir, 'worker-ready.mjs');
  writeFileSync(script, READY_SCRIPT);
  const args = [script, build.worker.entry, build.worker.boot ?? '', JSON.stringify(data), String(times)];
  const result = spawnSync(process.execPath, args, {
    cwd: build.root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  check('timing worker start-up', result);
  return JSON.parse(result.stdout) as number[];
}
