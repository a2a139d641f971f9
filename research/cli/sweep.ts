/** `refract sweep`: score settings (weights and candidate generation) of the cost model on labelled repairs. */
import type { Command } from 'commander';
import { basename, dirname, relative, resolve } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { figureFiles, figureStem } from '../../src/batch/plot.ts';
import { collect, integer } from '../../src/api/flag-values.ts';
import { machine, pageHeader } from '../bench/markdown.ts';
import {
  parseGridAxis,
  parseRange,
  runSweep,
  sweepChart,
  sweepDescription,
  sweepJson,
  sweepPage,
  sweepSettings,
  type SweepSpec,
} from '../tuning/index.ts';
import {
  addDataOptions,
  dataFiles,
  loadData,
  logger,
  prepareOutputs,
  write,
  type DataFlags,
} from './data-flags.ts';
import { invocation } from './invocation.ts';

interface SweepFlags extends DataFlags {
  grid?: string[];
  random?: string;
  range?: string[];
  seed: string;
  out?: string;
  json?: string;
  svg?: string;
}

export function registerSweep(program: Command): void {
  addDataOptions(
    program
      .command('sweep')
      .description('score cost-model settings (grid or seeded random) on labelled repairs')
      .option(
        '--grid <name=v1,v2,…>',
        'values of one weight or candidate setting (repeatable: cartesian product)',
        collect,
      )
      .option('--random <n>', 'n random settings drawn from the --range flags')
      .option(
        '--range <name=lo:hi>',
        'range of one weight or candidate setting for --random (repeatable)',
        collect,
      )
      .option('--seed <s>', 'seed of the random draws', '1')
      .option('--out <file.md>', 'markdown page (default: the page on standard output)')
      .option('--json <file>', 'every row, and every record under every setting, as JSON')
      .option('--svg <file>', 'chart (a heat-map for a two-setting grid), with its Vega-Lite spec beside it'),
  ).action(async (flags: SweepFlags, cmd: Command) => {
    const log = logger(flags);
    const spec = sweepSpec(flags);
    const settings = sweepSettings(spec);
    const svgStem = flags.svg ? figureStem(flags.svg) : undefined;
    prepareOutputs(flags, [
      ['--out', flags.out],
      ['--json', flags.json],
      ['--svg', svgStem && `${svgStem}.svg`],
      ['--svg', svgStem && `${svgStem}.vl.json`],
    ]);
    const { records, options, base } = loadData(flags);
    log(`${records.length} records, ${settings.length} settings and the base`);
    const result = await runSweep(records, base, settings, options, log);
    const baseName = base.name ?? flags.costModel;
    if (flags.svg) {
      const files = await figureFiles(figureStem(flags.svg), sweepChart(result, spec, base, baseName));
      for (const [file, text] of Object.entries(files)) write('--svg', file, text, log);
    }
    if (flags.json)
      write(
        '--json',
        flags.json,
        sweepJson(result, {
          command: invocation(cmd),
          base: baseName,
          data: flags.data ?? [],
          records: records.length,
        }),
        log,
      );
    const description = sweepDescription({
      records: records.length,
      limit: flags.limit,
      kinds: flags.kinds,
      files: dataFiles(flags).map((f) => basename(f)),
      base: baseName,
      mappings: flags.mappings,
      solver: flags.solver,
    });
    const pageDir = flags.out ? dirname(resolve(flags.out)) : process.cwd();
    const svg = flags.svg ? relative(pageDir, resolve(flags.svg)) : undefined;
    const page = sweepPage(
      result,
      { header: pageHeader('Cost-model sweep', machine(), invocation(cmd)), description, svg },
      baseName,
    );
    if (flags.out) write('--out', flags.out, page, log);
    else process.stdout.write(page);
  });
}

function sweepSpec(flags: SweepFlags): SweepSpec {
  // Checked whether or not it is used: a bad value is a mistake either way.
  const seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1);
  if (flags.grid?.length && flags.random !== undefined)
    throw new InputError('--grid', 'give either --grid or --random, not both');
  if (flags.grid?.length) {
    // A grid draws nothing: the ranges of random settings would be ignored in silence.
    if (flags.range?.length) throw new InputError('--range', 'applies to --random, not to --grid');
    return { kind: 'grid', axes: flags.grid.map(parseGridAxis) };
  }
  if (flags.random === undefined) throw new InputError('--grid', 'give --grid name=v1,v2,… or --random N');
  return {
    kind: 'random',
    count: integer('--random', flags.random, 1, 10_000),
    ranges: (flags.range ?? []).map(parseRange),
    seed,
  };
}
