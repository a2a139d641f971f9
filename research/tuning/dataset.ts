/**
 * Labelled repair data for tuning and solver studies: JSONL records `{id, sequence, gold, catalog?, set?,
 * kind? | kinds?}`. Sequences take any form the product reads. A record's catalog is its own (`catalog`: an
 * object, or a path relative to the data file), else `--catalog`, else the NESTFUL catalog its `set` names
 * (`executable`, `glaive`, `sgd`: the shipped `benchmarks/data/corrupted-*.jsonl` records). `set` groups
 * records (per-set limits, held-out sets, mapping tables) and defaults to the file's name; `kind` (or
 * `kinds`, joined by `+`) names the mistakes in the record, for per-kind results.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { z } from 'zod';
import { InputError, inputErrorFromZod } from '../../src/model/errors.ts';
import { loadCatalog, parseCatalog } from '../../src/read/catalog.ts';
import { parseSequence } from '../../src/read/sequence.ts';
import type { Catalog, Sequence } from '../../src/model/types.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import { corruptedPath, loadSetCatalog, SET_NAMES, type SetName } from '../bench/data.ts';
import { kindGroup } from '../bench/evaluate.ts';

export interface LabelledRecord {
  readonly id: string;
  /** The record's mistake kinds joined by `+` (`param_name`, `api_name+ref_label`); `` when unlabelled. */
  readonly kind: string;
  readonly set: string;
  /** Empty for records read without gold (solver studies). */
  readonly gold: Sequence;
  readonly sequence: Sequence;
  readonly catalog: Catalog;
  /** Request options the record is repaired under besides the cost model (memory, executed calls, …). */
  readonly options?: Omit<RepairOptions, 'cost'>;
  /**
   * The gold is the exact repair (a repair case's expected sequence, asks and labels as written), not a
   * plan restored modulo unknowns.
   */
  readonly exact?: boolean;
}

const RecordSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  sequence: z.unknown().refine((v) => v !== undefined, 'required'),
  gold: z.unknown().optional(),
  catalog: z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  set: z.string().min(1).optional(),
  // Either field takes either form: a list, or kinds joined by `+` (as a batch reads them).
  kind: z.union([z.string(), z.array(z.string().min(1)).min(1)]).optional(),
  kinds: z.union([z.string(), z.array(z.string().min(1)).min(1)]).optional(),
});

/** `["a", "b"]` or `"a+b"` → `"a+b"`. */
const joinedKinds = (kinds: string | readonly string[]): string =>
  typeof kinds === 'string'
    ? kinds
        .split('+')
        .filter((k) => k !== '')
        .join('+')
    : kinds.join('+');

/** The default data: the three corrupted NESTFUL sets. */
export const DEFAULT_DATA: readonly string[] = SET_NAMES.map((set) => corruptedPath(set));

export interface ParseOptions {
  /** Where the text came from (error messages; relative catalog paths; the default set name). */
  readonly source?: string;
  /** The catalog of records without their own (`--catalog`). */
  readonly catalog?: Catalog;
  /** Whether every record must carry `gold` (default true). */
  readonly requireGold?: boolean;
}

const isNestfulSet = (set: string): set is SetName => (SET_NAMES as readonly string[]).includes(set);

