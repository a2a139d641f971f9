/**
 * Regenerates benchmarks/results/ (`npm run bench`).
 *
 *   npm run bench                       all benchmarks (a few minutes)
 *   npm run bench -- --quick            a small subset of every benchmark
 *   npm run bench -- --only latency,solvers [--out DIR]
 *   npm run bench -- --only throughput [--baseline COMMIT]   this build against COMMIT (default e692d8e)
 */
import { parseArgs } from 'node:util';
import { InputError } from '../src/model/errors.ts';
import { parseOnly, runBench } from '../research/bench/suite.ts';

try {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      out: { type: 'string' },
      baseline: { type: 'string' },
    },
  });
  const start = performance.now();
  const files = await runBench({
    quick: values.quick,
    only: values.only === undefined ? undefined : parseOnly(values.only),
    out: values.out,
    baseline: values.baseline,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stderr.write(
    `wrote ${files.length} files in ${((performance.now() - start) / 1000).toFixed(0)} s\n`,
  );
  for (const file of files) console.log(file);
} catch (error) {
  if (error instanceof InputError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exitCode = 2;
  } else throw error;
}
