/** `refract loop` and `refract pick`: thin shells over the loop library. */
import type { Command } from 'commander';
import type { Catalog, Sequence } from '../model/types.ts';
import { InputError } from '../model/errors.ts';
import { loadCatalog } from '../read/catalog.ts';
import { loadWith } from '../read/files.ts';
import { parseSequenceText } from '../read/sequence.ts';
import { FEEDBACK_FORMATS, isFeedbackFormat, type FeedbackFormat } from '../feedback/index.ts';
import type { Fixer } from '../loop/engine.ts';
import { commandFixer } from '../loop/fixers/command.ts';
import { milpFixer } from '../loop/fixers/milp.ts';
import { openaiFixer } from '../loop/fixers/openai.ts';
import { readCandidates, scriptedFixer } from '../loop/fixers/scripted.ts';
import { pick } from '../loop/pick.ts';
import { LOOP_PRESETS } from '../loop/presets.ts';
import { formatLoopReport, formatPickReport, loopSummary } from '../loop/report.ts';
import { loopToolCalls } from '../loop/toolcalls.ts';

const FIXERS = ['milp', 'command', 'openai', 'scripted'] as const;
type FixerName = (typeof FIXERS)[number];

interface LoopFlags {
  catalog?: string;
  fixer: string;
  candidates?: string;
  fixerCommand?: string;
  fixerTimeout: string;
  check?: string;
  checkTimeout: string;
  feedback: string;
  preset?: string;
  maxRounds?: string;
  stallLimit?: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv: string;
  format: string;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InputError(flag, `expected one of ${allowed.join(', ')}, received ${JSON.stringify(value)}`);
  }
  return value as T;
}

function integer(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new InputError(flag, `expected an integer >= ${min}, received ${JSON.stringify(value)}`);
  }
  return n;
}

function seconds(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new InputError(
      flag,
      `expected a number of seconds in (0, 86400], received ${JSON.stringify(value)}`,
    );
  }
  return n * 1000;
}

function required(flag: string, value: string | undefined, why: string): string {
  if (value === undefined || value === '') throw new InputError(flag, `required ${why}`);
  return value;
}

function makeFixer(
  name: FixerName,
  flags: LoopFlags,
  catalog: Catalog,
  format: FeedbackFormat,
  timeoutMs: number,
): Fixer<Sequence> {
  switch (name) {
    case 'milp':
      return milpFixer({ catalog });
    case 'scripted':
      return scriptedFixer(
        readCandidates(required('--candidates', flags.candidates, 'with --fixer scripted')),
      );
    case 'command':
      return commandFixer({
        command: required('--fixer-command', flags.fixerCommand, 'with --fixer command'),
        timeoutMs,
        format,
      });
    case 'openai':
      return openaiFixer({
        catalog,
        baseUrl: required('--base-url', flags.baseUrl, 'with --fixer openai'),
        model: required('--model', flags.model, 'with --fixer openai'),
        apiKeyEnv: flags.apiKeyEnv,
        timeoutMs,
        format,
      });
  }
}

/** Runs an action; bad input prints `refract <cmd>: <field>: <problem>` and sets exit code 2. */
async function guarded(command: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    process.stderr.write(`refract ${command}: ${error.message}\n`);
    process.exitCode = 2;
  }
}

