/**
 * `npm run bench:transfer`: a fit on a naming habit the default never saw (research/bench/transfer.ts), written
 * to benchmarks/results/transfer.md. About a minute.
 */
import { writeFileSync } from 'node:fs';
import { disposeSolvers } from '../src/solvers/index.ts';
import { runTransfer } from '../research/bench/transfer.ts';

const PAGE = 'benchmarks/results/transfer.md';
try {
  writeFileSync(PAGE, await runTransfer((line) => process.stderr.write(`${line}\n`)));
  console.log(PAGE);
} finally {
  disposeSolvers();
}
