/**
 * Files of many sequences → record items. Accepted: a JSON array of NESTFUL samples (`{input, output}`) or of
 * records, JSONL with one record or sample per line (`{id?, sequence, memory?, executed?, goals?, catalog?, gold?, kinds?}`, the
 * sequence in any form `parseSequence` takes), or one sequence in the string form. A malformed record gives an
 * item with `error`; the others still parse.
 */
import { z } from 'zod';
import type { Catalog, Memory, Sequence } from '../model/types.ts';
import type { Goals } from '../model/options.ts';
import { errorMessage, InputError, parseAt } from '../model/errors.ts';
import { parseCatalog } from './catalog.ts';
import { isPlainObject, kindOf, nameSchema, own, type PlainObject } from './json.ts';
import { parseMemory } from './memory.ts';
import { heldLabels, parseExecuted, parseSequence, parseSequenceText } from './sequence.ts';
import { byteLines } from './byte-lines.ts';

export interface RecordItem {
  /** The record's `id` (or `sample_id`), else its 0-based index, as a string. */
  readonly id: string;
  /** The user request of a NESTFUL sample, when given. */
  readonly input?: string;
  readonly sequence?: Sequence;
  readonly memory?: Memory;
  /** The calls already executed before this sequence (they count against `maxTries`). */
  readonly executed?: Sequence;
  readonly goals?: Goals;
  readonly catalog?: Catalog;
  /** The plan the sequence should have been (labelled data): the batch then scores the repair against it. */
  readonly gold?: Sequence;
  /** The mistakes the record holds (`kinds: [...]`, or `kind` with `+` between kinds), for per-kind scores. */
  readonly kinds?: readonly string[];
  /** Why the record could not be read; the other fields may then be missing. */
  readonly error?: string;
  /** The sequence as given, when it could not be read and healing was asked for (`keepUnparsed`). */
  readonly unparsed?: unknown;
}

/**
 * One record still in its JSON text, as a batch reads it: the text goes to a worker thread, which parses it
 * there (`recordFromText`), so the reading thread never parses sequences or catalogs.
 */
export interface RecordText {
  /** The JSON of one record (a JSONL line, which may turn out not to be JSON). */
  readonly text: string;
  /** The record's 0-based index: the id of a record that gives none. */
  readonly index: number;
  /** Its line in a JSONL input, for error messages (`line 4: …`). */
  readonly lineNo?: number;
}

/** A record as read: still text, or already parsed (the rare inputs that must be parsed to be split). */
export type RecordSource = RecordText | RecordItem;

export interface RecordOptions {
  /** Parses a record's own catalog (default `parseCatalog`); a caller may cache by content. */
  readonly parseCatalog?: (value: unknown) => Catalog;
  /**
   * The run's memory and executed calls (`--memory`, `--executed`), which a record's own replace: the labels
   * they hold are no unlabelled call's (`SequenceOptions.held`).
   */
  readonly memory?: Memory;
  readonly executed?: Sequence;
  /**
   * Keep a sequence that cannot be read as given (`unparsed`), for a repair that heals it (`--heal`): its
   * malformed argument JSON is healed, not refused.
   */
  readonly keepUnparsed?: boolean;
}

const kindsSchema = z.union([z.array(z.string().min(1)).min(1), z.string().min(1)]);

const goalsSchema = z.looseObject({
  apis: z.array(nameSchema).optional(),
  fields: z.array(z.string()).optional(),
});

function isStep(item: unknown): boolean {
  return (
    isPlainObject(item) &&
    (typeof own(item, 'name') === 'string' || isPlainObject(own(item, 'function'))) &&
    own(item, 'sequence') === undefined &&
    own(item, 'output') === undefined
  );
}

