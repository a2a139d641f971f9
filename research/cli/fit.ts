/** `refract fit`: learn the edit weights of the cost model from labelled repairs. */
import type { Command } from 'commander';
import { InputError } from '../../src/model/errors.ts';
import type { WeightName } from '../../src/model/cost.ts';
import { withWeights } from '../../src/read/cost-models.ts';
import { integer, oneOf } from '../../src/api/flag-values.ts';
import { machine, pageHeader } from '../bench/markdown.ts';
import {
  DEFAULT_CANDIDATES,
  DEFAULT_ROUNDS,
  EDIT_WEIGHTS,
  fitPage,
  fitWeights,
  golds,
  splitByGold,
} from '../tuning/index.ts';
import {
  addDataOptions,
  loadData,
  logger,
  number,
  prepareOutputs,
  write,
  type DataFlags,
} from './data-flags.ts';
import { invocation } from './invocation.ts';

interface FitFlags extends DataFlags {
  trainSets?: string;
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

/** `a,b` → set names, each one a set the data has. */
function setList(flag: string, text: string, known: readonly string[]): string[] {
  return text.split(',').map((s) => oneOf(flag, s.trim(), known));
}

export function registerFit(program: Command): void {
  addDataOptions(
    program
      .command('fit')
      .description('learn edit weights from labelled repairs (averaged structured perceptron)')
      .option(
        '--train-sets <list>',
        'sets to train on (a share of their golds is held out; default: every set)',
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
  ).action(async (flags: FitFlags, cmd: Command) => {
    const log = logger(flags);
    const fraction = Number(flags.holdout);
    if (!(fraction >= 0 && fraction < 1))
      throw new InputError('--holdout', `expected a fraction in [0, 1), received ${flags.holdout}`);
    const seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1);
    const learn = flags.learn?.split(',').map((w) => oneOf('--learn', w.trim(), EDIT_WEIGHTS)) as
      WeightName[] | undefined;
    const start = oneOf('--init', flags.init, ['base', 'flat'] as const);
    prepareOutputs(flags, [
      ['--out', flags.out],
      ['--report', flags.report],
    ]);
    const { records, options, base: loaded } = loadData(flags);
    const sets = [...new Set(records.map((r) => r.set))];
    const heldSets = flags.holdoutSets ? setList('--holdout-sets', flags.holdoutSets, sets) : [];
    const trainSets = flags.trainSets
      ? setList('--train-sets', flags.trainSets, sets)
      : sets.filter((s) => !heldSets.includes(s));
    const overlap = heldSets.find((s) => trainSets.includes(s));
    if (overlap)
      throw new InputError('--holdout-sets', `${overlap} is also a training set (see --train-sets)`);
    if (trainSets.length === 0) throw new InputError('--train-sets', 'no set left to train on');
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
    if (flags.out) write('--out', flags.out, `${JSON.stringify(result.model, null, 2)}\n`, log);
    const page = fitPage(result, base, {
      header: pageHeader('Weight fit', machine(), invocation(cmd)),
      train: split.train,
      trainSets,
      evaluation,
      start: base.name ?? flags.costModel,
    });
    if (flags.report) write('--report', flags.report, page, log);
    else process.stdout.write(page);
  });
}
