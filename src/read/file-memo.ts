/**
 * Parsed files kept for a long-lived process (the MCP server, a library caller) that is named the same
 * file again and again. Each use reads the file and reuses the parsed value only when the content is the
 * same (its hash): an edited file is never answered from a stale copy, which a check of modification time
 * and size alone would allow (two writes of the same size within one clock tick keep both). Reading is
 * cheap next to parsing a catalog. Bounded by entries and by the total length of the files' text, and
 * listed in `memoStats()` under its name (its bytes: the characters of the files' text it keeps).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { LRUCache } from 'lru-cache';
import { registerMemo } from '../model/memo.ts';
import { parseFrom, readText } from './files.ts';

interface Entry<T> {
  readonly hash: string;
  readonly value: T;
  readonly chars: number;
}

export class FileMemo<T extends object> {
  private readonly entries: LRUCache<string, Entry<T>>;

  /**
   * At most `max` files, of at most `maxChars` characters of text in all (a larger file is not kept);
   * `name` identifies the memo in `memoStats()`.
   */
  constructor(name: string, max = 16, maxChars = 64 * 1024 * 1024) {
    const entries = new LRUCache<string, Entry<T>>({
      max,
      maxSize: maxChars,
      sizeCalculation: (entry) => Math.max(1, entry.chars),
    });
    this.entries = entries;
    registerMemo(name, () => ({ entries: entries.size, bytes: entries.calculatedSize }));
  }

  /** The file at `path` parsed by `parse` (errors attributed to the file), from memory if it is unchanged. */
  load(path: string, parse: (text: string) => T): T {
    const text = readText(path);
    const hash = createHash('sha256').update(text).digest('base64url');
    const key = resolve(path);
    const kept = this.entries.get(key);
    if (kept?.hash === hash) return kept.value;
    const value = parseFrom(path, text, parse);
    this.entries.set(key, { hash, value, chars: text.length });
    return value;
  }

  /** How many files are kept. */
  get size(): number {
    return this.entries.size;
  }
}