function givenId(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const id = own(value, 'id') ?? own(value, 'sample_id');
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function recordFromObject(value: PlainObject, id: string, options: RecordOptions): RecordItem {
  // An id of another kind would be replaced by the record's index in silence: the output's ids would not be
  // the input's.
  for (const key of ['id', 'sample_id']) {
    const given = own(value, key);
    if (given != null && typeof given !== 'string' && typeof given !== 'number')
      throw new InputError(key, `expected a string or a number, received ${kindOf(given)}`);
  }
  const sequence = own(value, 'sequence');
  const output = own(value, 'output');
  const toolCalls = own(value, 'tool_calls');
  if (sequence === undefined && output === undefined && toolCalls === undefined)
    throw new Error('expected a record with a "sequence" (or a NESTFUL sample with an "output")');
  const memory = own(value, 'memory');
  const ownMemory = memory != null ? parseMemory(memory) : undefined;
  const executed = own(value, 'executed');
  // Executed calls are labelled by their tool-call ids where memory keeps their results so.
  const ownExecuted =
    executed != null ? parseExecuted(executed, ownMemory ?? options.memory, { root: 'executed' }) : undefined;
  const held = heldLabels(ownMemory ?? options.memory, ownExecuted ?? options.executed);
  const raw = sequence ?? output ?? value;
  let parsed: Sequence | undefined;
  let unreadable: string | undefined;
  try {
    parsed = parseSequence(raw, {
      root: sequence === undefined && output !== undefined ? 'output' : 'sequence',
      held,
    });
  } catch (error) {
    // Kept as given for a repair that heals it; without healing, the record cannot be read.
    if (!options.keepUnparsed || !(error instanceof InputError)) throw error;
    unreadable = errorMessage(error);
  }
  const input = own(value, 'input');
  const goals = own(value, 'goals');
  const catalog = own(value, 'catalog') ?? own(value, 'tools');
  const gold = own(value, 'gold');
  const kinds = own(value, 'kinds') ?? own(value, 'kind');
  return {
    id,
    ...(typeof input === 'string' ? { input } : {}),
    ...(parsed !== undefined ? { sequence: parsed } : { error: unreadable, unparsed: raw }),
    ...(ownMemory !== undefined ? { memory: ownMemory } : {}),
    ...(goals != null ? { goals: parseAt(goalsSchema, goals, ['goals']) as Goals } : {}),
    ...(ownExecuted !== undefined ? { executed: ownExecuted } : {}),
    ...(catalog != null ? { catalog: (options.parseCatalog ?? parseCatalog)(catalog) } : {}),
    ...(gold != null ? { gold: parseSequence(gold, { root: 'gold' }) } : {}),
    ...(kinds != null ? { kinds: kindList(parseAt(kindsSchema, kinds, ['kinds'])) } : {}),
  };
}

/** `["a", "b"]` or `"a+b"` → `["a", "b"]`. */
function kindList(kinds: string | readonly string[]): string[] {
  return typeof kinds === 'string' ? kinds.split('+').filter((k) => k !== '') : [...kinds];
}

/** One record from a parsed JSON value; never throws. `where` prefixes error messages (`line 4`). */
function recordFrom(value: unknown, index: number, where?: string, options: RecordOptions = {}): RecordItem {
  const id = givenId(value) ?? String(index);
  try {
    if (Array.isArray(value) || typeof value === 'string') {
      try {
        return { id, sequence: parseSequence(value, { held: heldLabels(options.memory, options.executed) }) };
      } catch (error) {
        if (!options.keepUnparsed || !(error instanceof InputError)) throw error;
        const message = errorMessage(error);
        return { id, error: where ? `${where}: ${message}` : message, unparsed: value };
      }
    }
    if (isPlainObject(value)) {
      const item = recordFromObject(value, id, options);
      return item.error !== undefined && where ? { ...item, error: `${where}: ${item.error}` } : item;
    }
    throw new Error(`expected a record object, received ${kindOf(value)}`);
  } catch (error) {
    return { id, error: where ? `${where}: ${errorMessage(error)}` : errorMessage(error) };
  }
}

/**
 * An array holding a record (an object that is no step) and no step is a list of records, each read on its own
 * (a malformed one an error item); anything else is one record: a step array, or one error (`[1, 2]` holds no
 * record, so it is one malformed sequence, not two records).
 */
function isRecordList(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) && value.some((item) => isPlainObject(item) && !isStep(item)) && !value.some(isStep)
  );
}

