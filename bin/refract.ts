#!/usr/bin/env node
/**
 * The `refract` executable: the product's command line plus the research commands. `sweep`, `fit`,
 * `coverage` and `calibrate` work on labelled records of one's own (`--data`) and ship in the package;
 * `bench` reads the repository's data sets and writes its result pages, so it runs from a clone only (the
 * package leaves `research/bench`'s runners out). They are loaded only when one of them is run or the help
 * lists the commands, which keeps every other command's start-up short.
 */
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Register } from '../src/cli/main.ts';

/** Commands on labelled records (`--data`; by default the repository's benchmark): in the package too. */
const ON_DATA = ['sweep', 'fit', 'coverage', 'calibrate'];
const RESEARCH = ['bench', ...ON_DATA];
/** Commands that run many solves for a long time: a batch, a server. */
const LONG_RUNNING = ['batch', 'serve', 'mcp', ...RESEARCH];

/** The first word that is not an option: the command (undefined for `refract`, `refract --help`). */
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));

// A one-shot command solves a few models. V8 would also compile HiGHS's WebAssembly with its optimising
// tier, in the background, for solves that are over before that code is ready: about 0.2 s of CPU, half
// the command's. Baseline code only (same results) makes each solve some 15 % slower, which long-running
// commands would feel after a few thousand solves, so they keep the default. Set before HiGHS is compiled.
if (command !== undefined && !LONG_RUNNING.includes(command)) setFlagsFromString('--liftoff-only');

// A batch repairs thousands of records in each worker thread, and each thread optimises the repair's code
// for itself: with inlining, V8 compiles the large functions of the model compiler again and again (after
// each deoptimisation), about a second of CPU per worker in its background threads, a fifth of a
// 4,000-record run's CPU. The code without inlining runs as fast here (per-thread CPU of runs on the
// corrupted NESTFUL records, one worker and two, over 4,000 and 20,000 records), so a batch turns it off.
// Set before any worker starts: V8's flags are the process's.
if (command === 'batch') setFlagsFromString('--no-turbo-inlining');

// The same holds for the array methods (`map`, `filter`, `forEach`, …), which V8 otherwise expands into
// loops inside each optimised caller: the optimising compiler's background threads spent a third of a
// corrupted-records batch's CPU, and this flag cuts that by about a third (batch CPU by a sixth on the
// 4,000 and 20,000 corrupted NESTFUL records, two workers) while the callbacks, not inlined either way, run
// at the same speed. Valid records (checked, no solve) do not change.
if (command === 'batch') setFlagsFromString('--no-turbo-inline-array-builtins');

/** A research module, or undefined where the package leaves it out (`research/cli/bench`). */
async function optional<T>(load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    if (missing && /[/\\]research[/\\]cli[/\\]/.test((error as Error).message)) return undefined;
    throw error;
  }
}

/** The research commands there are: the ones on labelled records always, `bench` in a clone. */
async function researchCommands(): Promise<{ commands: Register[]; bench: boolean }> {
  const [bench, tuning] = await Promise.all([
    optional(() => import('../research/cli/bench.ts')),
    optional(() => import('../research/cli/research.ts')),
  ]);
  const commands = [
    ...(bench ? [bench.registerBench] : []),
    ...(tuning
      ? [tuning.registerSweep, tuning.registerFit, tuning.registerCoverage, tuning.registerCalibrate]
      : []),
  ];
  return { commands, bench: bench !== undefined };
}

let extra: Register[] = [];
// The help lists them too; `refract --version` needs none.
const versionOnly = command === undefined && process.argv.some((a) => a === '--version' || a === '-V');
const research =
  (command === undefined && !versionOnly) || command === 'help' || RESEARCH.includes(command ?? '');
if (research) {
  const found = await researchCommands();
  extra = found.commands;
  if (command === 'bench' && !found.bench) {
    process.stderr.write(
      `refract: ${command} is a research command: it runs from a clone of the repository, which holds the ` +
        `data sets it reads (npm install there, then npx refract ${command})\n`,
    );
    process.exit(2);
  }
}
// The build also bundles the command line into a few files (`dist/cli/`, `npm run build:cli`): loading
// those instead of some 300 modules halves the CPU of every start (`refract --version`: 0.15 s against
// 0.30 s). The research commands, from the repository only, run on the modules they are compiled against,
// so `help` and they load the unbundled command line; so does a run from the sources (tsx).
type Cli = typeof import('../src/cli/main.ts');
const unbundled = (): Promise<Cli> => import('../src/cli/main.ts');

/** The bundled command line, or the unbundled one when the build has none (`tsc` alone). */
async function bundledCli(): Promise<Cli> {
  const bundle = new URL('../cli/main.js', import.meta.url);
  if (!existsSync(bundle)) return unbundled();
  return (await import(bundle.href)) as Cli;
}

const fromSources = import.meta.url.endsWith('.ts');
const cli = fromSources || research ? await unbundled() : await bundledCli();
await cli.runCli(process.argv, extra);
