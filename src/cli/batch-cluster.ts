/**
 * `refract batch submit|work|status|collect`: the batch run spread over many machines through a BullMQ
 * queue on Redis, next to the single-machine `refract batch FILE`. Exit codes: submit and work 0 (2 on bad
 * input or an unreachable Redis); status 0 complete, 1 not yet; collect as `refract batch` (0 all valid, 1
 * some repaired, 2 errors) and 3 when parts are missing or do not check out (nothing is written then).
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { summaryLine } from '../batch/summary-report.ts';
import {
  batchRequest,
  interruptible,
  prepareSummary,
  recordTimeoutMs,
  statusExitCode,
  writeSummary,
} from './batch-shared.ts';
import { integer, seconds } from '../api/flag-values.ts';
import { addRequestOptions } from './request-flags.ts';
import type { RunStatus } from '../cluster/status.ts';

interface SubmitFlags extends Record<string, unknown> {
  queue: string;
  run: string;
  results: string;
  chunk: string;
  resume?: boolean;
  attempts: string;
  stepByStep?: boolean;
  recordTimeout?: string;
  quiet?: boolean;
}

interface WorkFlags {
  queue: string;
  workers?: string;
  chunksInFlight: string;
  lock: string;
  stallCheck: string;
  maxStalled: string;
  idleExit?: string;
  quiet?: boolean;
}

const MAX_WORKERS = 256;

const note = (quiet: boolean | undefined, line: string) => {
  if (!quiet) process.stderr.write(`refract batch: ${line}\n`);
};

function registerSubmit(batch: Command): void {
  addRequestOptions(
    batch
      .command('submit')
      .description('cut a JSONL file into chunks and put them on a queue for `refract batch work`')
      .argument('<file>', 'records file (JSONL), on a file system every worker reaches')
      .requiredOption('--queue <url>', 'Redis URL, e.g. redis://HOST:6379')
      .requiredOption('--run <name>', 'a name for the run (letters, digits, _ and -)')
      .requiredOption('--results <dir>', 'result directory, on a file system every worker reaches')
      .option('--chunk <n>', 'records per chunk (one queue job each)', '500')
      .option('--resume', 'continue the run in --results: enqueue only the chunks without a result part')
      .option('--attempts <n>', 'tries per chunk before it counts as failed', '3')
      .option('--step-by-step', 'also check each call against the memory the earlier calls leave')
      .option('--record-timeout <seconds>', 'watchdog per record (default max(60, 3 x --timeout))')
      .option('-q, --quiet', 'no report line'),
    'fix',
  ).action(async (file: string, flags: SubmitFlags) => {
    // The request `refract batch` would repair with: bad flags fail before Redis is reached.
    const {
      request,
      settings: { options },
    } = batchRequest(flags);
    // The queue client is loaded on use: every other command starts without it.
    const { submit } = await import('../cluster/submit.ts');
    const report = await submit({
      file,
      url: flags.queue,
      run: flags.run,
      results: flags.results,
      chunkSize: integer('--chunk', flags.chunk, 1, 1_000_000),
      resume: flags.resume ?? false,
      request,
      stepByStep: flags.stepByStep ?? false,
      recordTimeoutMs: recordTimeoutMs(flags.recordTimeout, options.timeout),
      attempts: integer('--attempts', flags.attempts, 1, 100),
    });
    note(
      flags.quiet,
      `run ${flags.run}: ${report.records} records in ${report.chunks} chunks; ` +
        `${report.enqueued} enqueued, ${report.done} already done` +
        (report.held > 0 ? `, ${report.held} still queued or in progress` : ''),
    );
  });
}

function registerWork(batch: Command): void {
  batch
    .command('work')
    .description('repair the chunks of the queue on this machine (run it on every machine)')
    .requiredOption('--queue <url>', 'Redis URL, e.g. redis://HOST:6379')
    .option('--workers <n>', 'worker threads (default: number of cores)')
    .option('--chunks-in-flight <k>', 'chunks worked on at once', '2')
    .option('--lock <seconds>', "a chunk's lock: how long a killed worker's chunks wait", '30')
    .option('--stall-check <seconds>', 'how often to look for chunks whose lock expired', '30')
    .option('--max-stalled <n>', 'times a chunk may stall (its worker died) before it fails', '3')
    .option('--idle-exit <seconds>', 'stop after this long without a chunk (default: run until stopped)')
    .option('-q, --quiet', 'no log lines')
    .action(async (flags: WorkFlags) => {
      const workers =
        flags.workers === undefined
          ? availableParallelism()
          : integer('--workers', flags.workers, 1, MAX_WORKERS);
      // First signal: stop taking chunks and finish those in flight; a second one exits at once.
      const { work } = await import('../cluster/work.ts');
      const { signal, release } = interruptible();
      try {
        const report = await work({
          url: flags.queue,
          workers,
          chunksInFlight: integer('--chunks-in-flight', flags.chunksInFlight, 1, 64),
          lockMs: seconds('--lock', flags.lock) * 1000,
          stallMs: seconds('--stall-check', flags.stallCheck) * 1000,
          maxStalled: integer('--max-stalled', flags.maxStalled, 0, 1000),
          idleExitMs:
            flags.idleExit === undefined ? undefined : seconds('--idle-exit', flags.idleExit) * 1000,
          signal,
          log: (line) => note(flags.quiet, line),
        });
        note(
          flags.quiet,
          `worker done: ${report.written} chunks (${report.records} records) written, ` +
            `${report.duplicates} already done elsewhere, ${report.failed} failed`,
        );
      } finally {
        release();
      }
    });
}

function registerStatus(batch: Command): void {
  batch
    .command('status')
    .description('chunks waiting/active/done/failed, records done, rate and ETA of a run')
    .requiredOption('--queue <url>', 'Redis URL, e.g. redis://HOST:6379')
    .requiredOption('--run <name>', 'the run')
    .option(
      '--watch [seconds]',
      'redraw until the run is complete, or stopped with failed chunks (every 1 s by default)',
    )
    .option('--json', 'print the status as JSON')
    .action(async (flags: { queue: string; run: string; watch?: string | true; json?: boolean }) => {
      const { runStatus, statusLine, statusText, watchStatus } = await import('../cluster/status.ts');
      let status: RunStatus;
      if (flags.watch !== undefined && !flags.json) {
        const every = flags.watch === true ? 1 : seconds('--watch', flags.watch);
        const tty = process.stdout.isTTY === true;
        // Through a Redis restart the progress line stays; each change of the connection gets a line.
        status = await watchStatus({
          url: flags.queue,
          run: flags.run,
          everyMs: every * 1000,
          show: (s) =>
            process.stdout.write(tty ? `\r${statusLine(s, true)}\x1b[K` : `${statusLine(s, false)}\n`),
          log: (line) => {
            if (tty) process.stdout.write('\r\x1b[K');
            process.stderr.write(`refract batch status: ${line}\n`);
          },
        });
        if (tty) process.stdout.write('\r\x1b[K');
      } else status = await runStatus(flags.queue, flags.run);
      process.stdout.write(
        flags.json
          ? JSON.stringify(status, null, 2) + '\n'
          : statusText(status, process.stdout.isTTY === true) + '\n',
      );
      // 3: stopped, nothing more will happen (every chunk done or failed for good) until a person acts.
      process.exitCode = status.complete ? 0 : status.stopped ? 3 : 1;
    });
}

function registerCollect(batch: Command): void {
  batch
    .command('collect')
    .description("join a run's result parts into one output in input order, checked whole")
    .requiredOption('--run <name>', 'the run')
    .requiredOption('--results <dir>', 'the result directory given to submit')
    .requiredOption('-o, --out <file>', 'output JSONL file')
    .option(
      '--summary <file>',
      'write the summary to FILE.json, FILE.md and a chart FILE.svg (+ FILE.vl.json) (default: DIR/summary)',
    )
    .option('--overwrite', 'replace what --out holds (a non-empty --out is refused without it)')
    .option('--queue <url>', 'Redis URL of the run: tells missing chunks still being worked from lost ones')
    .option('-q, --quiet', 'no summary line')
    .action(
      async (flags: {
        run: string;
        results: string;
        out: string;
        summary?: string;
        overwrite?: boolean;
        queue?: string;
        quiet?: boolean;
      }) => {
        const summaryBase = flags.summary ?? `${flags.results}/summary`;
        prepareSummary(summaryBase, [{ flag: '--out', path: flags.out }]);
        const { collect, IncompleteRun } = await import('../cluster/collect.ts');
        let report;
        try {
          report = await collect({
            run: flags.run,
            results: flags.results,
            out: flags.out,
            overwrite: flags.overwrite,
            queue: flags.queue,
          });
        } catch (error) {
          if (!(error instanceof IncompleteRun)) throw error;
          process.stderr.write(`refract batch collect: ${error.message}\n`);
          // A code of its own: nothing is written, where 3 is a written run with a partial repair.
          process.exitCode = 6;
          return;
        }
        await writeSummary(summaryBase, report.summary);
        note(flags.quiet, `${report.chunks} chunks collected; ${summaryLine(report.summary)}`);
        process.exitCode = statusExitCode(report.summary.statuses);
      },
    );
}

/** Adds the distributed subcommands to `refract batch` (registered by `registerBatch`). */
export function registerBatchCluster(program: Command): void {
  const batch = program.commands.find((command) => command.name() === 'batch');
  if (!batch) throw new Error('internal: register the batch command first');
  // Options after a subcommand's name are the subcommand's (`batch submit FILE --catalog …`), not
  // `batch`'s: each command reads only the options before the next command's name.
  program.enablePositionalOptions();
  batch.enablePositionalOptions();
  registerSubmit(batch);
  registerWork(batch);
  registerStatus(batch);
  registerCollect(batch);
}
