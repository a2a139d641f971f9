/** `refract calibrate`: fits the mapping from a repair's evidence to its confidence on labelled records. */
import type { Command } from 'commander';
import { machine, pageHeader } from '../bench/markdown.ts';
import { calibrate, calibrationPage, collectSamples } from '../tuning/index.ts';
import {
  addDataOptions,
  evidenceSet,
  loadData,
  nonNegative,
  logger,
  prepareOutputs,
  write,
  modelName,
  type DataFlags,
} from './data-flags.ts';
import { invocation } from './invocation.ts';
import { InputError } from '../../src/model/errors.ts';
import { integer } from '../../src/api/flag-values.ts';
import { EVIDENCE_SETS } from '../../src/confidence/fit.ts';
import { DEFAULT_ALTERNATIVES, DEFAULT_REFITS } from '../tuning/index.ts';

/** The most alternatives per record a calibration collects (each is one more solve). */
const MAX_ALTERNATIVES = 10;

/** The strongest L2 penalty `--l2` takes (far past any that leaves the evidence a say). */
const MAX_L2 = 1e6;

/** The most refits per held-out world (each is one more fit per world). */
const MAX_REFITS = 1000;

interface CalibrateFlags extends DataFlags {
  out?: string;
  modelOut?: string;
  report?: string;
  l2: string;
  evidence: string;
  alternatives: string;
  refits: string;
}

/** Right or wrong repairs below this many: the calibration is written with a warning that it is rough. */
const FEW = 20;

export function registerCalibrate(program: Command): void {
  addDataOptions(
    program
      .command('calibrate')
      .description('fit the confidence calibration (logistic + isotonic) on labelled records')
      .option('--out <calib.json>', 'the calibration (the cost model’s `calibration` field)')
      .option(
        '--model-out <file.json>',
        'the base cost model with this calibration in it (--out, --model-out or both)',
      )
      .option('--report <file.md>', 'markdown report: each world held out, reliability bins')
      .option('--l2 <x>', 'L2 penalty on the standardised logistic coefficients', '1')
      .option(
        '--evidence <set>',
        `evidence the score reads: ${EVIDENCE_SETS.join(' | ')} (form adds whether every edit is of form, kinds edit-kind counts too, all feature totals too)`,
        'core',
      )
      .option(
        '--alternatives <k>',
        'alternatives (fix 2, 3, …) per record to fit the `fixes` confidence on; 0 fits none',
        String(DEFAULT_ALTERNATIVES),
      )
      .option(
        '--refits <n>',
        'with records of two worlds or more: each held-out world scored again under n calibrations fitted on resampled plans of the others (how far its ECE moves); 0 skips',
        String(DEFAULT_REFITS),
      ),
  ).action(async (flags: CalibrateFlags, cmd: Command) => {
    const log = logger(flags);
    if (flags.out === undefined && flags.modelOut === undefined)
      throw new InputError(
        '--out',
        'give --out (the calibration), --model-out (a cost model carrying it) or both',
      );
    prepareOutputs(flags, [
      ['--out', flags.out],
      ['--model-out', flags.modelOut],
      ['--report', flags.report],
    ]);
    const l2 = nonNegative('--l2', flags.l2, MAX_L2);
    const evidence = evidenceSet('--evidence', flags.evidence);
    const alternatives = integer('--alternatives', flags.alternatives, 0, MAX_ALTERNATIVES);
    const refits = integer('--refits', flags.refits, 0, MAX_REFITS);
    const { records, options, base } = loadData(flags);
    const samples = await collectSamples(records, base, { ...options, alternatives, log });
    if (samples.length === 0)
      throw new InputError(
        '--data',
        `no record was repaired (${records.length} ${records.length === 1 ? 'record' : 'records'}: every input valid, or no repair found): nothing to calibrate on`,
      );
    // A calibration maps evidence to how often repairs like it are right: with few wrong repairs (or right
    // ones) to learn from, that is a guess; it is written all the same, with a line saying so.
    const wrong = samples.filter((s) => !s.right).length;
    if (wrong < FEW || samples.length - wrong < FEW)
      log(
        `refract calibrate: warning: ${samples.length} ${samples.length === 1 ? 'repair' : 'repairs'}, ${wrong} wrong: ` +
          `with fewer than ${FEW} right or wrong ones the calibration is rough (hundreds of labelled repairs make it tell)`,
      );
    const report = calibrate(samples, base, l2, evidence, refits);
    if (flags.out) write('--out', flags.out, `${JSON.stringify(report.calibration, null, 2)}\n`, log);
    if (flags.modelOut) {
      const model = { ...base, name: modelName(flags.modelOut), calibration: report.calibration };
      write('--model-out', flags.modelOut, `${JSON.stringify(model, null, 2)}\n`, log);
    }
    const page = calibrationPage(report, pageHeader('Confidence calibration', machine(), invocation(cmd)));
    if (flags.report) write('--report', flags.report, page, log);
    else process.stdout.write(page);
  });
}
