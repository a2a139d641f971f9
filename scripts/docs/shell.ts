/**
 * The little of a shell the documented commands need: splitting a command line into words (single and
 * double quotes, backslash escapes, `\` line continuations), and capturing what a command prints to
 * standard output and error, in the order a terminal shows it.
 */
import { resolve } from 'node:path';
import { inspect } from 'node:util';

/** The repository root: documented commands run from here. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const add = (s: string) => (word = (word ?? '') + s);
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '\n') {
      i += 2;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote in ${JSON.stringify(text)}`);
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && '"\\$`'.includes(text[j + 1])) j++;
        s += text[j++];
      }
      if (j >= text.length) throw new Error(`unclosed quote in ${JSON.stringify(text)}`);
      add(s);
      i = j + 1;
    } else if (c === '\\') {
      add(text[i + 1] ?? '');
      i += 2;
    } else {
      add(c);
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

type Write = typeof process.stdout.write;

/** Runs `action` with standard output, standard error and the console captured into one text. */
export async function captureOutput(action: () => unknown): Promise<string> {
  let out = '';
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  const { log, error, warn, info } = console;
  const write = ((chunk: unknown) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return true;
  }) as Write;
  const print = (...args: unknown[]) => {
    out += `${args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ')}\n`;
  };
  process.stdout.write = write;
  process.stderr.write = write;
  Object.assign(console, { log: print, error: print, warn: print, info: print });
  try {
    await action();
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
    Object.assign(console, { log, error, warn, info });
  }
  return out;
}
