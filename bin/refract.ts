/**
 * The `refract` executable: the product's command line plus the research commands (`bench`, `sweep`,
 * `fit`), which live outside `src/` and build on the library.
 */
import { runCli } from '../src/cli/main.ts';
import { registerBench } from '../research/cli/bench.ts';
import { registerFit, registerSweep } from '../research/cli/research.ts';

await runCli(process.argv, [registerBench, registerSweep, registerFit]);
