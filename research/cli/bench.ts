/** `refract bench`: the benchmark suite (the same code as `npm run bench`), writing its result pages. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { BENCHMARKS, DEFAULT_OUT, parseOnly, runBench } from '../bench/suite.ts';

interface Flags {
  quick?: boolean;
  only?: string;
  out?: string;
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the benchmarks and write their result pages (markdown and SVG)')
    .option('--quick', 'a small subset of every benchmark (well under a minute)')
    .option('--only <names>', `comma-separated: ${BENCHMARKS.join(', ')}`)
    .option('--out <dir>', 'folder for the pages', DEFAULT_OUT)
    .action(async (flags: Flags) => {
      const only = flags.only === undefined ? undefined : parseOnly(flags.only);
      const files = await runBench({
        quick: flags.quick ?? false,
        only,
        out: resolve(flags.out ?? DEFAULT_OUT),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      for (const file of files) process.stdout.write(`${file}\n`);
    });
}
