/**
 * A small seeded PRNG (mulberry32) and the draws the benchmarks need. Own code rather than Math.random so
 * generated data is byte-identical across runs and Node versions.
 */

export type Rng = () => number;

/** mulberry32: 32-bit state, uniform floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a text, to derive independent seeds from names (`seed/set/index`). */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An integer in [0, n). */
export function below(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

export function choose<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('choose from an empty list');
  return items[below(rng, items.length)];
}

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = below(rng, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
