/**
 * The runtime world: records of an agent part-way through its plan, the state the agent hooks and the loop
 * repair in. From a benchmark record whose mistake lies after its first k steps, those k gold calls have run
 * (`executed`) and memory holds their results; the record's sequence and gold are the steps left. So its
 * mistakes are the benchmark's own, but what they should read is a memory item rather than a planned call.
 * Two forms: `continued`, the sequence the steps left (the agent planned on from where it is), and
 * `replanned`, the whole sequence again under a tries limit of 1 (the agent planned afresh, the calls that ran
 * repeated under their own labels: the repair must drop the repeats, whose results memory holds).
 * A memory item's value has the shape of its API's declared outputs and every path the gold reads from it,
 * with placeholder leaves (no literal of a plan equals one). k is drawn per record (seeded by its id) among
 * the prefixes that leave at least one call, that the rest of the gold reads, and that the mistake leaves
 * alone; a gold that makes one call twice has none.
 */
import { hashSeed } from '../../src/model/prng.ts';
import { isDeepStrictEqual } from 'node:util';
import { segments, stepReferences } from '../../src/read/references.ts';
import { callKeys } from '../../src/validate/tries.ts';
import type { Catalog, Json, Memory, PathSegment, Sequence, ValueType } from '../../src/model/types.ts';
import type { LabelledRecord } from '../tuning/dataset.ts';

/** The world's name (a record's `set`). */
export const RUNTIME_WORLD = 'runtime';

const PLACEHOLDER: Record<ValueType, (field: string) => Json> = {
  string: (field) => `<${field}>`,
  number: () => 7.5,
  integer: () => 7,
  boolean: () => true,
  array: () => [],
  object: () => ({}),
  any: (field) => `<${field}>`,
};

type Tree = Json | Tree[] | { [key: string]: Tree };

/** Sets a leaf at `path` (keys and indexes), making the objects and lists on the way; keeps what is there. */
function place(root: Tree, path: readonly PathSegment[], leaf: Json): Tree {
  if (path.length === 0) return root === undefined || root === null ? leaf : root;
  const [seg, ...rest] = path;
  if (typeof seg === 'number') {
    const list = Array.isArray(root) ? [...(root as Tree[])] : [];
    while (list.length <= seg) list.push(null);
    list[seg] = place(list[seg], rest, leaf);
    return list;
  }
  const object: Record<string, Tree> =
    root !== null && typeof root === 'object' && !Array.isArray(root)
      ? { ...(root as Record<string, Tree>) }
      : {};
  object[seg] = place(object[seg] ?? null, rest, leaf);
  return object;
}

/** The stored result of `api`'s call: its declared outputs and the paths `reads` lists. */
export function memoryValue(catalog: Catalog, api: string, reads: readonly (readonly PathSegment[])[]): Json {
  const spec = catalog.apis.find((a) => a.name === api);
  let value: Tree = {};
  for (const field of spec?.outputs ?? []) {
    const leaf = segments(field.path)
      .filter((s) => typeof s === 'string')
      .pop() as string | undefined;
    value = place(value, segments(field.path), PLACEHOLDER[field.type](leaf ?? field.path));
  }
  for (const path of reads) {
    const leaf = path.filter((s) => typeof s === 'string').pop() as string | undefined;
    value = place(value, path, `<${leaf ?? 'value'}>`);
  }
  return value as Json;
}

/** The labels of the steps of `sequence` that `rest` reads, with the paths read from each. */
function readsOf(rest: Sequence): Map<string, PathSegment[][]> {
  const reads = new Map<string, PathSegment[][]>();
  for (const step of rest)
    for (const site of stepReferences(step.arguments)) {
      const list = reads.get(site.ref.label) ?? [];
      list.push([...site.ref.path]);
      reads.set(site.ref.label, list);
    }
  return reads;
}

/** How the agent's plan goes on from the calls that ran (see the module comment). */
export type RuntimeForm = 'continued' | 'replanned';

export const RUNTIME_FORMS: readonly RuntimeForm[] = ['continued', 'replanned'];

/** The runtime record of `record` in `form`, or undefined when no prefix qualifies (see the module comment). */
export function runtimeRecord(
  record: LabelledRecord,
  form: RuntimeForm = 'continued',
): LabelledRecord | undefined {
  return runtimeForms(record)?.[form];
}

/** Both runtime forms of `record` (one prefix drawn for both), or undefined when no prefix qualifies. */
export function runtimeForms(record: LabelledRecord): Record<RuntimeForm, LabelledRecord> | undefined {
  const { gold, sequence } = record;
  // A gold that makes one call twice (two identical album listings) cannot keep to a tries limit of 1: such
  // records have no runtime form (in neither form, so both forms are of the same records).
  const keys = callKeys([], gold);
  if (new Set(keys).size < keys.length) return undefined;
  const prefixes: number[] = [];
  for (let k = 1; k < gold.length && k < sequence.length; k++) {
    if (!isDeepStrictEqual(gold[k - 1], sequence[k - 1])) break;
    const rest = gold.slice(k);
    if (!rest.some((s) => s.name !== 'var_result')) break;
    const done = new Set(gold.slice(0, k).flatMap((s) => (s.label ? [s.label] : [])));
    if ([...readsOf(rest).keys()].some((label) => done.has(label))) prefixes.push(k);
  }
  if (prefixes.length === 0) return undefined;
  const k = prefixes[hashSeed(record.id) % prefixes.length];
  const executed = gold.slice(0, k);
  const reads = readsOf(gold.slice(k));
  const memory: Record<string, Json> = {};
  for (const step of executed)
    if (step.label) memory[step.label] = memoryValue(record.catalog, step.name, reads.get(step.label) ?? []);
  const continued: LabelledRecord = {
    ...record,
    id: `${RUNTIME_WORLD}/${record.set}/${record.id}`,
    set: RUNTIME_WORLD,
    gold: gold.slice(k),
    sequence: sequence.slice(k),
    options: { ...record.options, executed, memory: memory as Memory },
  };
  return {
    continued,
    replanned: {
      ...continued,
      id: `${RUNTIME_WORLD}/replanned/${record.set}/${record.id}`,
      sequence,
      options: { ...continued.options, maxTries: 1 },
    },
  };
}

/** Both forms of every `every`-th record that has them, in record order. */
export function runtimeFormsOf(
  records: readonly LabelledRecord[],
  every = 1,
): { readonly record: LabelledRecord; readonly forms: Record<RuntimeForm, LabelledRecord> }[] {
  return records
    .flatMap((record) => {
      const forms = runtimeForms(record);
      return forms ? [{ record, forms }] : [];
    })
    .filter((_, i) => i % every === 0);
}

/** The runtime records of `records`: both forms of every `every`-th that qualifies, continued first. */
export function runtimeRecords(records: readonly LabelledRecord[], every = 1): LabelledRecord[] {
  const chosen = runtimeFormsOf(records, every);
  return RUNTIME_FORMS.flatMap((form) => chosen.map((c) => c.forms[form]));
}
