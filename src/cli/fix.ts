/** `refract validate` and `refract fix`: one sequence, or many (one JSON line per record, input order). */
import type { Command } from 'commander';
import { repair } from '../repair/repair.ts';
import { compress } from '../repair/compress.ts';
import { validate } from '../validate/validate.ts';
import type { RepairResult } from '../model/options.ts';
import { addRepairOptions, loadRepairOptions, type RepairFlags } from '../api/repair-flags.ts';
import { oneOf, readInput } from '../api/flag-values.ts';
import { parseInput } from './input.ts';
import { resultJson, resultText, validationJson, validationText } from '../api/render.ts';

interface Flags extends RepairFlags {
  format: string;
}

/** Exit codes: 0 valid, 1 repaired (or timed out), 3 partial (a call had to go), 2 bad input or error. */
const EXIT = { valid: 0, repaired: 1, timeout: 1, partial: 3, error: 2 } as const;
/** The worse of two exit codes: an error (2) over a partial repair (3) over a repair (1). */
const worse = (a: number, b: number) => ([0, 1, 3, 2].indexOf(a) >= [0, 1, 3, 2].indexOf(b) ? a : b);

export function registerFix(program: Command): void {
  for (const [name, description] of [
    ['fix', 'repair a sequence (or a file of records) at the lowest cost'],
    ['compress', 'the cheapest sequence that meets the goals: repeated and unnecessary calls go'],
  ] as const) {
    addRepairOptions(
      program
        .command(name)
        .description(description)
        .argument('[file]', 'sequence or records file (default: standard input)')
        .option('--format <format>', 'text | json', 'text'),
    ).action((file: string | undefined, flags: Flags) => runFix(file, flags, name === 'compress'));
  }
  registerValidate(program);
}

async function runFix(file: string | undefined, flags: Flags, compressing: boolean): Promise<void> {
  const format = oneOf('--format', flags.format, ['text', 'json'] as const);
  const { catalog, options } = loadRepairOptions({
    ...flags,
    costModel: compressing && flags.costModel === 'default' ? 'compress' : flags.costModel,
  });
  const input = parseInput(readInput(file));
  let exit = 0;
  const counts: Record<string, number> = {};
  const times: number[] = [];
  for (const record of input.records) {
    if (record.error || !record.sequence) {
      exit = worse(exit, 2);
      counts.error = (counts.error ?? 0) + 1;
      print(
        format,
        { id: record.id, status: 'error', determination: null, reason: record.error },
        `# ${record.id}: error: ${record.error}`,
      );
      continue;
    }
    const recordOptions = {
      ...options,
      memory: record.memory ?? options.memory,
      goals: record.goals ?? options.goals,
    };
    const recordCatalog = record.catalog ?? catalog;
    const result: RepairResult = compressing
      ? await compress(record.sequence, recordCatalog, recordOptions)
      : await repair(record.sequence, recordCatalog, recordOptions);
    exit = worse(exit, EXIT[result.status]);
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    times.push(result.timeMs);
    if (input.single) print(format, resultJson(result), resultText(result));
    else print(format, resultJson(result, record.id), `# ${record.id}\n${indent(resultText(result))}`);
  }
  if (!input.single && format === 'text') {
    times.sort((a, b) => a - b);
    const median = times.length ? times[times.length >> 1] : 0;
    const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
    console.log(
      `${input.records.length} sequences: ${parts.join(', ')}; median ${median.toFixed(1)} ms per sequence`,
    );
  }
  process.exitCode = exit;
}

function registerValidate(program: Command): void {
  addRepairOptions(
    program
      .command('validate')
      .description('check a sequence (or a file of records) without repairing it')
      .argument('[file]', 'sequence or records file (default: standard input)')
      .option('--format <format>', 'text | json', 'text'),
  ).action((file: string | undefined, flags: Flags) => {
    const format = oneOf('--format', flags.format, ['text', 'json'] as const);
    const { catalog, options } = loadRepairOptions(flags);
    const input = parseInput(readInput(file));
    let exit = 0;
    for (const record of input.records) {
      if (record.error || !record.sequence) {
        exit = 2;
        print(
          format,
          { id: record.id, valid: null, determination: null, reason: record.error },
          `# ${record.id}: error: ${record.error}`,
        );
        continue;
      }
      const v = validate(record.sequence, record.catalog ?? catalog, {
        ...options,
        memory: record.memory ?? options.memory,
      });
      if (!v.valid) exit = Math.max(exit, 1);
      if (input.single) print(format, validationJson(v), validationText(v));
      else print(format, validationJson(v, record.id), `# ${record.id}: ${validationText(v)}`);
    }
    process.exitCode = exit;
  });
}

function print(format: 'text' | 'json', json: unknown, text: string): void {
  console.log(format === 'json' ? JSON.stringify(json) : text);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
