/** `refract fit`: learn the weights of the cost model from labelled repairs. */
import type { Command } from 'commander';
import { InputError } from '../../src/model/errors.ts';
import { FEATURE_NAMES, type FeatureName } from '../../src/model/features.ts';
import { withWeights } from '../../src/read/cost-models.ts';
import { integer, oneOf } from '../../src/api/flag-values.ts';
import { EVIDENCE_SETS } from '../../src/confidence/fit.ts';
import { machine, pageHeader } from '../bench/markdown.ts';
import {
  FIT_METHODS,
  LEARNED,
  calibrateModel,
  calibrationOn,
  calibrationTable,
  collectSamples,
  LINE_FIT_DEFAULTS,
  crossValidate,
  crossValidationSection,
  fitPage,
  fitWeights,
  golds,
  goldCount,
  splitByGold,
  type LabelledSample,
} from '../tuning/index.ts';
import {
  addDataOptions,
  evidenceSet,
  loadData,
  logger,
  nonNegative,
  number,
  prepareOutputs,
  write,
  modelName,
  type DataFlags,
} from './data-flags.ts';
import { invocation } from './invocation.ts';

interface FitFlags extends DataFlags {
  method: string;
  rounds: string;
  sweeps: string;
  minGain: string;
  guard: boolean;
  guardSlack: string;
  reach: string;
  probe: string;
  trainSets?: string;
  holdoutSets?: string;
  holdout: string;
  epochs: string;
  rate: string;
  seed: string;
  lambda: string;
  margin?: string;
  folds?: string;
  learn?: string;
  init: string;
  out?: string;
  report?: string;
  calibrate?: boolean;
  calibrationEvidence?: string;
}

/** `a,b` → set names, each one a set the data has. */
function setList(flag: string, text: string, known: readonly string[]): string[] {
  return text.split(',').map((s) => oneOf(flag, s.trim(), known));
}

