/**
 * `refract validate`, `refract fix` and `refract compress`: one sequence, or many (one JSON line per record,
 * input order). Shells over the request functions of src/api.
 */
import type { Command } from 'commander';
import { InputError } from '../model/errors.ts';
import type { Catalog } from '../model/types.ts';
import { makeCall, runCall, type Settings } from '../api/call.ts';
import { recordSubject } from '../api/record-subject.ts';
import type { ApiRequest, RequestKind } from '../api/request.ts';
import { answerJson, answerText } from '../api/render.ts';
import { oneOf, readInput } from '../api/flag-values.ts';
import { parseInput, type Input } from './input.ts';
import { addRequestOptions, resolveRequest } from './request-flags.ts';

/**
 * Exit codes: 0 valid, 1 repaired (or timed out), 3 partial (a call had to go), 4 exhausted (the tries limit),
 * 5 uncertain (below --min-confidence), 2 bad input or error.
 */
export const EXIT = {
  valid: 0,
  repaired: 1,
  timeout: 1,
  partial: 3,
  uncertain: 5,
  exhausted: 4,
  error: 2,
} as const;
/** Exit codes from best to worst: an error over a partial repair over a limit exhausted over an uncertain repair. */
const EXIT_ORDER = [0, 1, 5, 4, 3, 2];
/** The worse of two exit codes. */
const worse = (a: number, b: number) => (EXIT_ORDER.indexOf(a) >= EXIT_ORDER.indexOf(b) ? a : b);

const COMMANDS = [
  ['validate', 'check a sequence (or a file of records) without repairing it'],
  ['fix', 'repair a sequence (or a file of records) at the lowest cost'],
  ['compress', 'the cheapest sequence that meets the goals: repeated and unnecessary calls go'],
] as const;

export function registerFix(program: Command): void {
  for (const [kind, description] of COMMANDS) {
    addRequestOptions(
      program
        .command(kind)
        .description(description)
        .argument('[file]', 'sequence or records file (default: standard input)')
        .option('--format <format>', 'text | json', 'text'),
      kind,
    ).action((file: string | undefined, flags: Record<string, unknown>) => runRequests(kind, file, flags));
  }
}

/** The request a command's flags stand for, its settings and its (required) catalog. */
export function commandRequest(
  kind: RequestKind,
  flags: Record<string, unknown>,
): { request: ApiRequest; settings: Settings; catalog: Catalog } {
  return resolveRequest(kind, flags, true);
}

async function runRequests(kind: RequestKind, file: string | undefined, flags: Record<string, unknown>) {
  const format = oneOf('--format', flags.format as string, ['text', 'json'] as const);
  const { settings, catalog } = resolveRequest(kind, flags);
  const input = parseInput(readInput(file), file, {
    ...settings.options,
    keepUnparsed: settings.heal === true,
  });
  // Records that carry their own catalogs need no --catalog; one that carries none does, before any output.
  const bare = input.records.find((record) => record.sequence && !record.catalog);
  if (!catalog && bare) {
    const which = input.single ? '' : ` (record ${JSON.stringify(bare.id)} carries none)`;
    throw new InputError('--catalog', `required: the tool catalog to check against${which}`);
  }
  let exit = 0;
  const counts: Record<string, number> = {};
  const times: number[] = [];
  for (const record of input.records) {
    const subject = recordSubject(settings, record);
    if (!subject) {
      exit = worse(exit, 2);
      counts.error = (counts.error ?? 0) + 1;
      const json =
        kind === 'validate'
          ? { id: record.id, valid: null, determination: null, reason: record.error }
          : { id: record.id, status: 'error', determination: null, reason: record.error };
      print(format, json, `# ${record.id}: error: ${record.error}`);
      continue;
    }
    const call = makeCall(settings, {
      ...subject,
      catalog: record.catalog ?? (catalog as Catalog),
      memory: record.memory,
      executed: record.executed,
      goals: record.goals,
      ...(input.single ? {} : { id: record.id }),
    });
    const answer = await runCall(call);
    if (answer.kind === 'validate') {
      if (!answer.validation.valid) exit = worse(exit, 1);
    } else if (answer.kind !== 'loop') {
      exit = worse(exit, EXIT[answer.result.status]);
      counts[answer.result.status] = (counts[answer.result.status] ?? 0) + 1;
      times.push(answer.result.timeMs);
    }
    print(format, answerJson(answer), recordText(input, record.id, answerText(answer), kind));
  }
  if (kind !== 'validate' && !input.single && format === 'text') console.log(summary(input, counts, times));
  process.exitCode = exit;
}

function recordText(input: Input, id: string, text: string, kind: RequestKind): string {
  if (input.single) return text;
  return kind === 'validate' ? `# ${id}: ${text}` : `# ${id}\n${indent(text)}`;
}

function summary(input: Input, counts: Record<string, number>, times: number[]): string {
  times.sort((a, b) => a - b);
  const median = times.length ? times[times.length >> 1] : 0;
  const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
  return `${input.records.length} sequences: ${parts.join(', ')}; median ${median.toFixed(1)} ms per sequence`;
}

export function print(format: 'text' | 'json', json: unknown, text: string): void {
  process.stdout.write(`${format === 'json' ? JSON.stringify(json) : text}\n`);
}

export function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
