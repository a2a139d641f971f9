/** `refract loop` (a shell over the request functions, with the fixers only a command line has) and `refract pick`. */
import type { Command } from 'commander';
import type { Catalog, Sequence } from '../model/types.ts';
import { InputError } from '../model/errors.ts';
import { loadCatalog } from '../read/catalog.ts';
import { loadWith } from '../read/files.ts';
import { parseSequenceText } from '../read/sequence.ts';
import type { FeedbackFormat } from '../feedback/index.ts';
import type { Fixer } from '../loop/engine.ts';
import { commandFixer } from '../loop/fixers/command.ts';
import { openaiFixer } from '../loop/fixers/openai.ts';
import { readCandidates, scriptedFixer } from '../loop/fixers/scripted.ts';
import { pick, type PickResult } from '../loop/pick.ts';
import { LOOP_PRESETS } from '../loop/presets.ts';
import { formatPickReport } from '../loop/report.ts';
import { makeCall, requestSettings, runCall } from '../api/call.ts';
import { answerJson, answerText, resultJson } from '../api/render.ts';
import { oneOf, seconds } from '../api/flag-values.ts';
import { addRequestOptions, asFlags, requestFromFlags, resolveRequest } from './request-flags.ts';
import { EXIT } from './fix.ts';

/** Who proposes: `milp` is the optimiser (what a server's loop runs); the others only a command line has. */
const FIXERS = ['milp', 'command', 'openai', 'scripted'] as const;
type FixerName = (typeof FIXERS)[number];

interface LoopFlags extends Record<string, unknown> {
  fixer: string;
  candidates?: string;
  fixerCommand?: string;
  fixerTimeout: string;
  check?: string;
  checkTimeout: string;
  preset?: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv: string;
  format: string;
}

function required(flag: string, value: string | undefined, why: string): string {
  if (value === undefined || value === '') throw new InputError(flag, `required ${why}`);
  return value;
}

/** The fixer a command line asked for; `undefined` = the optimiser with the request's options. */
function makeFixer(
  name: FixerName,
  flags: LoopFlags,
  catalog: Catalog,
  format: FeedbackFormat,
  timeoutMs: number,
): Fixer<Sequence> | undefined {
  switch (name) {
    case 'milp':
      return undefined;
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
  const fixerName = oneOf('--fixer', flags.fixer, FIXERS);
  const preset =
    LOOP_PRESETS[oneOf('--preset', flags.preset ?? 'default', ['default', 'single-pass'] as const)];
  const given = requestFromFlags('loop', flags);
  // A preset sets the rounds; explicit --max-rounds and --stall-limit win over it.
  const request = { maxRounds: preset.maxRounds, stallLimit: preset.stallLimit, ...given };
  const catalog = loadCatalog(required('--catalog', request.catalogPath, 'catalog file'));
  const settings = asFlags(() => requestSettings('loop', request, { files: true, catalog }));
  const checkTimeoutMs = seconds('--check-timeout', flags.checkTimeout) * 1000;
  const fixerTimeoutMs = seconds('--fixer-timeout', flags.fixerTimeout) * 1000;
  const sequence = loadWith(file, (text) => parseSequenceText(text, { resultName: request.resultName }));
  const feedback = settings.loop?.feedback ?? 'issues';
  const fixer = makeFixer(fixerName, flags, catalog, feedback, fixerTimeoutMs);
  // An explicit --check wins over a preset without checks, as --max-rounds wins over its rounds.
  const checks = flags.check !== undefined ? { command: flags.check, timeoutMs: checkTimeoutMs } : undefined;
  const answer = await runCall(makeCall(settings, { sequence, catalog }), { fixer, checks });
  const json = answerJson(answer);
  process.stdout.write(`${format === 'json' ? JSON.stringify(json, null, 2) : answerText(answer)}\n`);
  if (json.stop !== 'solved') process.exitCode = 1;
}

export function registerLoop(program: Command): Command {
  return addRequestOptions(
    program
      .command('loop')
      .description('repair a sequence in rounds: a fixer proposes, the validator and checks judge')
      .argument('<file>', 'the sequence (NESTFUL or OpenAI JSON, or one call per line)')
      .option('--fixer <name>', `who proposes candidates: ${FIXERS.join('|')}`, 'milp')
      .option('--candidates <file>', 'scripted fixer: JSON array of sequences, one per round')
      .option(
        '--fixer-command <cmd>',
        'command fixer: run with sh -c; request JSON on stdin, sequence on stdout',
      )
      .option('--fixer-timeout <seconds>', 'time limit of one proposal (command, openai)', '60')
      .option('--check <cmd>', 'extra check: run with sh -c, candidate JSON on stdin, exit 0 = pass')
      .option('--check-timeout <seconds>', 'time limit of the check command', '30')
      .option('--preset <name>', 'default (10 rounds, stall limit 2) | single-pass (1 round, no checks)')
      .option('--base-url <url>', 'openai fixer: chat-completions base URL')
      .option('--model <name>', 'openai fixer: model name')
      .option(
        '--api-key-env <var>',
        'openai fixer: environment variable holding the API key',
        'OPENAI_API_KEY',
      )
      .option('--format <format>', 'output: json|text', 'json'),
    'loop',
  ).action((file: string, flags: LoopFlags) => guarded('loop', () => runLoopCommand(file, flags)));
}

/**
 * Exit codes of a pick: 0 a winner, 1 none, and, where the winner is a repair held back, the code `refract
 * fix` gives it (`EXIT`): uncertain (below --min-confidence), exhausted (over --max-tries).
 */
function pickExit(result: PickResult): number {
  if (result.index === null) return 1;
  const status = result.repair?.status;
  return status === 'uncertain' || status === 'exhausted' ? EXIT[status] : 0;
}

export function registerPick(program: Command): Command {
  return addRequestOptions(
    program
      .command('pick')
      .description(
        'pick one of several candidate sequences: majority of the valid ones, else cheapest repair',
      )
      .argument('<file>', 'JSON array of candidate sequences')
      .option('--format <format>', 'output: json|text', 'json'),
    'fix',
  ).action((file: string, flags: Record<string, unknown>) =>
    guarded('pick', async () => {
      const format = oneOf('--format', flags.format as string, ['json', 'text'] as const);
      // The candidates are checked and repaired with the options `refract fix` takes (memory, cost model,
      // --min-confidence, …).
      const { settings, catalog } = resolveRequest('fix', flags, true);
      const candidates = readCandidates(file);
      if (candidates.length === 0) throw new InputError('candidates', 'expected at least one candidate');
      const result = await pick(candidates, catalog, {
        validate: settings.options,
        repair: settings.options,
      });
      const { repair, ...summary } = result;
      const json = repair ? { ...summary, repair: resultJson(repair) } : summary;
      process.stdout.write(
        `${format === 'json' ? JSON.stringify(json, null, 2) : formatPickReport(result)}\n`,
      );
      process.exitCode = pickExit(result);
    }),
  );
}
