/** Canonical JSON: object keys sorted, so values compare by content, not by key order. */
import type { Json } from './types.ts';
import { setOwn } from './objects.ts';

export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const k of Object.keys(value).sort()) setOwn(out, k, sortKeys((value as Record<string, Json>)[k]));
    return out;
  }
  return value;
}

export function canonicalJson(value: Json): string {
  return JSON.stringify(sortKeys(value));
}