/**
 * The number of records a JSONL line holds (what `jsonlRecords` yields for it) without reading them: 0 for a
 * blank line, the length of a list of records, else 1 (a record, a sample, a step array, or an error item).
 */
export function lineRecordCount(line: string): number {
  if (line.trim() === '') return 0;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 1;
  }
  return isRecordList(value) ? value.length : 1;
}

/** The records of a parsed value: a list of records, or one record (a record, a sample, a step array). */
function valueRecords(
  value: unknown,
  index: number,
  where?: string,
  options: RecordOptions = {},
): RecordItem[] {
  if (isRecordList(value)) return value.map((item, i) => recordFrom(item, index + i, where, options));
  return [recordFrom(value, index, where, options)];
}

/** Parses one record's text; never throws (malformed JSON gives an item with `error`). */
export function recordFromText(source: RecordText, options: RecordOptions = {}): RecordItem {
  const where = source.lineNo === undefined ? undefined : `line ${source.lineNo}`;
  let value: unknown;
  try {
    value = JSON.parse(source.text);
  } catch (error) {
    const message = `invalid JSON (${errorMessage(error)})`;
    return { id: String(source.index), error: where ? `${where}: ${message}` : message };
  }
  return recordFrom(value, source.index, where, options);
}

/** The record a source stands for, parsing it if it is still text. */
export function sourceRecord(source: RecordSource, options: RecordOptions = {}): RecordItem {
  return 'text' in source ? recordFromText(source, options) : source;
}

/**
 * The sources of one JSONL line: the line itself, except a line holding a list of records, which is parsed
 * here to split it (and to number the records after it).
 */
