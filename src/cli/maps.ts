/** `refract maps`: the mapping table of a catalog, computed from names and descriptions, plus learned pairs. */
import type { Command } from 'commander';
import { loadCatalog } from '../read/catalog.ts';
import { isLabel, LABEL_RULE } from '../read/references.ts';
import { InputError } from '../model/errors.ts';
import { readText, readableFile } from '../read/files.ts';
import { parseRecords } from '../read/records.ts';
import type { Sequence } from '../model/types.ts';
import { DEFAULT_THRESHOLD, DEFAULT_TOP } from '../catalog/computed-mappings.ts';
import { buildMappings, formatMappings, formatMappingsText } from '../mappings/build.ts';
import { collect, integer, oneOf } from '../api/flag-values.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';

interface Flags {
  catalog?: string;
  learn?: string[];
  threshold: string;
  top: string;
  format: string;
  resultName: string;
}

export function registerMaps(program: Command): void {
  program
    .command('maps')
    .description(
      'mapping table of a catalog: computed output -> input pairs, merged with pairs learned from data',
    )
    .option('-c, --catalog <file>', 'tool catalog (NESTFUL spec or OpenAI tools JSON)')
    .option('--learn <file>', 'sequences to learn from: NESTFUL data or records (repeatable)', collect)
    .option('--threshold <score>', 'lowest computed score kept, in (0, 1]', String(DEFAULT_THRESHOLD))
    .option('--top <k>', 'computed sources kept per input parameter', String(DEFAULT_TOP))
    .option('--format <format>', 'json | text', 'json')
    .option('--result-name <name>', 'name of the answer pseudo-step', DEFAULT_RESULT_NAME)
    .action((flags: Flags) => {
      const format = oneOf('--format', flags.format, ['json', 'text'] as const);
      if (!flags.catalog) throw new InputError('--catalog', 'required: the tool catalog to map');
      const threshold = score('--threshold', flags.threshold);
      const top = integer('--top', flags.top, 1, 1000);
      if (!isLabel(flags.resultName))
        throw new InputError('--result-name', `expected a label: ${LABEL_RULE}`);
      const catalog = loadCatalog(readableFile('--catalog', flags.catalog));
      const corpus = (flags.learn ?? []).flatMap(readCorpus);
      const table = buildMappings(catalog, corpus, { threshold, top, resultName: flags.resultName });
      process.stdout.write(
        format === 'json' ? formatMappings(table.mappings) : `${formatMappingsText(table)}\n`,
      );
    });
}

function score(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) {
    throw new InputError(flag, `expected a score in (0, 1], received ${JSON.stringify(value)}`);
  }
  return n;
}

/** Every sequence of a data file; an unreadable record is an error, not a silent gap in the evidence. */
function readCorpus(file: string): Sequence[] {
  return parseRecords(readText(file)).map((record) => {
    if (record.error || !record.sequence)
      throw new InputError(`record ${record.id}`, record.error ?? 'no sequence', file);
    return record.sequence;
  });
}