async function runLoopCommand(file: string, flags: LoopFlags): Promise<void> {
  const format = oneOf('--format', flags.format, ['json', 'text'] as const);
  const feedbackFormat = flags.feedback;
  if (!isFeedbackFormat(feedbackFormat)) oneOf('--feedback', feedbackFormat, FEEDBACK_FORMATS);
  const fixerName = oneOf('--fixer', flags.fixer, FIXERS);
  const preset =
    LOOP_PRESETS[oneOf('--preset', flags.preset ?? 'default', ['default', 'single-pass'] as const)];
  const maxRounds =
    flags.maxRounds !== undefined ? integer('--max-rounds', flags.maxRounds, 0) : preset.maxRounds;
  const stallLimit =
    flags.stallLimit !== undefined ? integer('--stall-limit', flags.stallLimit, 1) : preset.stallLimit;
  const checkTimeoutMs = seconds('--check-timeout', flags.checkTimeout);
  const fixerTimeoutMs = seconds('--fixer-timeout', flags.fixerTimeout);
  const catalog = loadCatalog(required('--catalog', flags.catalog, 'catalog file'));
  const sequence = loadWith(file, parseSequenceText);
  const fixer = makeFixer(fixerName, flags, catalog, feedbackFormat as FeedbackFormat, fixerTimeoutMs);
  // An explicit --check wins over a preset without checks, as --max-rounds wins over its rounds.
  const checks = flags.check !== undefined ? { command: flags.check, timeoutMs: checkTimeoutMs } : undefined;
  const result = await loopToolCalls({
    sequence,
    catalog,
    fixer,
    feedback: feedbackFormat as FeedbackFormat,
    checks,
    maxRounds,
    stallLimit,
  });
  const out = format === 'json' ? JSON.stringify(loopSummary(result), null, 2) : formatLoopReport(result);
  process.stdout.write(`${out}\n`);
  if (result.stop !== 'solved') process.exitCode = 1;
}

export function registerLoop(program: Command): Command {
  return program
    .command('loop')
    .description('repair a sequence in rounds: a fixer proposes, the validator and checks judge')
    .argument('<file>', 'the sequence (NESTFUL or OpenAI JSON, or one call per line)')
    .option('--catalog <file>', 'tool catalog')
    .option('--fixer <name>', `who proposes candidates: ${FIXERS.join('|')}`, 'milp')
    .option('--candidates <file>', 'scripted fixer: JSON array of sequences, one per round')
    .option(
      '--fixer-command <cmd>',
      'command fixer: run with sh -c; request JSON on stdin, sequence on stdout',
    )
    .option('--fixer-timeout <seconds>', 'time limit of one proposal (command, openai)', '60')
    .option('--check <cmd>', 'extra check: run with sh -c, candidate JSON on stdin, exit 0 = pass')
    .option('--check-timeout <seconds>', 'time limit of the check command', '30')
    .option('--feedback <format>', `what the fixer is shown: ${FEEDBACK_FORMATS.join('|')}`, 'issues')
    .option('--preset <name>', 'default (10 rounds, stall limit 2) | single-pass (1 round, no checks)')
    .option('--max-rounds <n>', 'most rounds (default 10)')
    .option('--stall-limit <m>', 'stop after this many rejected rounds in a row (default 2)')
    .option('--base-url <url>', 'openai fixer: chat-completions base URL')
    .option('--model <name>', 'openai fixer: model name')
    .option('--api-key-env <var>', 'openai fixer: environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--format <format>', 'output: json|text', 'json')
    .action((file: string, flags: LoopFlags) => guarded('loop', () => runLoopCommand(file, flags)));
}

export function registerPick(program: Command): Command {
  return program
    .command('pick')
    .description('pick one of several candidate sequences: majority of the valid ones, else cheapest repair')
    .argument('<file>', 'JSON array of candidate sequences')
    .option('--catalog <file>', 'tool catalog')
    .option('--format <format>', 'output: json|text', 'json')
    .action((file: string, flags: { catalog?: string; format: string }) =>
      guarded('pick', async () => {
        const format = oneOf('--format', flags.format, ['json', 'text'] as const);
        const catalog = loadCatalog(required('--catalog', flags.catalog, 'catalog file'));
        const candidates = readCandidates(file);
        if (candidates.length === 0) throw new InputError('candidates', 'expected at least one candidate');
        const result = await pick(candidates, catalog);
        const { repair: _repair, ...summary } = result;
        const out = format === 'json' ? JSON.stringify(summary, null, 2) : formatPickReport(result);
        process.stdout.write(`${out}\n`);
        if (result.index === null) process.exitCode = 1;
      }),
    );
}
