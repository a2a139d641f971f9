/**
 * `refract tags`: error tags of predicted sequences, against gold sequences when given (records paired by
 * id), else from the validator. `refract modes`: one sequence repaired under every recovery setting.
 */
import type { Command } from 'commander';
import { loadCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import { loadMemory } from '../read/memory.ts';
import type { RecordItem } from '../read/records.ts';
import { allModes, formatModes } from '../tags/all-modes.ts';
import { ERROR_TAGS, countTags, errorTags, type ErrorTag } from '../tags/tags.ts';
import { addRepairOptions, loadRepairOptions, type RepairFlags } from '../api/repair-flags.ts';
import { oneOf, readInput } from '../api/flag-values.ts';
import { parseInput } from './input.ts';

interface TagFlags {
  catalog?: string;
  gold?: string;
  memory?: string;
  types: string;
  resultName: string;
  format: string;
}

export function registerTags(program: Command): void {
  program
    .command('tags')
    .description(
      'error tags of a predicted sequence (or records): against a gold sequence, else from validation',
    )
    .argument('[file]', 'predicted sequence or records file (default: standard input)')
    .option('-c, --catalog <file>', 'tool catalog (NESTFUL spec or OpenAI tools JSON)')
    .option('--gold <file>', 'gold sequence or records (paired with the predictions by id)')
    .option('--memory <file>', 'memory items JSON ({label: {field: value}})')
    .option('--types <mode>', 'literal type/enum checks without gold: off | warn | strict', 'warn')
    .option('--result-name <name>', 'name of the answer pseudo-step', 'var_result')
    .option('--format <format>', 'text | json', 'text')
    .action((file: string | undefined, flags: TagFlags) => {
      const format = oneOf('--format', flags.format, ['text', 'json'] as const);
      const types = oneOf('--types', flags.types, ['off', 'warn', 'strict'] as const);
      if (!flags.catalog) throw new InputError('--catalog', 'required: the tool catalog to check against');
      const catalog = loadCatalog(flags.catalog);
      const memory = flags.memory ? loadMemory(flags.memory) : undefined;
      const pred = parseInput(readInput(file));
      const gold = flags.gold ? goldById(flags.gold) : undefined;
      if (gold && pred.single && gold.size !== 1) {
        throw new InputError(
          '--gold',
          `holds ${gold.size} records: give one gold sequence, or predicted records with ids`,
        );
      }
      const all: ErrorTag[][] = [];
      let exit = 0;
      for (const record of pred.records) {
        const goldRecord = gold && (pred.single ? [...gold.values()][0] : gold.get(record.id));
        const problem =
          record.error ?? (gold && !goldRecord ? `no gold record with id ${record.id}` : goldRecord?.error);
        if (problem || !record.sequence) {
          exit = 2;
          print(format, { id: record.id, error: problem }, `# ${record.id}: error: ${problem}`);
          continue;
        }
        const tags = errorTags(record.sequence, record.catalog ?? catalog, {
          gold: goldRecord?.sequence,
          memory: record.memory ?? memory,
          resultName: flags.resultName,
          types,
        });
        all.push(tags);
        if (tags.length > 0) exit = Math.max(exit, 1);
        const text = tags.length === 0 ? 'no error tags' : tags.map(tagLine).join('\n');
        if (pred.single) print(format, { tags }, text);
        else print(format, { id: record.id, tags }, `# ${record.id}\n${indent(text)}`);
      }
      if (!pred.single && format === 'text') process.stdout.write(`${summary(all)}\n`);
      process.exitCode = exit;
    });
}

export function registerModes(program: Command): void {
  addRepairOptions(
    program
      .command('modes')
      .description(
        'repair a sequence under every mode: default, no mappings, no memory, given APIs only, compress',
      )
      .argument('[file]', 'sequence or records file (default: standard input)')
      .option('--format <format>', 'text | json', 'text'),
  ).action(async (file: string | undefined, flags: RepairFlags & { format: string }) => {
    const format = oneOf('--format', flags.format, ['text', 'json'] as const);
    const { catalog, options } = loadRepairOptions(flags);
    const input = parseInput(readInput(file));
    let exit = 0;
    for (const record of input.records) {
      if (record.error || !record.sequence) {
        exit = 2;
        print(format, { id: record.id, error: record.error }, `# ${record.id}: error: ${record.error}`);
        continue;
      }
      const view = await allModes(record.sequence, record.catalog ?? catalog, {
        ...options,
        memory: record.memory ?? options.memory,
        goals: record.goals ?? options.goals,
      });
      const json = input.single ? { modes: view.rows } : { id: record.id, modes: view.rows };
      print(format, json, input.single ? formatModes(view) : `# ${record.id}\n${indent(formatModes(view))}`);
    }
    process.exitCode = exit;
  });
}

function goldById(path: string): Map<string, RecordItem> {
  try {
    const input = parseInput(readInput(path));
    return new Map(input.records.map((r) => [r.id, r]));
  } catch (error) {
    if (error instanceof InputError) throw new InputError('--gold', error.problem, error.source ?? path);
    throw error;
  }
}

function tagLine(t: ErrorTag): string {
  return `step ${t.step + 1}  ${t.tag}  ${t.detail}`;
}

function summary(all: readonly ErrorTag[][]): string {
  const counts = countTags(all);
  const parts = ERROR_TAGS.filter((t) => counts[t].tags > 0).map(
    (t) => `${t} ${counts[t].tags} (${counts[t].sequences} seq)`,
  );
  const clean = all.filter((tags) => tags.length === 0).length;
  return `${all.length} sequences, ${clean} without tags${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

function print(format: 'text' | 'json', json: unknown, text: string): void {
  process.stdout.write(`${format === 'json' ? JSON.stringify(json) : text}\n`);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
