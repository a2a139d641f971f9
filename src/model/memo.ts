/**
 * Bounded memos for pure functions of strings: least recently used entries go first once a memo holds
 * `max` entries or `maxBytes` of keys and values (one by one in `boundedMemo`, a generation at a time in
 * `boundedPairMemo`), and a key longer than `maxKey` characters is computed without being stored. Every
 * process-wide cache of the pipeline is one of these, a bounded cache registered with `registerMemo` (the
 * parsed-file memos of src/read/file-memo.ts, which sit above this layer), or a `WeakMap` tied to an
 * object's life; so no input can make one grow without end, and `memoStats()` reports every named one.
 */
import { LRUCache } from 'lru-cache';

export interface MemoLimits {
  /** Entries kept. */
  readonly max: number;
  /** Bytes of keys and values kept (strings count two bytes a character, other values 16). */
  readonly maxBytes: number;
  /** Longest key stored; longer ones are computed every time. */
  readonly maxKey: number;
}

export interface MemoStats {
  readonly entries: number;
  readonly bytes: number;
}

/** Every memo made here, by name (what it holds now), for `memoStats()`. */
const registry = new Map<string, () => MemoStats>();

const sizeOf = (value: unknown): number => (typeof value === 'string' ? 2 * value.length + 16 : 16);

/** Lists a bounded cache made elsewhere in `memoStats()` under `name`; `stats` says what it holds now. */
export function registerMemo(name: string, stats: () => MemoStats): void {
  registry.set(name, stats);
}

/** Memoises `compute` by its string key within `limits`; `name` identifies the memo in `memoStats()`. */
export function boundedMemo<V>(
  name: string,
  limits: MemoLimits,
  compute: (key: string) => V,
): (key: string) => V {
  // Created on first use: lru-cache allocates its `max` slots up front (some 30 ms and 6 MB for 200,000),
  // which every process and worker thread would pay at start-up, whether it needs the memo or not.
  let cache: LRUCache<string, { value: V }> | undefined;
  registry.set(name, () => ({ entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 }));
  return (key) => {
    if (key.length > limits.maxKey) return compute(key);
    // Values are boxed: lru-cache refuses `undefined` as a value.
    cache ??= new LRUCache<string, { value: V }>({
      max: limits.max,
      maxSize: limits.maxBytes,
      sizeCalculation: (box, key) => 2 * key.length + sizeOf(box.value) + 16,
    });
    const hit = cache.get(key);
    if (hit) return hit.value;
    const value = compute(key);
    cache.set(key, { value });
    return value;
  };
}

/** Entries and bytes held by each memo (for tests, health and benchmarks). */
export function memoStats(): Record<string, MemoStats> {
  const out: Record<string, MemoStats> = {};
  for (const [name, stats] of registry) out[name] = stats();
  return out;
}

/**
 * Memoises `build` per object (each API of a catalog, say): built on first use, dropped with the object, so
 * it is bounded by the objects alive.
 */
export function perObject<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key)!;
    const value = build(key);
    known.set(key, value);
    return value;
  };
}

/** One generation of a pair memo: values by first and second string, and what it holds. */
interface Generation {
  readonly values: Map<string, Map<string, number>>;
  entries: number;
  bytes: number;
}

const generation = (): Generation => ({ values: new Map(), entries: 0, bytes: 0 });

/**
 * Memoises a number `compute(a, b)` of two strings within `limits` (`maxKey` bounds the two lengths
 * together), without building a key per look-up: the name-similarity memos are looked up some 175 times a
 * corrupted record, where joining the two names into a key and an LRU's bookkeeping cost more than the
 * look-up itself. Entries are dropped by generation rather than one by one: new entries go into the young
 * generation; once it holds half the limits it becomes the old one and the previous old one is dropped; an
 * old entry used again goes back into the young one. So an entry goes once it has been unused for a whole
 * generation (the least recently used go first, a generation at a time), and both together never hold more
 * than the limits.
 */
export function boundedPairMemo(
  name: string,
  limits: MemoLimits,
  compute: (a: string, b: string) => number,
): (a: string, b: string) => number {
  const maxEntries = Math.floor(limits.max / 2);
  const maxBytes = limits.maxBytes / 2;
  let young = generation();
  let old = generation();
  registry.set(name, () => ({ entries: young.entries + old.entries, bytes: young.bytes + old.bytes }));
  const keep = (a: string, b: string, value: number) => {
    const size = 2 * (a.length + b.length) + 32;
    if (young.entries >= maxEntries || young.bytes + size > maxBytes) {
      old = young;
      young = generation();
    }
    let row = young.values.get(a);
    if (!row) young.values.set(a, (row = new Map()));
    row.set(b, value);
    young.entries++;
    young.bytes += size;
  };
  return (a, b) => {
    if (maxEntries < 1 || a.length + b.length + 1 > limits.maxKey) return compute(a, b);
    const hit = young.values.get(a)?.get(b);
    if (hit !== undefined) return hit;
    const value = old.values.get(a)?.get(b) ?? compute(a, b);
    keep(a, b, value);
    return value;
  };
}
