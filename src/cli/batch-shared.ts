/** What `refract batch` and its distributed subcommands share: the summary files and the stop signals. */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../model/errors.ts';
import type { Summary } from '../batch/summary.ts';
import { summaryMarkdown } from '../batch/summary-report.ts';
import { summaryChart } from '../batch/summary-chart.ts';
import { figureFiles } from '../batch/plot.ts';

/** FILE.json, FILE.md and the chart (FILE.svg with its Vega-Lite spec FILE.vl.json). */
export async function writeSummary(base: string, summary: Summary): Promise<void> {
  const stem = base.replace(/\.(json|md)$/, '');
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
