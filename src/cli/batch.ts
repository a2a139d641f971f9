/**
 * `refract batch`: repair a large dataset of records on all cores, one JSON line per record in input
 * order. Exit codes: 0 all valid, 1 some repaired (or timed out), 2 input or internal errors, 130 when
 * interrupted (rerun with --resume to finish).
 */
import { createReadStream, openSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { InputError } from '../model/errors.ts';
import { createProgress } from '../batch/progress.ts';
import { runBatch, type BatchReport } from '../batch/run.ts';
import { summaryLine } from '../batch/summary-report.ts';
import {
  batchRequest,
  interruptible,
  recordTimeoutMs,
  prepareSummary,
  readFiles,
  statusExitCode,
  writeSummary,
} from './batch-shared.ts';
import { integer } from '../api/flag-values.ts';
import { addRequestOptions } from './request-flags.ts';
import { recordBase } from './input.ts';

interface Flags extends Record<string, unknown> {
  out?: string;
  workers?: string;
  resume?: boolean;
  overwrite?: boolean;
  quiet?: boolean;
  summary?: string;
  stepByStep?: boolean;
  recordTimeout?: string;
}

const MAX_WORKERS = 256;

function openInput(file: string | undefined): { stream: NodeJS.ReadableStream; path?: string } {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY)
      throw new InputError('input', 'no input file given and standard input is a terminal');
    return { stream: process.stdin };
  }
  let fd: number;
  try {
    if (statSync(file).isDirectory()) throw new InputError('input', `${file} is a directory`);
    // Opened now: a file the run refuses to start on is closed with its stream, never opened later.
    fd = openSync(file, 'r');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      'input',
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return { stream: createReadStream(file, { fd }), path: file };
}

function exitCode(report: BatchReport): number {
  if (report.interrupted) return 130;
  return statusExitCode(report.summary.statuses);
}

export function registerBatch(program: Command): void {
  addRequestOptions(
    program
      .command('batch')
      .description('repair a large dataset of records (JSONL or a NESTFUL data array) on all cores')
      .argument('[file]', 'records file (default: standard input)')
      .option('-o, --out <file>', 'output JSONL file (default: standard output)')
      .option('--workers <n>', 'worker threads (default: number of cores)')
      .option('--resume', 'keep the results --out already holds and append the rest')
      .option(
        '--overwrite',
        'replace what --out holds (without it or --resume, a non-empty --out is refused)',
      )
      .option('-q, --quiet', 'no progress and no summary line')
      .option(
        '--summary <file>',
        'write a summary to FILE.json, FILE.md and a chart FILE.svg (+ FILE.vl.json)',
      )
      .option('--step-by-step', 'also check each call against the memory the earlier calls leave')
      .option('--record-timeout <seconds>', 'watchdog per record (default max(60, 3 x --timeout))'),
    'fix',
  ).action(async (file: string | undefined, flags: Flags) => {
    const {
      request,
      settings: { options },
    } = batchRequest(flags);
    const workers =
      flags.workers === undefined
        ? availableParallelism()
        : integer('--workers', flags.workers, 1, MAX_WORKERS);
    const timeoutMs = recordTimeoutMs(flags.recordTimeout, options.timeout);
    if (flags.resume && flags.overwrite)
      throw new InputError('--overwrite', 'give either --resume or --overwrite, not both');
    const input = openInput(file);
    const reads = readFiles(flags, request);
    // Before any work: a summary must not land on a file the run reads or writes, nor in a missing folder.
    if (flags.summary) {
      const inputFile = { flag: 'input', ...(input.path ? { path: input.path } : { fd: 0 }) };
      const out = flags.out ? [{ flag: '--out', path: flags.out }] : [];
      prepareSummary(flags.summary, [inputFile, ...reads, ...out]);
    }
    const progress = createProgress(process.stderr, { quiet: flags.quiet });
    const { signal, release } = interruptible();
    let report: BatchReport;
    try {
      report = await runBatch({
        input: input.stream,
        inputPath: input.path,
        recordBase: recordBase(input.path),
        out: flags.out,
        request,
        workers,
        resume: flags.resume,
        overwrite: flags.overwrite,
        reads,
        stepByStep: flags.stepByStep,
        stampSettings: true,
        recordTimeoutMs: timeoutMs,
        progress,
        signal,
      });
    } finally {
      release();
    }
    if (flags.summary) await writeSummary(flags.summary, report.summary);
    if (!flags.quiet) {
      const note = report.interrupted ? ' (interrupted: rerun with --resume to finish)' : '';
      process.stderr.write(`refract batch: ${summaryLine(report.summary)}${note}\n`);
    }
    process.exitCode = exitCode(report);
  });
}
