/**
 * Bounded memos for pure functions of strings: least recently used entries go first once a memo holds
 * `max` entries or `maxBytes` of keys and values, and a key longer than `maxKey` characters is computed
 * without being stored. Every process-wide cache of the pipeline is one of these (or a `WeakMap` tied to
 * an object's life), so no input can make one grow without end.
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

/** Every memo made here, by name (its cache once created), for `memoStats()`. */
const registry = new Map<string, () => LRUCache<string, { value: unknown }> | undefined>();

const sizeOf = (value: unknown): number => (typeof value === 'string' ? 2 * value.length + 16 : 16);

/** Memoises `compute` by its string key within `limits`; `name` identifies the memo in `memoStats()`. */
export function boundedMemo<V>(
  name: string,
  limits: MemoLimits,
  compute: (key: string) => V,
): (key: string) => V {
  // Created on first use: lru-cache allocates its `max` slots up front (some 30 ms and 6 MB for 200,000),
  // which every process and worker thread would pay at start-up, whether it needs the memo or not.
  let cache: LRUCache<string, { value: V }> | undefined;
  registry.set(name, () => cache as LRUCache<string, { value: unknown }> | undefined);
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
  for (const [name, cacheOf] of registry) {
    const cache = cacheOf();
    out[name] = { entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 };
  }
  return out;
}
