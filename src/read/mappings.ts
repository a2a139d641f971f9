/**
 * Mapping tables: which output field may feed which input parameter of another name. Accepted: an array of
 * `{from, to, score?}` or an object `{ to: [from, …] | {from: score} }`.
 */
import { z } from 'zod';
import type { Mapping } from '../model/types.ts';
import { parseAt } from '../model/errors.ts';
import { loadJsonWith } from './files.ts';

const name = z.string().min(1).max(256);
const score = z.number().gt(0).max(1);
const entry = z.object({ from: name, to: name, score: score.optional() }).strict();
const table = z.union([
  z.array(entry).max(1_000_000),
  z.record(name, z.union([z.array(name), z.record(name, score)])),
]);

export function parseMappings(json: unknown, root = 'mappings'): Mapping[] {
  const parsed = parseAt(table, json, [root]);
  if (Array.isArray(parsed)) return parsed.map((m) => ({ from: m.from, to: m.to, score: m.score ?? 1 }));
  const out: Mapping[] = [];
  for (const [to, froms] of Object.entries(parsed)) {
    if (Array.isArray(froms)) for (const from of froms) out.push({ from, to, score: 1 });
    else for (const [from, s] of Object.entries(froms)) out.push({ from, to, score: s });
  }
  return out;
}

export function loadMappings(path: string): Mapping[] {
  return loadJsonWith(path, (json) => parseMappings(json));
}
