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

const { values } = parseArgs({
  options: {
    large: { type: 'string' },
    every: { type: 'string' },
    rounds: { type: 'string' },
    'guard-slack': { type: 'string' },
    out: { type: 'string' },
    page: { type: 'string' },
  },
});
const options = {
  large:
    values.large === undefined ? LEARN_DEFAULTS.large : values.large.split(',').filter(Boolean).map(Number),
  every: Number(values.every ?? LEARN_DEFAULTS.every),
  rounds: Number(values.rounds ?? LEARN_DEFAULTS.rounds),
  guardSlack: Number(values['guard-slack'] ?? LEARN_DEFAULTS.guardSlack),
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
