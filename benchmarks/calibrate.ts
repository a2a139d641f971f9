/**
 * `npm run calibrate`: fits the shipped confidence calibration on the benchmark's labelled records and writes
 * it into models/default.json, with benchmarks/results/calibration.md and its reliability diagram.
 */
import { disposeSolvers } from '../src/solvers/index.ts';
import { shipCalibration } from '../research/bench/calibration.ts';

try {
  process.stdout.write(await shipCalibration((line) => process.stderr.write(`${line}\n`)));
} finally {
  disposeSolvers();
}
