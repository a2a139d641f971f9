/**
 * Mapping tables: which output field may feed which input parameter of another name. Accepted: an array of
 * `{from, to, score?}` or an object `{ to: [from, …] | {from: score} }`.
 */
import { z } from 'zod';
import type { Mapping } from '../model/types.ts';
import { InputError, formatPath, parseAt } from '../model/errors.ts';
import { isPlainObject, kindOf } from './json.ts';
import { loadJsonWith } from './files.ts';

const name = z.string().min(1).max(256);
const score = z
  .number({ error: 'expected a score in (0, 1]' })
  .gt(0, 'expected a score in (0, 1]')
  .max(1, 'expected a score in (0, 1]');
const entry = z.object({ from: name, to: name, score: score.optional() }).strict();
const list = z.array(entry).max(1_000_000);
const fieldList = z.array(name);
const scored = z.record(name, score);

/**
 * The table's two forms are told apart by their shape first, so that an error names the entry at fault
 * (`mappings[0].from`, `mappings.originSkyId`), not only that neither form fits.
 */
export function parseMappings(json: unknown, root = 'mappings'): Mapping[] {
  if (Array.isArray(json))
    return parseAt(list, json, [root]).map((m) => ({ from: m.from, to: m.to, score: m.score ?? 1 }));
  if (!isPlainObject(json))
    throw new InputError(
      root,
      `expected an array of {"from", "to", "score"?} or an object {"<to>": ["<from>", …]}, received ${kindOf(json)}`,
    );
  const out: Mapping[] = [];
  for (const [to, value] of Object.entries(json)) {
    parseAt(name, to, [root, to]);
    const froms = Array.isArray(value)
      ? parseAt(fieldList, value, [root, to])
      : isPlainObject(value)
        ? parseAt(scored, value, [root, to])
        : undefined;
    if (froms === undefined)
      throw new InputError(
        formatPath([root, to]),
        `expected an array of output fields or an object {"<from>": score}, received ${kindOf(value)}`,
      );
    if (Array.isArray(froms)) for (const from of froms) out.push({ from, to, score: 1 });
    else for (const [from, s] of Object.entries(froms)) out.push({ from, to, score: s });
  }
  return out;
}

export function loadMappings(path: string): Mapping[] {
  return loadJsonWith(path, (json) => parseMappings(json));
}
