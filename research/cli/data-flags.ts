/**
 * The flags `refract sweep` and `refract fit` share: which labelled records (`--data`, `--catalog`,
 * `--limit`, `--kinds`), the base cost model, the mapping tables and the solver; and their loading.
 */
import type { Command } from 'commander';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { InputError } from '../../src/model/errors.ts';
import { loadCatalog } from '../../src/read/catalog.ts';
import { readableFile } from '../../src/read/files.ts';
import { costModelFile, loadCostModel } from '../../src/read/cost-models.ts';
import { prepareOutputFile, refuseOverwrite, type ReadFile } from '../../src/batch/out-path.ts';
import { SOLVER_NAMES } from '../../src/model/constants.ts';
import { validate } from '../../src/validate/validate.ts';
import { collect, integer, oneOf } from '../../src/api/flag-values.ts';
import { EVIDENCE_SETS, type EvidenceSet } from '../../src/confidence/fit.ts';
import {
  DEFAULT_DATA,
  loadLabelled,
  MAPPING_SOURCES,
  mappingsFor,
  type EvalOptions,
  type LabelledRecord,
} from '../tuning/index.ts';

export interface DataFlags {
  data?: string[];
  catalog?: string;
  limit?: string;
  kinds?: string;
  costModel: string;
  mappings: string;
  solver: string;
  quiet?: boolean;
  overwrite?: boolean;
}

export function addDataOptions(cmd: Command): Command {
  return cmd
    .option(
      '--data <file>',
      'labelled JSONL {id, sequence, gold, catalog?, set?, kind?} (repeatable; default, in a clone of the repository: the benchmark’s corrupted sets)',
      collect,
    )
    .option('-c, --catalog <file>', 'catalog of the records that bring none of their own')
    .option('--limit <n>', 'at most n records per set (the first ones)')
    .option('--kinds <list>', 'only these mistake kinds or groups (comma-separated)')
    .option('--cost-model <name|file>', 'base cost model: preset name or JSON file', 'default')
    .option('--mappings <source>', `mapping tables: ${MAPPING_SOURCES.join(' | ')} | a mapping file`, 'none')
    .option('--solver <name>', SOLVER_NAMES.join(' | '), 'highs')
    .option('--quiet', 'no progress lines on standard error')
    .option(
      '--overwrite',
      'replace output files that already hold something (without it, such a file is refused)',
    );
}

/**
 * The records files a command reads: `--data`, else the benchmark's corrupted sets, which a clone of the
 * repository holds and the package does not (there, `--data` is required).
 */
export function dataFiles(flags: DataFlags): readonly string[] {
  if (flags.data !== undefined) return flags.data;
  if (!DEFAULT_DATA.every((file) => existsSync(file)))
    throw new InputError(
      '--data',
      'required: the labelled records to work on (the default, the benchmark’s corrupted sets, is in a clone of the repository only)',
    );
  return DEFAULT_DATA;
}

/** The selected records, the evaluation options and the base cost model; bad flags are InputErrors. */
export function loadData(flags: DataFlags, sets?: readonly string[]) {
  const options: EvalOptions = {
    mappingsFor: mappingsFor(flags.mappings),
    solver: oneOf('--solver', flags.solver, SOLVER_NAMES),
  };
  // A file's stale calibration is dropped: these commands fit or measure the weights, not that calibration.
  const base = loadCostModel(flags.costModel, 'cost-model', 'drop');
  const records = loadLabelled(dataFiles(flags), {
    catalog: flags.catalog ? loadCatalog(readableFile('--catalog', flags.catalog)) : undefined,
    limit: flags.limit === undefined ? undefined : integer('--limit', flags.limit, 1),
    kinds: flags.kinds?.split(',').map((k) => k.trim()),
    sets,
  });
  if (records.length === 0) throw new InputError('--data', 'no records selected');
  const unsound = invalidGolds(records);
  if (unsound.length > 0)
    logger(flags)(
      `warning: ${unsound.length} of ${records.length} golds do not validate against their catalog (first: ` +
        `${unsound[0]}): a repair validates, so none restores them as written`,
    );
  return { records, options, base };
}

/** `id: issue` for each record whose gold the validator refuses (against the record's catalog and options). */
export function invalidGolds(records: readonly LabelledRecord[]): string[] {
  return records.flatMap((r) => {
    if (r.gold.length === 0) return [];
    const check = validate(r.gold, r.catalog, { ...r.options, pseudoSteps: true });
    const first = check.issues.find((issue) => issue.severity === 'error');
    return first ? [`${r.id}: ${first.tag} at step ${first.step + 1}`] : [];
  });
}

export type Log = (line: string) => void;

export const logger = (flags: { quiet?: boolean }): Log =>
  flags.quiet ? () => {} : (line) => void process.stderr.write(`${line}\n`);

/**
 * Checks the files a command will write, before any work: each `[flag, path]` given must not be a
 * directory nor a file the command reads (`--data`, `--catalog`, the `--cost-model` or `--mappings`
 * file), and its missing folders are created.
 */
export function prepareOutputs(flags: DataFlags, outputs: readonly [string, string | undefined][]): void {
  const reads: ReadFile[] = [
    ...dataFiles(flags).map((path) => ({ flag: '--data', path })),
    ...(flags.catalog ? [{ flag: '--catalog', path: flags.catalog }] : []),
    { flag: '--cost-model', path: costModelFile(flags.costModel) },
    ...((MAPPING_SOURCES as readonly string[]).includes(flags.mappings)
      ? []
      : [{ flag: '--mappings', path: flags.mappings }]),
  ];
  const given = outputs.filter((o): o is [string, string] => o[1] !== undefined);
  // Two outputs of one run in one file: the second would replace the first (a model by its report).
  given.forEach(([flag, path], i) => {
    const other = given.slice(0, i).find(([, p]) => resolve(p) === resolve(path));
    if (other)
      throw new InputError(flag, `${path} is the ${other[0]} file: give each output a file of its own`);
  });
  for (const [flag, path] of given) {
    prepareOutputFile(flag, path, reads);
    // A fitted model or a report of an earlier run is not replaced in silence.
    if (!flags.overwrite) refuseOverwrite(path, 'add --overwrite to replace it', flag);
  }
}

/** The name of a cost model written to `file`: the file's, without `.json` (`fitted-mine.json` → `fitted-mine`). */
export const modelName = (file: string): string => basename(file).replace(/\.json$/i, '') || 'model';

/** Writes `text` to the file `flag` names. */
export function write(flag: string, file: string, text: string, log: Log): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new InputError(flag, `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  log(`wrote ${file}`);
}

/** Which evidence a calibration reads (`--evidence`, `--calibration-evidence`): one of EVIDENCE_SETS. */
export const evidenceSet = (flag: string, value: string): EvidenceSet => oneOf(flag, value, EVIDENCE_SETS);

/** A number in [0, hi]. */
export function nonNegative(flag: string, value: string, hi: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > hi)
    throw new InputError(flag, `expected a number in [0, ${hi}], received ${JSON.stringify(value)}`);
  return n;
}

/** A number in (lo, hi]. */
export function number(flag: string, value: string, lo: number, hi: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= lo || n > hi)
    throw new InputError(flag, `expected a number in (${lo}, ${hi}], received ${JSON.stringify(value)}`);
  return n;
}