/** Parses labelled JSONL text; a bad line is an InputError naming the file, line and field. */
export function parseLabelled(text: string, options: ParseOptions = {}): LabelledRecord[] {
  const source = options.source ?? 'data';
  const defaultSet = basename(source, extname(source));
  const catalogFiles = new Map<string, Catalog>();
  const out: LabelledRecord[] = [];
  (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const at = `line ${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new InputError(at, `not JSON: ${(error as Error).message}`, source);
    }
    // A field of the line's record: `line 6: gold`, `line 6: sequence[0].name` (the line, then the path in it).
    const within = (field: string) => (field === '' ? at : `${at}: ${field}`);
    const parsed = RecordSchema.safeParse(json);
    if (!parsed.success) {
      const error = inputErrorFromZod(parsed.error);
      throw new InputError(within(error.field), error.problem, source);
    }
    const r = parsed.data;
    // Two names for the record's mistakes: which one the per-kind tables count would be a guess.
    if (r.kind !== undefined && r.kinds !== undefined && joinedKinds(r.kind) !== joinedKinds(r.kinds))
      throw new InputError(
        within('kinds'),
        `says ${JSON.stringify(joinedKinds(r.kinds))} where kind says ${JSON.stringify(joinedKinds(r.kind))}: give one of them`,
        source,
      );
    if (r.gold === undefined && options.requireGold !== false)
      throw new InputError(within('gold'), 'required: the sequence the repair should restore', source);
    const set = r.set ?? defaultSet;
    const field = (name: string, parse: () => unknown) => {
      try {
        return parse();
      } catch (error) {
        if (error instanceof InputError) throw new InputError(within(error.field), error.problem, source);
        throw error;
      }
    };
    let catalog: Catalog;
    if (typeof r.catalog === 'string') {
      const path = resolve(dirname(source), r.catalog);
      // A file that cannot be read is named as resolved (relative paths are the data file's).
      catalog =
        catalogFiles.get(path) ??
        (field('catalog', () => {
          if (!existsSync(path)) throw new InputError('catalog', `no such file ${path}`);
          return loadCatalog(path);
        }) as Catalog);
      catalogFiles.set(path, catalog);
    } else if (r.catalog !== undefined) catalog = field('catalog', () => parseCatalog(r.catalog)) as Catalog;
    else if (options.catalog) catalog = options.catalog;
    else if (isNestfulSet(set)) catalog = loadSetCatalog(set);
    else
      throw new InputError(
        within('catalog'),
        'required: give --catalog, a catalog in the record, or a NESTFUL set (executable, glaive, sgd)',
        source,
      );
    const sequence = field('sequence', () => parseSequence(r.sequence, { root: 'sequence' })) as Sequence;
    const gold =
      r.gold === undefined ? [] : (field('gold', () => parseSequence(r.gold, { root: 'gold' })) as Sequence);
    // An empty plan is no gold to restore, and an empty input nothing to repair.
    if (sequence.length === 0)
      throw new InputError(within('sequence'), 'empty: expected the plan to repair', source);
    if (r.gold !== undefined && gold.length === 0)
      throw new InputError(within('gold'), 'empty: expected the plan the repair should restore', source);
    out.push({
      id: String(r.id),
      kind: joinedKinds(r.kinds ?? r.kind ?? ''),
      set,
      gold,
      sequence,
      catalog,
    });
  });
  return out;
}

export interface Selection {
  /** At most this many records per set (the first ones of each set, in file order). */
  readonly limit?: number;
  /** Keep only these mistake kinds (`param_name`) or groups (`2 mistakes`); empty or absent keeps all. */
  readonly kinds?: readonly string[];
  /** Keep only these sets. */
  readonly sets?: readonly string[];
}

/** The kinds and kind groups the records carry, for `--kinds` (sorted). */
export function knownKinds(records: readonly LabelledRecord[]): string[] {
  const names = new Set<string>();
  for (const r of records) {
    if (r.kind === '') continue;
    names.add(kindGroup(r.kind));
    for (const part of r.kind.split('+')) names.add(part);
  }
  return [...names].sort();
}

/** `--kinds` must name kinds or groups the data has; a typo would otherwise select nothing silently. */
export function checkKinds(records: readonly LabelledRecord[], kinds: readonly string[]): void {
  const known = knownKinds(records);
  const unknown = kinds.filter((k) => !known.includes(k));
  if (unknown.length > 0)
    throw new InputError(
      '--kinds',
      `unknown kind ${unknown.map((k) => JSON.stringify(k)).join(', ')} ` +
        `(the data has: ${known.length ? known.join(', ') : 'no kinds'})`,
    );
}

export function selectRecords(
  records: readonly LabelledRecord[],
  selection: Selection = {},
): LabelledRecord[] {
  const kinds = selection.kinds?.length ? new Set(selection.kinds) : undefined;
  const taken = new Map<string, number>();
  return records.filter((r) => {
    if (selection.sets && !selection.sets.includes(r.set)) return false;
    if (kinds && !kinds.has(r.kind) && !kinds.has(kindGroup(r.kind))) return false;
    const n = taken.get(r.set) ?? 0;
    if (selection.limit !== undefined && n >= selection.limit) return false;
    taken.set(r.set, n + 1);
    return true;
  });
}

export interface LoadOptions extends Selection {
  readonly catalog?: Catalog;
  readonly requireGold?: boolean;
}

/** Reads labelled JSONL files (default: the three corrupted sets), checks `kinds`, applies the selection. */
export function loadLabelled(
  files: readonly string[] = DEFAULT_DATA,
  options: LoadOptions = {},
): LabelledRecord[] {
  const from = new Map<string, string>();
  const records = files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new InputError(
        '--data',
        `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const parsed = parseLabelled(text, {
      source: file,
      catalog: options.catalog,
      requireGold: options.requireGold,
    });
    if (parsed.length === 0)
      throw new InputError('--data', `${file}: empty input: expected labelled records`);
    for (const r of parsed) {
      const first = from.get(r.id);
      if (first !== undefined)
        throw new InputError(
          '--data',
          `record id ${JSON.stringify(r.id)} appears twice (${first === file ? `in ${file}` : `in ${first} and ${file}`})`,
        );
      from.set(r.id, file);
    }
    return parsed;
  });
  if (options.kinds?.length) checkKinds(records, options.kinds);
  return selectRecords(records, options);
}
