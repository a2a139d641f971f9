/**
 * `refract export`: the MILP that a repair would solve, written as CPLEX LP and MPS for any other solver
 * (HiGHS native, CBC, Gurobi…). Takes the repair flags of `refract fix`, so the exported model is the one
 * `fix` solves under the same flags. One record goes to standard output; a file of records goes to a
 * folder, one `.lp`/`.mps` pair per record plus `models.jsonl` (sizes and the objective offset).
 */
import { COST_DIGITS, round } from '../model/numbers.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../model/errors.ts';
import type { RecordItem } from '../read/records.ts';
import { compileFor } from '../repair/repair.ts';
import { modelText, MODEL_FORMATS, type ModelFormat } from '../solvers/model-text.ts';
import { makeCall, type Call } from '../api/call.ts';
import { recordSubject } from '../api/record-subject.ts';
import { collect, oneOf, readInput } from '../api/flag-values.ts';
import { parseInput } from './input.ts';
import { addRequestOptions, resolveRequest } from './request-flags.ts';

interface Flags extends Record<string, unknown> {
  format: string;
  out?: string;
  id?: string[];
}

/** One exported record: its texts and the line of the manifest. */
interface Exported {
  readonly texts: Partial<Record<ModelFormat, string>>;
  readonly entry: {
    readonly id: string;
    readonly vars: number;
    readonly binaries: number;
    readonly rows: number;
    /** Repair cost = objective + offset (the objective's constant part: argument drops charged up front). */
    readonly offset: number;
  };
}

/** The model `fix` would solve for `call` (a record with the request's options; its memory and goals win). */
function exportRecord(record: RecordItem, call: Call, formats: readonly ModelFormat[]): Exported {
  const { model, plan } = compileFor(call.sequence, call.catalog, call.options);
  const binaries = model.numVars - (model.continuous?.length ?? 0);
  const comments = [
    `refract export: record ${JSON.stringify(record.id)}`,
    `${model.numVars} variables (${binaries} binary), ${model.rows.length} rows; minimise`,
    `repair cost = objective + ${round(plan.offset, COST_DIGITS)}, less the tie-breaks (each variable's own cost below 0.0001)`,
  ];
  const texts = Object.fromEntries(
    formats.map((f) => [f, modelText(model, f, { comments, name: `refract_${record.id}` })]),
  );
  return {
    texts,
    entry: {
      id: record.id,
      vars: model.numVars,
      binaries,
      rows: model.rows.length,
      offset: round(plan.offset, COST_DIGITS),
    },
  };
}

/** A file name from a record id: safe characters only, unique within the folder. */
function fileStem(id: string, taken: Set<string>): string {
  const base =
    id
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 120) || 'record';
  let stem = base;
  for (let k = 2; taken.has(stem); k++) stem = `${base}-${k}`;
  taken.add(stem);
  return stem;
}

