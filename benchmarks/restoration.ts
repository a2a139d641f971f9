/**
 * The restoration benchmark from the terminal: both corruption recipes, every measure of `src/score`,
 * backend agreement and time, per mistake kind; optionally against another build in the same run.
 *
 *   npm run bench:restoration -- --quick                 a spread of 8 records per set and kind (< 1 min)
 *   npm run bench:restoration -- --quick --against main  the same, with main's model side by side
 *   npm run bench:restoration -- --recipe second --sets synthetic-camel --by-set
 *   npm run bench:restoration -- --json                  the summary as JSON on stdout
 *   npm run bench:restoration -- --model e692d8e --write benchmarks/results/restoration-baseline.json
 *   npm run bench:restoration -- --cost-model FILE --against HEAD   the shipped sets under a cost-model file
 *   npm run bench:restoration -- --large 1000,5000,10000 --every 4 --cost-model models/hand.json
 *                                    the large-catalog worlds (research/bench/large.ts), any cost-model file;
 *                                    --page also rewrites their section of benchmarks/results/restoration.md
 *
 * --backends highs,lp-solver,portfolio (the default) repairs each record with each; the first is judged,
 * the others are compared with it.
 */
import { InputError } from '../src/model/errors.ts';
import { disposeSolvers } from '../src/solvers/index.ts';
import { restorationCli } from '../research/bench/restoration-cli.ts';

try {
  await restorationCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    log: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  if (error instanceof InputError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`bench:restoration: ${(error as Error).message}\n`);
    process.exitCode = 2;
  } else throw error;
} finally {
  disposeSolvers();
}
