/**
 * The `refract` command line: thin shells over the library. Exit codes: 0 valid, 1 repaired/invalid,
 * 3 partial (a call no catalog API is close to had to go), 4 exhausted (no repair keeps to the tries limit),
 * 5 uncertain (a repair below --min-confidence), 2 bad input or internal error. Besides, `batch collect`
 * exits with six when the run is not whole (nothing written). `buildProgram`
 * registers the product's commands; the executable (`bin/refract.ts`) adds the research commands on top and
 * runs it.
 */
import { Command, CommanderError } from 'commander';
import { InputError } from '../model/errors.ts';
import { packageVersion } from '../read/package-files.ts';
import { registerFix } from './fix.ts';
import { registerLoop, registerPick } from './loop.ts';
import { registerServe } from './serve.ts';
import { registerMaps } from './maps.ts';
import { registerModes, registerTags } from './tags.ts';
import { registerMcp } from './mcp.ts';
import { registerBatch } from './batch.ts';
import { registerBatchCluster } from './batch-cluster.ts';
import { registerExport } from './export.ts';

export type Register = (program: Command) => unknown;

/** The product's commands; `extra` registers more (research) after them. */
export function buildProgram(extra: readonly Register[] = []): Command {
  const program = new Command();
  program
    .name('refract')
    .description('check and optimally repair LLM tool-call sequences (MILP, HiGHS)')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError(false)
    // Commander's own errors (an unknown option or command, a missing argument) on one line, as every other
    // of refract's: `refract: unknown option '--kind' (did you mean --kinds?)`.
    .configureOutput({ outputError: (text, write) => write(`refract: ${commanderLine(text)}\n`) });
  for (const register of [
    registerFix,
    registerBatch,
    registerBatchCluster,
    registerLoop,
    registerPick,
    registerServe,
    registerMaps,
    registerTags,
    registerModes,
    registerMcp,
    registerExport,
    ...extra,
  ])
    register(program);
  return program;
}

/** Commander's message (`error: unknown option '--kind'\n(Did you mean --kinds?)\n`) as one line. */
export function commanderLine(text: string): string {
  return text
    .replace(/^error: /i, '')
    .replace(/\s*\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function onStdoutError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
}

/** Parses `argv` and runs the command; every error becomes a one-line message and exit code 2. */
export async function runCli(argv: readonly string[], extra: readonly Register[] = []): Promise<void> {
  // A closed pipe (`refract … | head`) ends the output quietly.
  if (!process.stdout.listeners('error').includes(onStdoutError)) process.stdout.on('error', onStdoutError);
  try {
    await buildProgram(extra).parseAsync([...argv]);
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
}
