/**
 * What `refract batch` and its distributed subcommands share: the request their flags stand for, the files a
 * batch reads (which its outputs must not be), the summary files, the exit code a batch's statuses give,
 * and the stop signals.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../model/errors.ts';
import type { Summary } from '../batch/summary.ts';
import { summaryMarkdown } from '../batch/summary-report.ts';
import { summaryChart } from '../batch/summary-chart.ts';
import { figureFiles } from '../batch/plot.ts';
import { prepareOutputFile, type ReadFile } from '../batch/out-path.ts';
import { costModelFile } from '../read/cost-models.ts';
import type { ApiRequest } from '../api/request.ts';
import type { Catalog } from '../model/types.ts';
import type { Settings } from '../api/call.ts';
import { resolveRequest } from './request-flags.ts';
import { seconds } from '../api/flag-values.ts';

/**
 * The request a batch's flags stand for, with its catalog (when `--catalog` is given) and its settings:
 * resolved once, before anything is read, written or enqueued, so that a bad flag (a goal the catalog has
 * no API of) is refused first, naming the flag. Every worker resolves the request again.
 */
export function batchRequest(flags: Record<string, unknown>): {
  request: ApiRequest;
  catalog: Catalog | undefined;
  settings: Settings;
} {
  return resolveRequest('fix', flags);
}

/** The files besides the records a batch reads, by flag (`--catalog`, …): no output may be one of them. */
export function readFiles(flags: Record<string, unknown>, request: ApiRequest): ReadFile[] {
  const path = (flag: string, value: unknown) => (typeof value === 'string' ? [{ flag, path: value }] : []);
  return [
    ...path('--catalog', request.catalogPath),
    ...path('--memory', flags.memory),
    ...path('--mappings', flags.mappings),
    ...path('--cost-model', typeof flags.costModel === 'string' ? costModelFile(flags.costModel) : undefined),
  ];
}

const summaryStem = (base: string) => base.replace(/\.(json|md)$/, '');

/**
 * Checks the summary files of `base` before the run (none may be a file the batch reads or its output,
 * given in `reads`) and creates their folder.
 */
export function prepareSummary(base: string, reads: readonly ReadFile[]): void {
  const stem = summaryStem(base);
  for (const ending of ['json', 'md', 'svg', 'vl.json'])
    prepareOutputFile('--summary', `${stem}.${ending}`, reads);
}

/** FILE.json, FILE.md and the chart (FILE.svg with its Vega-Lite spec FILE.vl.json). */
export async function writeSummary(base: string, summary: Summary): Promise<void> {
  const stem = summaryStem(base);
  const chart = await figureFiles(stem, summaryChart(summary));
  try {
    writeFileSync(`${stem}.json`, JSON.stringify(summary, null, 2) + '\n');
    writeFileSync(`${stem}.md`, summaryMarkdown(summary, `${basename(stem)}.svg`));
    for (const [file, text] of Object.entries(chart)) writeFileSync(file, text);
  } catch (error) {
    throw new InputError(
      '--summary',
      `cannot write ${stem}.json/.md/.svg (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/**
 * The exit code of a finished batch: 2 any error, 3 any record repaired only in part (a call had to go),
 * 4 any over the tries limit, 5 any repair held back as uncertain (below --min-confidence), 1 any repaired
 * or timed out, 0 every record valid.
 */
export function statusExitCode(statuses: Summary['statuses']): number {
  if (statuses.error > 0) return 2;
  if (statuses.partial > 0) return 3;
  if (statuses.exhausted > 0) return 4;
  if (statuses.uncertain > 0) return 5;
  return statuses.repaired + statuses.timeout > 0 ? 1 : 0;
}

/** Within this long of the first, another SIGINT or SIGTERM is the same one, relayed by a wrapper process. */
const RELAYED_SIGNAL_MS = 250;

/** First Ctrl-C or SIGTERM aborts the signal (finish what is in hand); a second one exits at once. */
export function interruptible(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  let first = 0;
  const onSignal = () => {
    // A second signal right after the first is one Ctrl-C a wrapper relayed (npm, tsx), not a second press.
    if (controller.signal.aborted) {
      if (performance.now() - first >= RELAYED_SIGNAL_MS) process.exit(130);
      return;
    }
    first = performance.now();
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const off = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  return {
    signal: controller.signal,
    // A run stopped by a signal keeps its handler until the process ends (it is about to), and the process
    // lives on until the relay window has passed: a relayed copy that comes after a fast stop, or while the
    // process is going down, would otherwise end it by the signal's default action instead of exit 130.
    release: () => {
      if (!controller.signal.aborted) return off();
      setTimeout(() => {}, Math.max(0, first + RELAYED_SIGNAL_MS - performance.now()));
    },
  };
}

/**
 * The shortest record watchdog: it also counts a worker's start and its catalog's first reading, and each
 * repair's deadline comes a fifth of it (up to a second) earlier, so a shorter one fails every record.
 */
const MIN_RECORD_TIMEOUT_S = 1;

/** `--record-timeout` in ms (default `max(60, 3 × --timeout)` s): the watchdog must leave the solver its own limit. */
export function recordTimeoutMs(given: string | undefined, solveSeconds: number | undefined): number {
  if (given === undefined) return Math.max(60, 3 * (solveSeconds ?? 10)) * 1000;
  const s = seconds('--record-timeout', given);
  if (s < MIN_RECORD_TIMEOUT_S)
    throw new InputError(
      '--record-timeout',
      `expected at least ${MIN_RECORD_TIMEOUT_S} s, received ${JSON.stringify(given)}: the watchdog also counts a worker's start`,
    );
  return s * 1000;
}
