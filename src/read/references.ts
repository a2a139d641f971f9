/**
 * The reference grammar (DESIGN §2): `$` label then `.key` or `[n]` segments then `$`.
 * A label is an identifier; a key is any run of characters other than `.`, `[`, `]` and `$`, so keys may
 * hold spaces (`$var1.Exchange Rate$`). Text between `$` signs that does not match is literal
 * (`"$100-$200"`), and scanning resumes at the next `$`.
 */
import type { Json, PathSegment, Reference, ReferenceSite } from '../model/types.ts';
import { setOwn } from '../model/objects.ts';
import { MAX_NAME_LENGTH } from './json.ts';

/** References one argument may hold: each becomes a set of model variables, so the count is bounded. */
export const MAX_REFERENCES_PER_ARGUMENT = 256;

/** Why an argument's references cannot be taken (too many, or a name too long); undefined when fine. */
export function referencesProblem(sites: readonly ReferenceSite[]): string | undefined {
  if (sites.length > MAX_REFERENCES_PER_ARGUMENT) {
    return `${sites.length} references in one argument (at most ${MAX_REFERENCES_PER_ARGUMENT})`;
  }
  for (const { ref } of sites) {
    const long = [ref.label, ...ref.path].find((s) => typeof s === 'string' && s.length > MAX_NAME_LENGTH);
    if (long !== undefined) {
      return `a reference names a key longer than ${MAX_NAME_LENGTH} characters (${(long as string).length})`;
    }
  }
  return undefined;
}

/** A reference found in a string, with its character span. */
export interface FoundReference {
  readonly ref: Reference;
  readonly start: number;
  readonly end: number;
}

const LABEL = /^[A-Za-z_][A-Za-z0-9_]*/;
/** A whole label: what a reference can name (a step's label, a memory item, the answer step's name). */
export const WHOLE_LABEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when a reference can name `label` (a step's label, a memory item). */
export function isLabel(label: string): boolean {
  return WHOLE_LABEL.test(label);
}

/** What a label is, for error messages. */
export const LABEL_RULE = 'a letter or "_" followed by letters, digits or "_"';

/** Why `label` cannot be a label, for an input error. */
export function notALabel(label: string): string {
  return `${JSON.stringify(label)} is not a label: a reference names only ${LABEL_RULE}`;
}
const KEY = /^[^.[\]$]+/;
const INDEX = /^\[(\d+)\]/;

/** Parses the text between two `$` signs; `null` when it is not a reference. */
export function parseReferenceBody(body: string): Reference | null {
  const label = LABEL.exec(body);
  if (!label) return null;
  const path: PathSegment[] = [];
  let rest = body.slice(label[0].length);
  while (rest.length > 0) {
    if (rest[0] === '.') {
      const key = KEY.exec(rest.slice(1));
      if (!key) return null;
      // Leading/trailing spaces are never part of a real key: `$var1. x$` is text.
      if (key[0].trim() !== key[0]) return null;
      path.push(key[0]);
      rest = rest.slice(1 + key[0].length);
    } else {
      const index = INDEX.exec(rest);
      if (!index) return null;
      path.push(Number(index[1]));
      rest = rest.slice(index[0].length);
    }
  }
  return { label: label[0], path, raw: `$${body}$` };
}

/** Every reference in a string, left to right. */
export function findReferences(text: string): FoundReference[] {
  const found: FoundReference[] = [];
  let start = text.indexOf('$');
  while (start !== -1) {
    const end = text.indexOf('$', start + 1);
    if (end === -1) break;
    const ref = parseReferenceBody(text.slice(start + 1, end));
    if (ref) {
      found.push({ ref, start, end: end + 1 });
      start = text.indexOf('$', end + 1);
    } else {
      // Not a reference: the closing `$` may open the next one (`"$100-$var1.x$"`).
      start = end;
    }
  }
  return found;
}

/** Every reference inside an argument value (strings, lists, objects), with its site. */
export function referenceSites(param: string, value: Json): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  const walk = (v: Json, at: PathSegment[]): void => {
    if (typeof v === 'string') {
      const refs = findReferences(v);
      refs.forEach((f, index) =>
        sites.push({ param, at, index, whole: f.start === 0 && f.end === v.length, ref: f.ref }),
      );
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...at, i]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) walk(item as Json, [...at, k]);
    }
  };
  walk(value, []);
  return sites;
}

/** Every reference in a step's arguments, in argument order. */
export function stepReferences(args: { readonly [param: string]: Json }): ReferenceSite[] {
  return Object.entries(args).flatMap(([param, value]) => referenceSites(param, value));
}

/** Writes a reference back as text: `$var1.author[0].id$`. */
export function formatReference(label: string, path: readonly PathSegment[]): string {
  return `$${label}${path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}$`;
}

/** The catalog form of a path: keys joined by `.`, indexes as `[]` (`author[].id`). */
export function normalisePath(path: readonly PathSegment[]): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? '[]' : out === '' ? s : `.${s}`;
  return out;
}

/** `author[].id` -> ['author', 0, 'id'] */
export function segments(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  if (path === '') return out;
  for (const part of path.split('.')) {
    const m = /^(.*?)((?:\[\])*)$/.exec(part)!;
    if (m[1]) out.push(m[1]);
    for (let k = 0; k < m[2].length / 2; k++) out.push(0);
  }
  return out;
}

/** Replaces the text of every reference in a value through `replace` (identity keeps it). */
export function mapReferences(
  value: Json,
  replace: (ref: Reference, at: readonly PathSegment[], index: number) => string,
): Json {
  const walk = (v: Json, at: PathSegment[]): Json => {
    if (typeof v === 'string') {
      const refs = findReferences(v);
      if (refs.length === 0) return v;
      let out = '';
      let last = 0;
      refs.forEach((f, index) => {
        out += v.slice(last, f.start) + replace(f.ref, at, index);
        last = f.end;
      });
      return out + v.slice(last);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, item] of Object.entries(v)) setOwn(out, k, walk(item as Json, [...at, k]));
      return out;
    }
    return v;
  };
  return walk(value, []);
}
