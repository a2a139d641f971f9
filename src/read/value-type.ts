/**
 * Normalises the many spellings of a declared type (`String`, `Number`, `Enum`, `Date (yyyy-mm-dd)`,
 * `float`, `file`, JSON Schema type lists) to a `ValueType`.
 */
import type { ValueType } from '../model/types.ts';

const SPELLINGS: ReadonlyMap<string, ValueType> = new Map<string, ValueType>([
  ...[
    'string',
    'str',
    'text',
    'enum',
    'date',
    'datetime',
    'date-time',
    'time',
    'file',
    'url',
    'uri',
    'email',
    'char',
  ].map((s) => [s, 'string'] as const),
  ...['number', 'float', 'double', 'decimal', 'numeric', 'real'].map((s) => [s, 'number'] as const),
  ...['integer', 'int', 'long', 'int32', 'int64'].map((s) => [s, 'integer'] as const),
  ...['boolean', 'bool'].map((s) => [s, 'boolean'] as const),
  ...['array', 'list', 'tuple'].map((s) => [s, 'array'] as const),
  ...['object', 'dict', 'map', 'json', 'record'].map((s) => [s, 'object'] as const),
  ...['any', 'mixed', 'unknown'].map((s) => [s, 'any'] as const),
]);

/**
 * `String` → string, `Date (yyyy-mm-dd)` → string, `float` → number, `["string","null"]` → string;
 * missing, unknown or ambiguous → `any`.
 */
export function normaliseType(raw: string | readonly string[] | null | undefined): ValueType {
  if (raw === null || raw === undefined) return 'any';
  if (typeof raw !== 'string') {
    const kinds = new Set(raw.filter((t) => t.toLowerCase() !== 'null').map((t) => normaliseType(t)));
    return kinds.size === 1 ? [...kinds][0] : 'any';
  }
  const word = raw.trim().toLowerCase();
  const exact = SPELLINGS.get(word);
  if (exact) return exact;
  // `Date (yyyy-mm-dd)`, `list[str]`, `string, optional`: judge by the first word.
  const head = /^[a-z-]+/.exec(word)?.[0];
  return (head && SPELLINGS.get(head)) || 'any';
}

/** True when `raw` is a spelling of a type (`string`, `Date (yyyy-mm-dd)`), not some other text. */
export function isTypeName(raw: string): boolean {
  const word = raw.trim().toLowerCase();
  if (SPELLINGS.has(word)) return true;
  const head = /^[a-z-]+/.exec(word)?.[0];
  return head !== undefined && SPELLINGS.has(head);
}

/** The type implied by a schema node without a `type`: children say object or array. */
export function inferType(declared: ValueType, hasProperties: boolean, hasItems: boolean): ValueType {
  if (declared !== 'any') return declared;
  if (hasProperties) return 'object';
  if (hasItems) return 'array';
  return 'any';
}
