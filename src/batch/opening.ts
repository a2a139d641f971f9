/**
 * How a batch run opens: the output is checked before anything is read (never a file the run reads, never
 * results lost to a run that neither resumes nor says to overwrite), and opened only once a first record
 * has come, so that an empty input writes nothing.
 */
import { existsSync } from 'node:fs';
import { InputError } from '../model/errors.ts';
import type { RecordSource } from '../read/records.ts';
import { fileSink, streamSink, type LineSink } from './output.ts';
import { prepareOutPath, refuseOverwrite, type ReadFile } from './out-path.ts';
import { cutTornLine, PriorResults } from './resume.ts';
import { settingsFileOf } from './settings-stamp.ts';

/** The options of a run (`BatchOptions`) about its input and output. */
export interface OutputOptions {
  readonly input?: NodeJS.ReadableStream;
  readonly inputPath?: string;
  readonly out?: string;
  readonly output?: NodeJS.WritableStream;
  readonly resume?: boolean;
  readonly overwrite?: boolean;
  readonly reads?: readonly ReadFile[];
  /** Whether the run keeps its settings beside `out` (`OUT.settings.json`): that file is an output too. */
  readonly stampSettings?: boolean;
}

/** Checks the output before anything is read or opened: never a file the run reads, never lost results. */
export function checkOut(options: OutputOptions): void {
  if (!options.out) {
    if (options.resume) throw new InputError('--resume', 'needs --out: the output file to resume');
    return;
  }
  const input = { path: options.inputPath, fd: options.input === process.stdin ? 0 : undefined };
  prepareOutPath(options.out, input, options.reads);
  if (options.stampSettings) {
    try {
      prepareOutPath(settingsFileOf(options.out), input, options.reads);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new InputError('--out', `${error.problem} (the run keeps its settings there, beside its output)`);
    }
  }
  if (!options.resume && !options.overwrite) refuseOverwrite(options.out);
}

export async function openSink(options: OutputOptions): Promise<{ sink: LineSink; prior?: PriorResults }> {
  if (!options.out) return { sink: streamSink(options.output ?? process.stdout) };
  if (options.resume && existsSync(options.out)) {
    await cutTornLine(options.out);
    return { sink: await fileSink(options.out, true), prior: new PriorResults(options.out) };
  }
  return { sink: await fileSink(options.out, false) };
}

/** The first record, or undefined when the run is aborted before it comes (a slow pipe). */
export async function firstSource(
  sources: AsyncIterator<RecordSource>,
  signal: AbortSignal | undefined,
): Promise<IteratorResult<RecordSource> | undefined> {
  if (!signal) return sources.next();
  if (signal.aborted) return undefined;
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => (onAbort = () => resolve(undefined)));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([sources.next(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
