/**
 * Resuming into an earlier output. Results are written in input order, so an interrupted output is the
 * results of the first records (at worst with a torn last line): the rerun cuts the torn line, checks the
 * ids line by line against the input and skips what is there. A kept line must be a result (an `id` and a
 * result `status`), so an input file given as the output is refused, never taken
 * for results. Memory stays constant: no id set is kept.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { STATUSES } from '../model/constants.ts';
import { InputError } from '../model/errors.ts';
import { isPlainObject } from '../read/json.ts';

const CHUNK = 64 * 1024;

/** The statuses a result line can carry; an input record has none. */
const RESULT_STATUSES: ReadonlySet<unknown> = new Set(STATUSES);

/** Why a parsed line is not a result line (`undefined` when it is one). */
function notAResult(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not a JSON object';
  if (typeof value.id !== 'string') return 'no string "id"';
  if (!RESULT_STATUSES.has(value.status)) return `no result "status" (${STATUSES.join(', ')})`;
  return undefined;
}

/** Cuts everything after the last newline of `path` (a line the interrupted run did not finish). */
export async function cutTornLine(path: string): Promise<number> {
  const handle = await open(path, 'r+');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(CHUNK);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, end - start, start);
      const at = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at !== -1) {
        end = start + at + 1;
        break;
      }
      end = start;
    }
    if (end < size) await handle.truncate(end);
    return size - end;
  } finally {
    await handle.close();
  }
}

export interface PriorLine {
  readonly lineNo: number;
  readonly id: string;
  readonly value: Record<string, unknown>;
}

/** The result lines of an earlier output, read one at a time. */
export class PriorResults {
  readonly #path: string;
  readonly #lines: AsyncIterator<string>;
  readonly #close: () => void;
  #lineNo = 0;

  constructor(path: string) {
    this.#path = path;
    const reader = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    this.#lines = reader[Symbol.asyncIterator]();
    this.#close = () => reader.close();
  }

  /** The next result line, or undefined at the end of the file. */
  async next(): Promise<PriorLine | undefined> {
    for (;;) {
      const { value: text, done } = await this.#lines.next();
      if (done) return undefined;
      this.#lineNo++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      const why = value === undefined ? 'not JSON' : notAResult(value);
      if (why !== undefined || !isPlainObject(value)) {
        throw new InputError(
          '--resume',
          `${this.#path} line ${this.#lineNo} is not a result line (${why}): is --out the input?`,
        );
      }
      return { lineNo: this.#lineNo, id: value.id as string, value };
    }
  }

  /** Checks that the earlier output's line is the result of the input record `id`. */
  expect(prior: PriorLine, id: string): void {
    if (prior.id !== id) {
      throw new InputError(
        '--resume',
        `${this.#path} line ${prior.lineNo} holds record ${JSON.stringify(prior.id)} where the input has ` +
          `${JSON.stringify(id)}: that output comes from another input`,
      );
    }
  }

  close(): void {
    this.#close();
  }
}
