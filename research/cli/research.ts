/** `refract sweep` and `refract fit`: tuning the cost model's weights on labelled repairs. */
import { SOLVER_NAMES } from '../../src/solvers/index.ts';
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { figureFiles, figureStem } from '../../src/batch/plot.ts';
import { SET_NAMES, type SetName } from '../bench/data.ts';
import { machine, pageHeader } from '../bench/markdown.ts';
import type { WeightName } from '../../src/model/cost.ts';
import { loadCostModel, withWeights } from '../../src/read/cost-models.ts';
import {
  DEFAULT_CANDIDATES,
  DEFAULT_DATA,
  DEFAULT_ROUNDS,
  EDIT_WEIGHTS,
  fitPage,
  fitWeights,
  golds,
  loadLabelled,
  MAPPING_SOURCES,
  mappingsBySet,
  parseGridAxis,
  parseRange,
  runSweep,
  splitByGold,
  sweepHeatmap,
  sweepJson,
  sweepDescription,
  sweepPage,
  sweepSettings,
  type EvalOptions,
  type SweepSpec,
} from '../tuning/index.ts';
import { collect, integer, oneOf } from '../../src/api/flag-values.ts';

interface DataFlags {
  data?: string[];
  limit?: string;
  kinds?: string;
  costModel: string;
  mappings: string;
  solver: string;
  quiet?: boolean;
}

function addDataOptions(cmd: Command): Command {
  return cmd
    .option('--data <file>', 'labelled JSONL {id, kind, set, gold, sequence} (repeatable)', collect)
    .option('--limit <n>', 'at most n records per set (the first ones)')
    .option('--kinds <list>', 'only these mistake kinds or groups (comma-separated)')
    .option('--cost-model <name|file>', 'base cost model: preset name or JSON file', 'default')
    .option('--mappings <source>', `mapping tables: ${MAPPING_SOURCES.join(' | ')}`, 'none')
    .option('--solver <name>', 'highs | lp-solver | portfolio', 'highs')
    .option('--quiet', 'no progress lines on standard error');
}

function loadData(flags: DataFlags, sets?: readonly SetName[]) {
  const records = loadLabelled(flags.data ?? DEFAULT_DATA, {
    limit: flags.limit === undefined ? undefined : integer('--limit', flags.limit, 1),
    kinds: flags.kinds?.split(',').map((k) => k.trim()),
    sets,
  });
  if (records.length === 0) throw new InputError('--data', 'no records selected');
  const options: EvalOptions = {
    mappingsFor: mappingsBySet(oneOf('--mappings', flags.mappings, MAPPING_SOURCES)),
    solver: oneOf('--solver', flags.solver, SOLVER_NAMES),
  };
  return { records, options, base: loadCostModel(flags.costModel) };
}

const command = () => `refract ${process.argv.slice(2).join(' ')}`;
type Log = (line: string) => void;
const logger = (flags: DataFlags): Log =>
  flags.quiet ? () => {} : (line) => void process.stderr.write(`${line}\n`);
const write = (file: string, text: string, log: Log) => {
  writeFileSync(file, text);
  log(`wrote ${file}`);
};

function number(flag: string, value: string, lo: number, hi: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= lo || n > hi)
    throw new InputError(flag, `expected a number in (${lo}, ${hi}], received ${JSON.stringify(value)}`);
  return n;
}

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
      .description('score weight settings (grid or seeded random) on labelled repairs')
      .option('--grid <name=v1,v2,…>', 'grid values of one weight (repeatable: cartesian product)', collect)
      .option('--random <n>', 'n random settings drawn from the --range flags')
      .option('--range <name=lo:hi>', 'range of one weight for --random (repeatable)', collect)
      .option('--seed <s>', 'seed of the random draws', '1')
      .option('--out <file.md>', 'markdown page (default: the table on standard output)')
      .option('--json <file>', 'all rows as JSON')
      .option('--svg <file>', 'heat-map of the restoration rate (a grid of exactly two weights)'),
  ).action(async (flags: SweepFlags) => {
    const log = logger(flags);
    const spec = sweepSpec(flags);
    const settings = sweepSettings(spec);
    if (flags.svg && !(spec.kind === 'grid' && spec.axes.length === 2))
      throw new InputError('--svg', 'a heat-map needs a --grid of exactly two weights');
    const { records, options, base } = loadData(flags);
    log(`${records.length} records, ${settings.length} settings`);
    const result = await runSweep(records, base, settings, options, log);
    const baseName = base.name ?? flags.costModel;
    if (flags.svg && spec.kind === 'grid') {
      const heat = sweepHeatmap(result, [spec.axes[0], spec.axes[1]], records.length, {
        name: baseName,
        weights: base.weights,
      });
      const files = await figureFiles(figureStem(flags.svg), heat);
      for (const [file, text] of Object.entries(files)) write(file, text, log);
    }
    if (flags.json)
      write(
        flags.json,
        sweepJson(result, {
          command: command(),
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
      files: (flags.data ?? DEFAULT_DATA).map((f) => basename(f)),
      base: baseName,
      mappings: flags.mappings,
      solver: flags.solver,
    });
    const svg =
      flags.svg && flags.out ? relative(dirname(resolve(flags.out)), resolve(flags.svg)) : undefined;
    const page = sweepPage(
      result,
      { header: pageHeader('Weight sweep', machine(), command()), description, svg },
      baseName,
    );
    if (flags.out) write(flags.out, page, log);
    else process.stdout.write(page);
  });
}

