/**
 * Name mistakes the way language models make them: one or two character slips (dropped, doubled, swapped
 * or replaced letters) and style slips (case, underscores, camelCase ↔ snake_case).
 */
import { below, choose, type Rng } from '../../src/model/prng.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function charEdit(rng: Rng, name: string): string {
  if (name.length < 2) return name + choose(rng, [...LETTERS]);
  const i = below(rng, name.length);
  switch (below(rng, 4)) {
    case 0: // dropped letter
      return name.slice(0, i) + name.slice(i + 1);
    case 1: // doubled letter
      return name.slice(0, i) + name[i] + name.slice(i);
    case 2: {
      // swapped neighbours
      const j = Math.min(i, name.length - 2);
      return name.slice(0, j) + name[j + 1] + name[j] + name.slice(j + 2);
    }
    default: {
      // replaced letter, keeping its case
      const c = choose(rng, [...LETTERS]);
      const upper = name[i] !== name[i].toLowerCase();
      return name.slice(0, i) + (upper ? c.toUpperCase() : c) + name.slice(i + 1);
    }
  }
}

function toSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

function toCamel(name: string): string {
  return name.replace(/[_.-]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Style slips; some may equal the name (the caller retries). */
function styleEdit(rng: Rng, name: string): string {
  switch (below(rng, 5)) {
    case 0:
      return name[0] === name[0].toLowerCase()
        ? name[0].toUpperCase() + name.slice(1)
        : name[0].toLowerCase() + name.slice(1);
    case 1:
      return name.includes('_') || name.includes('.') ? toCamel(name) : toSnake(name);
    case 2:
      return name.toLowerCase();
    case 3:
      return name.replace(/[_.]/g, '') === name
        ? name.replace(/([a-z])([A-Z])/, '$1_$2')
        : name.replace(/[_.]/, '');
    default:
      return name.replace(/\./g, '_').replace(/-/g, '_');
  }
}

/**
 * A misspelling of `name` that differs from it and from every name in `avoid` (so a slip never lands on
 * another real name); null when none was found in a few tries.
 */
export function misspell(rng: Rng, name: string, avoid: ReadonlySet<string> = new Set()): string | null {
  for (let attempt = 0; attempt < 12; attempt++) {
    const r = rng();
    let out: string;
    if (r < 0.55) out = charEdit(rng, name);
    else if (r < 0.75) out = charEdit(rng, charEdit(rng, name));
    else out = styleEdit(rng, name);
    if (out !== name && out.length > 0 && !avoid.has(out)) return out;
  }
  return null;
}