/** `minGain` → `--min-gain`. */
const flagName = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function registerFit(program: Command): void {
  addDataOptions(
    program
      .command('fit')
      .description(
        'learn the cost model’s weights from labelled repairs (minimum-error-rate training, or a perceptron)',
      )
      .option(
        '--method <name>',
        'mert (the training score itself, by exact line searches over pooled repairs) | perceptron',
        'mert',
      )
      .option(
        '--train-sets <list>',
        'sets to train on (a share of their golds is held out; default: every set)',
      )
      .option('--holdout-sets <list>', 'whole sets held out for evaluation only')
      .option(
        '--holdout <fraction>',
        'chance each gold of the training sets is held out (seeded), in [0, 1)',
        '0.3',
      )
      .option('--rounds <n>', 'mert: solve-and-search rounds at most', String(LINE_FIT_DEFAULTS.rounds))
      .option('--sweeps <n>', 'mert: sweeps over the weights per round', String(LINE_FIT_DEFAULTS.sweeps))
      .option(
        '--min-gain <g>',
        'mert: least gain of the training score (each set weighing the same) for a weight to move',
        String(LINE_FIT_DEFAULTS.minGain),
      )
      .option('--no-guard', 'mert: let a move cost a training set some of its restored records')
      .option(
        '--guard-slack <share>',
        'mert: the share of a training set’s records it may lose under the guard',
        String(LINE_FIT_DEFAULTS.guardSlack),
      )
      .option(
        '--probe <w>',
        'mert: weight of every near-ban (above 50) in a first pass that pools what lifting it allows (0: none)',
        String(LINE_FIT_DEFAULTS.probe),
      )
      .option(
        '--reach <r>',
        'mert: how far a weight may move in one round, from w/r − ½ to r·(w + ½) (a wider reach sees gains far from the start)',
        String(LINE_FIT_DEFAULTS.reach),
      )
      .option('--epochs <n>', 'perceptron: passes over the training records', '3')
      .option('--rate <eta>', 'perceptron: learning rate', '0.1')
      .option('--seed <s>', 'seed of the split and of the record order', '1')
      .option(
        '--lambda <l>',
        'perceptron: pull towards the starting weights after every step, in [0, 1)',
        '0.02',
      )
      .option(
        '--margin <m>',
        `margin of the loss-augmented solve per contradicted decision (mert: its rival, default ${LINE_FIT_DEFAULTS.margin}; perceptron: step also where a point within m misses the gold, default 0)`,
      )
      .option('--folds <k>', 'also cross-validate: k folds of the training golds, each fitted on the others')
      .option(
        '--learn <features>',
        'features whose weights to fit (default: every edit and evidence feature)',
      )
      .option('--init <start>', 'base | flat (every fitted weight starts at 1)', 'base')
      .option('--out <file.json>', 'write the fitted cost model (usable with --cost-model)')
      .option(
        '--calibrate',
        'also fit the confidence calibration of the fitted weights on the training records (as refract calibrate): --out carries it, the report measures it on the held-out records',
      )
      .option(
        '--calibration-evidence <set>',
        `with --calibrate, the evidence the calibration reads: ${EVIDENCE_SETS.join(' | ')} (as refract calibrate --evidence)`,
      )
      .option('--report <file.md>', 'markdown report (default: standard output)'),
  ).action(async (flags: FitFlags, cmd: Command) => {
    const log = logger(flags);
    // Checked before the fit, which can take minutes.
    if (flags.calibrationEvidence !== undefined && !flags.calibrate)
      throw new InputError('--calibration-evidence', 'needs --calibrate');
    const calibrationEvidence = evidenceSet('--calibration-evidence', flags.calibrationEvidence ?? 'core');
    const fraction = Number(flags.holdout);
    if (flags.holdout.trim() === '' || !(fraction >= 0 && fraction < 1))
      throw new InputError(
        '--holdout',
        `expected a fraction in [0, 1), received ${JSON.stringify(flags.holdout)}`,
      );
    const seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1);
    const learn = flags.learn?.split(',').map((w) => oneOf('--learn', w.trim(), FEATURE_NAMES)) as
      FeatureName[] | undefined;
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
            ...withWeights(loaded, Object.fromEntries((learn ?? LEARNED).map((w) => [w, 1]))),
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
    if (split.train.length === 0)
      throw new InputError(
        '--holdout',
        `no training record is left (${golds(records)}, every one held out): lower --holdout or add records`,
      );
    const folds = flags.folds === undefined ? undefined : integer('--folds', flags.folds, 2, 20);
    // A fold is a gold or more: more folds than training golds would leave some empty.
    if (folds !== undefined && folds > goldCount(split.train))
      throw new InputError(
        '--folds',
        `${folds} folds of ${golds(split.train)}: at most one fold per training gold`,
      );
    const method = oneOf('--method', flags.method, FIT_METHODS);
    // A flag of the other method, or a guard's slack without the guard, would be ignored in silence.
    const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
    const onlyFor = {
      mert: ['rounds', 'sweeps', 'minGain', 'guardSlack', 'probe', 'reach'],
      perceptron: ['epochs', 'rate', 'lambda'],
    } as const;
    for (const other of FIT_METHODS.filter((m) => m !== method))
      for (const name of onlyFor[other as keyof typeof onlyFor] ?? [])
        if (given(name))
          throw new InputError(flagName(name), `applies to --method ${other} only (this fit is ${method})`);
    if (!flags.guard && given('guardSlack'))
      throw new InputError('--guard-slack', 'applies to the guard, which --no-guard turns off');
    const margin = flags.margin === undefined ? undefined : nonNegative('--margin', flags.margin, 100);
    const fitOptions = {
      ...options,
      method,
      mert: {
        rounds: integer('--rounds', flags.rounds, 0, 100),
        sweeps: integer('--sweeps', flags.sweeps, 1, 100),
        minGain: nonNegative('--min-gain', flags.minGain, 1),
        guard: flags.guard,
        guardSlack: nonNegative('--guard-slack', flags.guardSlack, 1),
        probe: nonNegative('--probe', flags.probe, 50),
        reach: number('--reach', flags.reach, 1, 1000),
        margin: margin ?? LINE_FIT_DEFAULTS.margin,
      },
      epochs: integer('--epochs', flags.epochs, 0, 1000),
      rate: number('--rate', flags.rate, 0, 100),
      seed,
      lambda: number('--lambda', flags.lambda, 0, 0.999),
      margin: margin ?? 0,
      learn,
      log,
    };
    const result = await fitWeights(split.train, evaluation, base, fitOptions);
    const cv = folds === undefined ? undefined : await crossValidate(split.train, base, folds, fitOptions);
    // A calibration belongs to the weights it was fitted under: the base's does not carry over.
    let model = result.model;
    let calibrated: string[] = [];
    if (flags.calibrate) {
      const calibration = await calibrateModel(split.train, model, {
        ...options,
        log,
        evidence: calibrationEvidence,
      });
      if (!calibration)
        throw new InputError('--calibrate', 'no training record was repaired: nothing to calibrate on');
      model = { ...model, calibration };
      // Fix 1's confidence alone is measured: the held-out repairs need no alternatives.
      const held: Record<string, LabelledSample[]> = {};
      for (const [name, records] of Object.entries(evaluation))
        held[name] = await collectSamples(records, model, { ...options, log });
      calibrated = [
        '### Confidence of the fitted weights (calibrated on the training records)',
        '',
        ...calibrationTable(calibrationOn(calibration, held), 'records'),
        '',
      ];
    } else if (flags.out)
      log(
        `${flags.out} carries no calibration (a calibration belongs to its weights): its repairs have no confidence; add --calibrate, or run refract calibrate --cost-model ${flags.out}`,
      );
    // Named after its file: a fitted model is not the shipped `fitted` preset, and pages say which one ran.
    if (flags.out) model = { ...model, name: modelName(flags.out) };
    if (flags.out) write('--out', flags.out, `${JSON.stringify(model, null, 2)}\n`, log);
    const page = fitPage(result, base, {
      header: pageHeader('Weight fit', machine(), invocation(cmd)),
      train: split.train,
      trainSets,
      evaluation,
      start: base.name ?? flags.costModel,
    });
    const withCalibration = calibrated.length === 0 ? page : `${page}\n${calibrated.join('\n')}`;
    const full =
      cv === undefined ? withCalibration : `${withCalibration}\n${crossValidationSection(cv, folds!)}`;
    if (flags.report) write('--report', flags.report, full, log);
    else process.stdout.write(full);
  });
}
