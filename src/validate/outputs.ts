/** What an API (or a memory item) can provide at a reference path. */
import type { ApiSpec, Json, OutputField, PathSegment } from '../model/types.ts';
import { normalisePath } from '../read/references.ts';

export type Provides = 'yes' | 'no' | 'unknown';

const fieldIndex = new WeakMap<readonly OutputField[], Map<string, OutputField>>();

function indexOf(outputs: readonly OutputField[]): Map<string, OutputField> {
  let index = fieldIndex.get(outputs);
  if (!index) {
    index = new Map(outputs.map((f) => [f.path, f]));
    fieldIndex.set(outputs, index);
  }
  return index;
}

/** The declared output field at a normalised path, if any. */
export function outputField(api: ApiSpec, path: string): OutputField | undefined {
  return api.outputs ? indexOf(api.outputs).get(path) : undefined;
}

/**
 * Whether `api` outputs `path`. The empty path (`$var3$`) is the whole output. A path below a field whose
 * inner shape is undeclared (`open`) is accepted; an API with unknown outputs gives `unknown`.
 */
export function apiProvides(api: ApiSpec, path: readonly PathSegment[]): Provides {
  if (path.length === 0) return 'yes';
  if (!api.outputs) return 'unknown';
  const index = indexOf(api.outputs);
  if (index.has(normalisePath(path))) return 'yes';
  for (let n = path.length - 1; n > 0; n--) {
    const prefix = index.get(normalisePath(path.slice(0, n)));
    if (prefix) return prefix.open ? 'yes' : 'no';
  }
  return 'no';
}

/**
 * A memory value that holds nothing: `null`, `{}`, `[]`, or fields with no value but `null` (`{"skyId": null}`,
 * what an executed call without a stored result stands for): the call that made it returned no value. An
 * empty list or object in a field (`{"news": []}`) is a value.
 */
export function holdsNothing(value: Json): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.values(value).every((v) => onlyNulls(v as Json));
}

/** `null`, or a non-empty list or object of nothing but such (an empty one in a field is a value). */
function onlyNulls(value: Json): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length > 0 && value.every(onlyNulls);
  if (typeof value !== 'object') return false;
  const fields = Object.values(value);
  return fields.length > 0 && fields.every((v) => onlyNulls(v as Json));
}

/** Whether a stored memory value has something at `path`. */
export function memoryProvides(value: Json, path: readonly PathSegment[]): boolean {
  return memoryValueAt(value, path) !== undefined;
}

/** What a stored memory value holds at `path` (undefined: nothing). */
export function memoryValueAt(value: Json, path: readonly PathSegment[]): Json | undefined {
  let v: Json | undefined = value;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) {
      // `[n]` indexes a list; a key applied to a list is read from its first element, as `[]` paths do.
      v = typeof seg === 'number' ? v[seg] : (v[0] as Json | undefined);
      if (typeof seg !== 'number' && v !== undefined) v = memoryAt(v, seg);
    } else {
      v =
        typeof seg === 'string' && Object.prototype.hasOwnProperty.call(v, seg) ? (v as any)[seg] : undefined;
    }
    if (v === undefined) return undefined;
  }
  return v;
}

function memoryAt(v: Json, key: string): Json | undefined {
  return v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.prototype.hasOwnProperty.call(v, key)
    ? (v as any)[key]
    : undefined;
}

/** Every normalised path a memory value provides (for candidate generation). */
export function memoryPaths(value: Json, limit = 2000): string[] {
  const out: string[] = [];
  const walk = (v: Json, path: PathSegment[]): void => {
    if (out.length >= limit) return;
    if (path.length > 0) out.push(normalisePath(path));
    if (Array.isArray(v)) {
      if (v.length > 0) walk(v[0] as Json, [...path, 0]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) walk(item as Json, [...path, k]);
    }
  };
  walk(value, []);
  return out;
}
