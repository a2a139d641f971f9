/**
 * `refract bench`: the benchmark suite (the same code as `npm run bench`), writing its result pages into a
 * folder of the current directory. With `--data`, a solver study on the models of any records file.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import { readableFile } from '../../src/read/files.ts';
import { SOLVER_NAMES, type SolverName } from '../../src/model/constants.ts';
import { collect, integer, oneOf, seconds } from '../../src/api/flag-values.ts';
import { BENCHMARKS, parseOnly, runBench } from '../bench/suite.ts';
import { loadLabelled } from '../tuning/dataset.ts';
import { invocation } from './invocation.ts';

/** The default output folder, relative to the current directory. */
export const BENCH_OUT = 'refract-bench';

interface Flags {
  quick?: boolean;
  only?: string;
  out: string;
  solvers?: string;
  repeat?: string;
  timeLimit?: string;
  synthetic?: string;
  data?: string[];
  catalog?: string;
  overwrite?: boolean;
}

/**
 * `--out`: a folder that is new, empty, or an earlier run's pages (its index opens with `# Benchmark
 * results`); any other folder's files are not replaced without `--overwrite`. Created here, so that a path
 * that cannot be a folder is one line before the benchmarks run.
 */
export function prepareBenchOut(dir: string, overwrite: boolean): void {
  let info;
  try {
    info = statSync(dir);
  } catch {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new InputError('--out', `cannot create the folder ${dir} (${code})`);
    }
    return;
  }
  if (!info.isDirectory()) throw new InputError('--out', `${dir} is not a folder`);
  if (overwrite || readdirSync(dir).length === 0) return;
  const index = join(dir, 'README.md');
  const earlier = existsSync(index) && readFileSync(index, 'utf8').startsWith('# Benchmark results');
  if (!earlier)
    throw new InputError(
      '--out',
      `${dir} holds files that are no earlier benchmark's pages: give a new or empty folder, or add --overwrite to write into it`,
    );
}

export function parseSolvers(text: string): SolverName[] {
  const names = text.split(',').map((s) => oneOf('--solvers', s.trim(), SOLVER_NAMES));
  if (new Set(names).size !== names.length)
    throw new InputError('--solvers', `a solver is named twice in ${text}`);
  return names;
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the benchmarks and write their result pages (markdown, SVG and Vega-Lite specs)')
    .option('--quick', 'a small subset of every benchmark (a minute or two)')
    .option('--only <names>', `comma-separated: ${BENCHMARKS.join(', ')}`)
    .option('--out <dir>', 'folder for the pages (created in the current directory)', BENCH_OUT)
    .option('--solvers <list>', `backends to compare: ${SOLVER_NAMES.join(',')} (default: all)`)
    .option('--repeat <n>', 'solves per model and backend in the solver study (default 3; quick: 1)')
    .option('--time-limit <seconds>', 'per solve in the solver study (default 20; quick: 5)')
    .option('--synthetic <vars>', 'largest synthetic model of the solver study, 0 for none (default 10000)')
    .option('--data <file>', 'solver study on the models of these records (JSONL, repeatable)', collect)
    .option('-c, --catalog <file>', 'catalog of the --data records that bring none of their own')
    .option('--overwrite', 'write into an --out folder that holds other files than an earlier run’s pages')
    .action(async (flags: Flags, cmd: Command) => {
      let only = flags.only === undefined ? undefined : parseOnly(flags.only);
      if (flags.data?.length) {
        if (only && only.some((b) => b !== 'solvers'))
          throw new InputError('--data', 'applies to the solvers benchmark only (use --only solvers)');
        only = ['solvers'];
      } else if (flags.catalog) throw new InputError('--catalog', 'applies to --data records only');
      const catalog = flags.catalog ? loadCatalog(readableFile('--catalog', flags.catalog)) : undefined;
      const records = flags.data?.length
        ? loadLabelled(flags.data, { catalog, requireGold: false })
        : undefined;
      if (records?.length === 0) throw new InputError('--data', 'no records in the given files');
      prepareBenchOut(resolve(flags.out), flags.overwrite === true);
      const files = await runBench({
        quick: flags.quick ?? false,
        only,
        out: resolve(flags.out),
        log: (line) => process.stderr.write(`${line}\n`),
        command: invocation(cmd),
        solvers: flags.solvers === undefined ? undefined : parseSolvers(flags.solvers),
        study: {
          ...(flags.repeat !== undefined ? { repeat: integer('--repeat', flags.repeat, 1, 100) } : {}),
          ...(flags.timeLimit !== undefined ? { timeLimit: seconds('--time-limit', flags.timeLimit) } : {}),
          ...(flags.synthetic !== undefined
            ? { familyMaxVars: integer('--synthetic', flags.synthetic, 0, 100_000) }
            : {}),
          ...(records ? { data: { files: flags.data!, records } } : {}),
        },
      });
      for (const file of files) process.stdout.write(`${file}\n`);
    });
}
