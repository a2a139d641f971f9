/** `refract coverage`: the share of labelled records whose gold the repair model can express at all. */
import type { Command } from 'commander';
import { machine, pageHeader } from '../bench/markdown.ts';
import { candidateCoverage, coveragePage } from '../tuning/index.ts';
import { addDataOptions, loadData, logger, prepareOutputs, write, type DataFlags } from './data-flags.ts';
import { invocation } from './invocation.ts';

interface CoverageFlags extends DataFlags {
  report?: string;
}

export function registerCoverage(program: Command): void {
  addDataOptions(
    program
      .command('coverage')
      .description(
        'candidate coverage: the labelled records whose gold the model holds (a solve constrained to it)',
      )
      .option('--report <file.md>', 'markdown report (default: standard output)'),
  ).action(async (flags: CoverageFlags, cmd: Command) => {
    const log = logger(flags);
    prepareOutputs(flags, [['--report', flags.report]]);
    const { records, options, base } = loadData(flags);
    const report = await candidateCoverage(records, base, { ...options, log });
    const page = coveragePage(report, pageHeader('Candidate coverage', machine(), invocation(cmd)));
    if (flags.report) write('--report', flags.report, page, log);
    else process.stdout.write(page);
  });
}
