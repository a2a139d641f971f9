/**
 * Labelled repair data for tuning: corrupted sequences with the gold they came from (the records of
 * `benchmarks/data/corrupted-*.jsonl`), each with the catalog of its NESTFUL set.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError, inputErrorFromZod } from '../../src/model/errors.ts';
import { corruptedPath, loadSetCatalog, SET_NAMES, type SetName } from '../bench/data.ts';
import { kindGroup } from '../bench/evaluate.ts';
import type { Catalog, Sequence } from '../../src/model/types.ts';

export interface LabelledRecord {
  readonly id: string;
  readonly kind: string;
  readonly set: SetName;
  readonly gold: Sequence;
  readonly sequence: Sequence;
  readonly catalog: Catalog;
}

const step = z
  .object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.json()),
    label: z.string().optional(),
  })
  .passthrough();

const RecordSchema = z.object({
  id: z.string().min(1),
  kind: z.string(),
  set: z.enum(SET_NAMES),
  gold: z.array(step).min(1),
  sequence: z.array(step).min(1),
});

/** The default data: the three corrupted NESTFUL sets. */
export const DEFAULT_DATA: readonly string[] = SET_NAMES.map((set) => corruptedPath(set));

/** Parses labelled JSONL text; a bad line is an InputError naming the file and line. */
export function parseLabelled(text: string, source = 'data'): LabelledRecord[] {
  const out: LabelledRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new InputError(`line ${i + 1}`, `not JSON: ${(error as Error).message}`, source);
    }
    const parsed = RecordSchema.safeParse(json);
    if (!parsed.success) throw inputErrorFromZod(parsed.error, [`line ${i + 1}`]).from(source);
    const r = parsed.data;
    out.push({
      id: r.id,
      kind: r.kind,
      set: r.set,
      gold: r.gold as Sequence,
      sequence: r.sequence as Sequence,
      catalog: loadSetCatalog(r.set),
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
  readonly sets?: readonly SetName[];
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

/** Reads labelled JSONL files (default: the three corrupted sets) and applies the selection. */
export function loadLabelled(
  files: readonly string[] = DEFAULT_DATA,
  selection: Selection = {},
): LabelledRecord[] {
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
    return parseLabelled(text, file);
  });
  return selectRecords(records, selection);
}
