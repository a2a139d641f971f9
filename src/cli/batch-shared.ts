/** What `refract batch` and its distributed subcommands share: the summary files and the stop signals. */
import { writeFileSync } from 'node:fs';
import { InputError } from '../model/errors.ts';
import type { Summary } from '../batch/summary.ts';
import { summaryMarkdown } from '../batch/summary-report.ts';

/** Writes `BASE.json` and `BASE.md` (a `.json`/`.md` ending of `base` is dropped first). */
export function writeSummary(base: string, summary: Summary): void {
  const stem = base.replace(/\.(json|md)$/, '');
  try {
    writeFileSync(`${stem}.json`, JSON.stringify(summary, null, 2) + '\n');
    writeFileSync(`${stem}.md`, summaryMarkdown(summary));
  } catch (error) {
    throw new InputError(
      '--summary',
      `cannot write ${stem}.json/.md (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** First Ctrl-C or SIGTERM aborts the signal (finish what is in hand); a second one exits at once. */
export function interruptible(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
