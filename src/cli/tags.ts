/**
 * `refract tags`: error tags of predicted sequences, against gold sequences when given (records paired by
 * id), else from the validator. `refract modes`: one sequence repaired under every recovery setting.
 */
import type { Command } from 'commander';
import { InputError } from '../model/errors.ts';
import type { RecordItem } from '../read/records.ts';
import { allModes, formatModes } from '../tags/all-modes.ts';
import { ERROR_TAGS, countTags, errorTags, type ErrorTag } from '../tags/tags.ts';
import { requestSettings } from '../api/call.ts';
import { oneOf, readInput } from '../api/flag-values.ts';
import { commandRequest, indent, print } from './fix.ts';
import { parseInput } from './input.ts';
import { addRequestOptions, asFlags } from './request-flags.ts';
import { numbered, stepNumber } from '../model/numbers.ts';

export function registerTags(program: Command): void {
  addRequestOptions(
    program
      .command('tags')
      .description(
        'error tags of a predicted sequence (or records): against a gold sequence, else from validation',
      )
      .argument('[file]', 'predicted sequence or records file (default: standard input)')
      .option('--gold <file>', 'gold sequence or records (paired with the predictions by id)')
      .option('--format <format>', 'text | json', 'text'),
    'validate',
  ).action((file: string | undefined, flags: Record<string, unknown> & { gold?: string }) => {
    const format = oneOf('--format', flags.format as string, ['text', 'json'] as const);
    const { settings, catalog } = commandRequest('validate', flags);
    const { memory, resultName, types } = settings.options;
    const pred = parseInput(readInput(file), file);
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
        resultName,
        types,
      });
      all.push(tags);
      if (tags.length > 0) exit = Math.max(exit, 1);
      const text = tags.length === 0 ? 'no error tags' : tags.map(tagLine).join('\n');
      const json = { tags: tags.map(numbered) };
      if (pred.single) print(format, json, text);
      else print(format, { id: record.id, ...json }, `# ${record.id}\n${indent(text)}`);
    }
    if (!pred.single && format === 'text') process.stdout.write(`${summary(all)}\n`);
    process.exitCode = exit;
  });
}

export function registerModes(program: Command): void {
  addRequestOptions(
    program
      .command('modes')
      .description(
        'repair a sequence under every mode: default, no mappings, no memory, given APIs only, compress',
      )
      .argument('[file]', 'sequence or records file (default: standard input)')
      .option('--format <format>', 'text | json', 'text'),
    'fix',
  ).action(async (file: string | undefined, flags: Record<string, unknown>) => {
    const format = oneOf('--format', flags.format as string, ['text', 'json'] as const);
    const { request, settings, catalog } = commandRequest('fix', flags);
    // The compress row is priced as `refract compress` prices it (its own default cost model). That preset
    // carries no calibration: without a cost model of the user's, --min-confidence holds back the other rows.
    const { minConfidence: _held, ...uncalibrated } = request;
    void _held;
    const compressRequest = request.costModel === undefined ? uncalibrated : request;
    const compressing = asFlags(() => requestSettings('compress', compressRequest, { files: true, catalog }));
    const input = parseInput(readInput(file), file);
    let exit = 0;
    for (const record of input.records) {
      if (record.error || !record.sequence) {
        exit = 2;
        print(format, { id: record.id, error: record.error }, `# ${record.id}: error: ${record.error}`);
        continue;
      }
      const own = (options: typeof settings.options) => ({
        ...options,
        memory: record.memory ?? options.memory,
        goals: record.goals ?? options.goals,
      });
      const view = await allModes(
        record.sequence,
        record.catalog ?? catalog,
        own(settings.options),
        own(compressing.options),
      );
      const json = input.single ? { modes: view.rows } : { id: record.id, modes: view.rows };
      print(format, json, input.single ? formatModes(view) : `# ${record.id}\n${indent(formatModes(view))}`);
    }
    process.exitCode = exit;
  });
}

function goldById(path: string): Map<string, RecordItem> {
  try {
    const input = parseInput(readInput(path), path);
    return new Map(input.records.map((r) => [r.id, r]));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // A problem of the whole file (cannot read it, empty) already says which; one inside it gets the path.
    if (error.field === 'input' && error.source === undefined) throw new InputError('--gold', error.problem);
    const field = error.field === '' ? '' : `${error.field}: `;
    throw new InputError('--gold', `${error.source ?? path}: ${field}${error.problem}`);
  }
}

function tagLine(t: ErrorTag): string {
  return `step ${stepNumber(t.step)}  ${t.tag}  ${t.detail}`;
}

function summary(all: readonly ErrorTag[][]): string {
  const counts = countTags(all);
  const parts = ERROR_TAGS.filter((t) => counts[t].tags > 0).map(
    (t) => `${t} ${counts[t].tags} (${counts[t].sequences} seq)`,
  );
  const clean = all.filter((tags) => tags.length === 0).length;
  return `${all.length} sequences, ${clean} without tags${parts.length ? `: ${parts.join(', ')}` : ''}`;
}