function sweepSpec(flags: SweepFlags): SweepSpec {
  if (flags.grid?.length && flags.random !== undefined)
    throw new InputError('--grid', 'give either --grid or --random, not both');
  if (flags.grid?.length) return { kind: 'grid', axes: flags.grid.map(parseGridAxis) };
  if (flags.random === undefined) throw new InputError('--grid', 'give --grid name=v1,v2,… or --random N');
  return {
    kind: 'random',
    count: integer('--random', flags.random, 1, 10_000),
    ranges: (flags.range ?? []).map(parseRange),
    seed: integer('--seed', flags.seed, 0, 2 ** 32 - 1),
  };
}

interface FitFlags extends DataFlags {
  trainSets: string;
  holdoutSets?: string;
  holdout: string;
  epochs: string;
  rate: string;
  seed: string;
  candidates: string;
  rounds: string;
  margin: string;
  learn?: string;
  init: string;
  out?: string;
  report?: string;
}

function setList(flag: string, text: string): SetName[] {
  return text.split(',').map((s) => oneOf(flag, s.trim(), SET_NAMES));
}

export function registerFit(program: Command): void {
  addDataOptions(
    program
      .command('fit')
      .description('learn edit weights from labelled repairs (averaged structured perceptron)')
      .option(
        '--train-sets <list>',
        'sets to train on (a share of their golds is held out)',
        SET_NAMES.join(','),
      )
      .option('--holdout-sets <list>', 'whole sets held out for evaluation only')
      .option('--holdout <fraction>', 'share of the training sets’ golds held out, in [0, 1)', '0.3')
      .option('--epochs <n>', 'passes over the training records', '3')
      .option('--rate <eta>', 'learning rate', '0.1')
      .option('--seed <s>', 'seed of the split and of the record order', '1')
      .option('--candidates <k>', 'repairs searched in cost order for the gold', String(DEFAULT_CANDIDATES))
      .option(
        '--rounds <r>',
        'search rounds with raised weights when the gold is not among the candidates',
        String(DEFAULT_ROUNDS),
      )
      .option('--margin <m>', 'also step on restored records whose best wrong repair is this close', '0')
      .option('--learn <weights>', `weights to fit (default: ${EDIT_WEIGHTS.join(',')})`)
      .option('--init <start>', 'base | flat (every fitted weight starts at 1)', 'base')
      .option('--out <file.json>', 'write the fitted cost model (usable with --cost-model)')
      .option('--report <file.md>', 'markdown report (default: standard output)'),
  ).action(async (flags: FitFlags) => {
    const log = logger(flags);
    const trainSets = setList('--train-sets', flags.trainSets);
    const heldSets = flags.holdoutSets ? setList('--holdout-sets', flags.holdoutSets) : [];
    const fraction = Number(flags.holdout);
    if (!(fraction >= 0 && fraction < 1))
      throw new InputError('--holdout', `expected a fraction in [0, 1), received ${flags.holdout}`);
    const overlap = heldSets.find((s) => trainSets.includes(s));
    if (overlap)
      throw new InputError('--holdout-sets', `${overlap} is also a training set (see --train-sets)`);
    const seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1);
    const learn = flags.learn?.split(',').map((w) => oneOf('--learn', w.trim(), EDIT_WEIGHTS)) as
      WeightName[] | undefined;
    const { records, options, base: loaded } = loadData(flags, [...trainSets, ...heldSets]);
    const start = oneOf('--init', flags.init, ['base', 'flat'] as const);
    const base =
      start === 'flat'
        ? {
            ...withWeights(loaded, Object.fromEntries((learn ?? EDIT_WEIGHTS).map((w) => [w, 1]))),
            name: `${loaded.name ?? 'base'} with every fitted weight at 1`,
          }
        : loaded;
    const split = splitByGold(
      records.filter((r) => trainSets.includes(r.set)),
      fraction,
      seed,
    );
    const evaluation = Object.fromEntries([
      ...(split.heldOut.length ? [['held-out golds', split.heldOut] as const] : []),
      ...heldSets.map((s) => [`${s} (held-out set)`, records.filter((r) => r.set === s)] as const),
    ]);
    log(`train ${split.train.length} records (${golds(split.train)})`);
    const result = await fitWeights(split.train, evaluation, base, {
      ...options,
      epochs: integer('--epochs', flags.epochs, 0, 1000),
      rate: number('--rate', flags.rate, 0, 100),
      seed,
      search: {
        candidates: integer('--candidates', flags.candidates, 1, 100),
        rounds: integer('--rounds', flags.rounds, 0, 10),
      },
      margin: flags.margin === '0' ? 0 : number('--margin', flags.margin, 0, 1000),
      learn,
      log,
    });
    if (flags.out) write(flags.out, `${JSON.stringify(result.model, null, 2)}\n`, log);
    const page = fitPage(result, base, {
      header: pageHeader('Weight fit', machine(), command()),
      train: split.train,
      trainSets,
      evaluation,
      start: base.name ?? flags.costModel,
    });
    if (flags.report) write(flags.report, page, log);
    else process.stdout.write(page);
  });
}