export function registerExport(program: Command): void {
  addRequestOptions(
    program
      .command('export')
      .description('write the MILP of a repair as CPLEX LP and MPS, for any solver')
      .argument('[file]', 'sequence or records file (default: standard input)')
      .option('--format <format>', `lp | mps | both (both needs --out)`, 'both')
      .option('-o, --out <dir>', 'folder for <id>.lp, <id>.mps and models.jsonl (needed for many records)')
      .option('--id <id>', 'only this record (repeatable)', collect),
    'fix',
  ).action((file: string | undefined, flags: Flags) => {
    const format = oneOf('--format', flags.format, ['lp', 'mps', 'both'] as const);
    const formats = format === 'both' ? MODEL_FORMATS : [format];
    // The next fixes' models hold cuts of the optima before them: no file can be written ahead of a solve.
    if (flags.fixes !== undefined)
      throw new InputError(
        '--fixes',
        'export writes the model of the first repair; the next ones need its optimum',
      );
    const { settings, catalog } = resolveRequest('fix', flags);
    const input = parseInput(readInput(file), file, {
      ...settings.options,
      keepUnparsed: settings.heal === true,
    });
    const wanted = flags.id ? new Set(flags.id) : undefined;
    const chosen = input.records.filter((r) => !wanted || wanted.has(r.id));
    const missing = flags.id?.find((id) => !input.records.some((r) => r.id === id));
    if (missing !== undefined) throw new InputError('--id', `no record has id ${JSON.stringify(missing)}`);
    // Into a folder, a record that cannot be read is left out and named, the others written (as batch goes
    // on past a bad line); one model asked for on standard output is that record or nothing.
    const unreadable = chosen.filter((r) => !recordSubject(settings, r));
    const unread = new Set(unreadable);
    const records = flags.out ? chosen.filter((r) => !unread.has(r)) : chosen;
    const bad = flags.out && records.length > 0 ? undefined : unreadable[0];
    if (bad) throw new InputError(`record ${bad.id}`, bad.error ?? 'no sequence');
    // The folder's index has one line per id: a second record of an id would leave a model out of it.
    const seen = new Set<string>();
    for (const r of records) {
      if (seen.has(r.id)) throw new InputError('input', `record id ${JSON.stringify(r.id)} appears twice`);
      seen.add(r.id);
    }
    const callOf = (r: RecordItem) => {
      const found = r.catalog ?? catalog;
      if (!found) throw new InputError('--catalog', `required: record ${r.id} brings no catalog of its own`);
      return makeCall(settings, {
        ...recordSubject(settings, r)!,
        catalog: found,
        memory: r.memory,
        executed: r.executed,
        goals: r.goals,
      });
    };
    if (!flags.out) {
      if (records.length !== 1 || formats.length !== 1)
        throw new InputError(
          '--out',
          'needed to export more than one model (many records, or --format both); or pick one with --id and --format',
        );
      const [record] = records;
      process.stdout.write(exportRecord(record, callOf(record), formats).texts[formats[0]]!);
      return;
    }
    modelFolder(flags.out);
    const taken = new Set<string>();
    const manifest = new Map<string, string>();
    for (const record of records) {
      const { texts, entry } = exportRecord(record, callOf(record), formats);
      const stem = fileStem(record.id, taken);
      const files: Record<string, string> = {};
      for (const f of formats) {
        writeFileSync(join(flags.out, `${stem}.${f}`), texts[f]!);
        files[f] = `${stem}.${f}`;
      }
      manifest.set(record.id, JSON.stringify({ ...entry, ...files }));
    }
    // The folder's index keeps the models an earlier export wrote there (`--id` picks a few): a model
    // written again takes its place, the new ones come after.
    const index = join(flags.out, 'models.jsonl');
    const lines = [...earlierIndex(index, manifest), ...manifest.values()];
    writeFileSync(index, lines.length ? `${lines.join('\n')}\n` : '');
    const models = records.length === 1 ? 'model' : 'models';
    const left =
      unreadable.length === 0
        ? ''
        : `; ${unreadable.length} unreadable record${unreadable.length === 1 ? '' : 's'} left out (first: record ${unreadable[0].id}: ${unreadable[0].error ?? 'no sequence'})`;
    process.stderr.write(`refract export: ${records.length} ${models} written to ${flags.out}${left}\n`);
    if (unreadable.length > 0) process.exitCode = 2;
  });
}

/**
 * The lines of an earlier `models.jsonl` in the folder, in their order, each re-exported model's replaced by
 * its new line (taken out of `fresh`, which keeps the rest); none when there is no index or it is not one.
 */
function earlierIndex(path: string, fresh: Map<string, string>): string[] {
  if (!existsSync(path)) return [];
  const out: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      return [];
    }
    if (typeof id !== 'string') return [];
    const again = fresh.get(id);
    if (again !== undefined) fresh.delete(id);
    out.push(again ?? line);
  }
  return out;
}

/** Creates the folder `--out` names (a file there is refused: the models go into a folder). */
function modelFolder(out: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new InputError('--out', `${out} exists and is not a folder (the models are written into one)`);
    throw new InputError('--out', `cannot create the folder ${out} (${code})`);
  }
}
