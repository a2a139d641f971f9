/**
 * `npm run learn`: learns the shipped default's weights (research/bench/learn.ts) and writes them into
 * models/default.json (its calibration dropped: `npm run calibrate` refits it for the new weights) with the
 * page benchmarks/results/learned.md.
 *
 *   npm run learn
 *   npm run learn -- --large 1000 --every 4 --rounds 2 --out fitted.json --page learned.md   a quicker study
 *                                                             that leaves models/default.json alone
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { disposeSolvers } from '../src/solvers/index.ts';
import { learnDefault, LEARN_DEFAULTS, shipLearned } from '../research/bench/learn.ts';
import { integer } from '../src/api/flag-values.ts';
import { nonNegative, number } from '../research/cli/data-flags.ts';

const { values } = parseArgs({
  options: {
    large: { type: 'string' },
    every: { type: 'string' },
    rounds: { type: 'string' },
    'guard-slack': { type: 'string' },
    reach: { type: 'string' },
    out: { type: 'string' },
    page: { type: 'string' },
  },
});
const options = {
  large:
    values.large === undefined
      ? LEARN_DEFAULTS.large
      : values.large.split(',').map((size) => integer('--large', size, 1)),
  every: values.every === undefined ? LEARN_DEFAULTS.every : integer('--every', values.every, 1),
  rounds: values.rounds === undefined ? LEARN_DEFAULTS.rounds : integer('--rounds', values.rounds, 1),
  guardSlack:
    values['guard-slack'] === undefined
      ? LEARN_DEFAULTS.guardSlack
      : nonNegative('--guard-slack', values['guard-slack'], 1),
  reach: values.reach === undefined ? LEARN_DEFAULTS.reach : number('--reach', values.reach, 1, 1000),
  holdout: LEARN_DEFAULTS.holdout,
  seed: LEARN_DEFAULTS.seed,
  log: (line: string) => process.stderr.write(`${line}\n`),
};
try {
  if (values.out || values.page) {
    const { fit, page } = await learnDefault(options);
    if (values.out) writeFileSync(values.out, `${JSON.stringify(fit.model, null, 2)}\n`);
    if (values.page) writeFileSync(values.page, page);
    else process.stdout.write(page);
  } else process.stdout.write(await shipLearned(options));
} finally {
  disposeSolvers();
}
