/**
 * The result sink: JSON lines appended in batches. A batch is written whole with one write call, at most
 * `flushMs` after its first line, so after a crash the file holds a prefix of the results (at worst with
 * a torn last line, which `--resume` cuts away).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { InputError } from '../model/errors.ts';

export interface LineSink {
  /** Queues one line (without newline). */
  push(line: string): void;
  /** Bytes queued or being written (for backpressure). */
  readonly pendingBytes: number;
  /** Resolves when everything queued so far is written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface SinkOptions {
  /** Write once this many bytes are queued (default 64 KiB). */
  readonly batchBytes?: number;
  /** Write queued lines at least this often, in ms (default 200). */
  readonly flushMs?: number;
}

type WriteChunk = (chunk: string) => Promise<void>;

class BatchedSink implements LineSink {
  readonly #write: WriteChunk;
  readonly #end: () => Promise<void>;
  readonly #batchBytes: number;
  readonly #flushMs: number;
  #chunk: string[] = [];
  #bytes = 0;
  #pending = 0;
  #writing: Promise<void> = Promise.resolve();
  #timer?: ReturnType<typeof setTimeout>;
  #error?: unknown;

  constructor(write: WriteChunk, end: () => Promise<void>, options: SinkOptions) {
    this.#write = write;
    this.#end = end;
    this.#batchBytes = options.batchBytes ?? 64 * 1024;
    this.#flushMs = options.flushMs ?? 200;
  }

  get pendingBytes(): number {
    return this.#pending;
  }

  push(line: string): void {
    if (this.#error) throw this.#error;
    this.#chunk.push(line);
    this.#bytes += line.length + 1;
    this.#pending += line.length + 1;
    if (this.#bytes >= this.#batchBytes) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.#flushMs);
  }

  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#chunk.length > 0) {
      const text = this.#chunk.join('\n') + '\n';
      const bytes = this.#bytes;
      this.#chunk = [];
      this.#bytes = 0;
      this.#writing = this.#writing.then(async () => {
        await this.#write(text);
        this.#pending -= bytes;
      });
      this.#writing.catch((error: unknown) => (this.#error ??= error));
    }
    return this.#writing;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#end();
    }
  }
}

/** Appends to `path` (or truncates it first when `append` is false). */
export async function fileSink(path: string, append: boolean, options: SinkOptions = {}): Promise<LineSink> {
  let handle: FileHandle;
  try {
    handle = await open(path, append ? 'a' : 'w');
  } catch (error) {
    throw new InputError(
      '--out',
      `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return new BatchedSink(
    async (text) => {
      try {
        await handle.write(text);
      } catch (error) {
        // A full disk or a file-size limit: one line, and the results written so far stay for --resume.
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        throw new InputError(
          '--out',
          `cannot write ${path} (${code}): the results written so far are kept; --resume finishes the run once there is room`,
        );
      }
    },
    () => handle.close(),
    options,
  );
}

/** Writes to a stream (standard output), waiting for it to drain. */
export function streamSink(stream: NodeJS.WritableStream, options: SinkOptions = {}): LineSink {
  return new BatchedSink(
    (text) =>
      new Promise<void>((resolve, reject) => {
        // The callback fires once the chunk is handed off, so one chunk at a time is in the stream.
        stream.write(text, (error) => (error ? reject(error) : resolve()));
      }),
    async () => {},
    options,
  );
}
