/** The `refract` command line: thin shells over the library. Exit codes: 0 valid, 1 repaired/invalid, 2 bad input. */
import { Command, CommanderError } from 'commander';
import { InputError } from '../adapters/errors.ts';
import { registerFix } from './fix.ts';
import { registerLoop, registerPick } from './loop.ts';
import { registerServe } from './serve.ts';
import { registerBench } from './bench.ts';
import { registerMaps } from './maps.ts';
import { registerModes, registerTags } from './tags.ts';
import { registerMcp } from './mcp.ts';
import { registerBatch } from './batch.ts';
import { registerFit, registerSweep } from './research.ts';

// A closed pipe (`refract … | head`) ends the output quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const program = new Command();
program
  .name('refract')
  .description('check and optimally repair LLM tool-call sequences (MILP, HiGHS)')
  .version('0.1.0')
  .exitOverride()
  .showHelpAfterError(false);

registerFix(program);
registerBatch(program);
registerLoop(program);
registerPick(program);
registerServe(program);
registerBench(program);
registerMaps(program);
registerTags(program);
registerModes(program);
registerMcp(program);
registerSweep(program);
registerFit(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof InputError) {
    process.stderr.write(`refract: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`refract: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 2;
  }
}