function lineSources(line: string, lineNo: number, index: number, options: RecordOptions): RecordSource[] {
  if (line.trimStart().startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (isRecordList(value)) return valueRecords(value, index, `line ${lineNo}`, options);
  }
  return [{ text: line, index, lineNo }];
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * True when a line holds a whole record: a non-empty JSON object or array. Such a line marks the input as JSONL;
 * a pretty-printed JSON document never has one (its non-empty containers span several lines).
 */
export function isRecordLine(line: string): boolean {
  const text = line.trim();
  if (text.length < 3 || (text[0] !== '{' && text[0] !== '[')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.length > 0 : isPlainObject(value) && Object.keys(value).length > 0;
  } catch {
    return false;
  }
}

/**
 * JSONL: every non-blank line is a record (or an error item); `first` is the number of the first line and
 * `start` the index of the first record (a slice of a file read on its own numbers its records as the whole
 * file does).
 */
function* jsonlSources(
  lines: Iterable<string>,
  first = 1,
  start = 0,
  options: RecordOptions = {},
): Generator<RecordSource> {
  let lineNo = first;
  let index = start;
  for (const line of lines) {
    if (line.trim() !== '') {
      const sources = lineSources(line, lineNo, index, options);
      index += sources.length;
      yield* sources;
    }
    lineNo++;
  }
}

/** The records of JSONL lines (see `jsonlSources`), parsed. */
export function* jsonlRecords(
  lines: Iterable<string>,
  first = 1,
  start = 0,
  options: RecordOptions = {},
): Generator<RecordItem> {
  for (const source of jsonlSources(lines, first, start, options)) yield sourceRecord(source, options);
}

/** Parses a whole file of records. */
export function parseRecords(text: string, options: RecordOptions = {}): RecordItem[] {
  const body = stripBom(text);
  const trimmed = body.trim();
  if (trimmed === '') return [];
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch (error) {
    const lines = body.split(/\r?\n/);
    if (lines.some(isRecordLine)) return [...jsonlRecords(lines, 1, 0, options)];
    if (trimmed[0] === '[' || trimmed[0] === '{') {
      return [{ id: '0', error: `invalid JSON (${errorMessage(error)})` }];
    }
    try {
      return [{ id: '0', sequence: parseSequenceText(body) }];
    } catch (inner) {
      return [{ id: '0', error: errorMessage(inner) }];
    }
  }
  // An empty array is no records (not one empty sequence), on one line or several.
  if (Array.isArray(document) && document.length === 0) return [];
  const lines = body.split(/\r?\n/);
  // One line is JSONL too: read it the same way the stream does.
  if (lines.filter((line) => line.trim() !== '').length === 1) return [...jsonlRecords(lines, 1, 0, options)];
  return valueRecords(document, 0, undefined, options);
}

/** Where a slice of a JSONL file starts: its first line's number, first record's index, first byte's offset. */
export interface SliceStart {
  readonly line: number;
  readonly index: number;
  readonly offset: number;
}

/**
 * The record sources of a slice of a JSONL file that starts at a line boundary, read alone: lines, records and
 * byte offsets are numbered from `start`, so the items (ids, error messages) are those `readRecords` gives for
 * these lines of the whole file, once that file is known to be JSONL.
 */
export async function* readJsonlSlice(
  stream: NodeJS.ReadableStream,
  start: SliceStart,
  options: RecordOptions = {},
): AsyncGenerator<RecordSource> {
  let lineNo = start.line - 1;
  let index = start.index;
  for await (const read of byteLines(stream, start.offset)) {
    lineNo++;
    if ('error' in read) {
      yield { id: String(index++), error: `line ${lineNo}: ${read.error}` };
      continue;
    }
    const line = lineNo === 1 ? stripBom(read.text) : read.text;
    for (const source of jsonlSources([line], lineNo, index, options)) {
      index++;
      yield source;
    }
  }
}

/**
 * Streams record sources from JSONL, one line at a time in constant memory, without parsing the records:
 * each line is passed on as text (see `RecordText`). Lines before the first whole record are held; input
 * without any (a pretty-printed JSON document, the string form) is read whole and parsed with
 * `parseRecords`, giving the same items.
 */
export async function* readRecordSources(
  stream: NodeJS.ReadableStream,
  options: RecordOptions = {},
): AsyncGenerator<RecordSource> {
  const held: string[] = [];
  let jsonl = false;
  let lineNo = 0;
  let index = 0;
  for await (const read of byteLines(stream)) {
    lineNo++;
    if ('error' in read) {
      // Not UTF-8: the record of this line gets the error; JSONL goes on with the next line.
      jsonl = true;
      for (const source of jsonlSources(held, 1, 0, options)) {
        index++;
        yield source;
      }
      held.length = 0;
      yield { id: String(index++), error: `line ${lineNo}: ${read.error}` };
      continue;
    }
    const line = lineNo === 1 ? stripBom(read.text) : read.text;
    if (!jsonl) {
      held.push(line);
      if (!isRecordLine(line)) continue;
      jsonl = true;
      for (const source of jsonlSources(held, 1, 0, options)) {
        index++;
        yield source;
      }
      held.length = 0;
      continue;
    }
    if (line.trim() === '') continue;
    for (const source of lineSources(line, lineNo, index, options)) {
      index++;
      yield source;
    }
  }
  if (!jsonl) yield* parseRecords(held.join('\n'), options);
}

/** Streams records from JSONL (see `readRecordSources`), parsing each. */
export async function* readRecords(
  stream: NodeJS.ReadableStream,
  options: RecordOptions = {},
): AsyncGenerator<RecordItem> {
  for await (const source of readRecordSources(stream, options)) yield sourceRecord(source, options);
}
