/**
 * The examples of README.md and docs/*.md that show a command with its output, found, run and compared by
 * `test/docs.test.ts`, and rewritten from real runs by `npm run docs:update`. Two forms are examples:
 *
 * - a fenced block whose first line starts with `$ `: each `$ ` line (continued by a trailing `\` or an
 *   open quote) is a command, and the lines up to the next `$ ` line are its output;
 * - a fenced block right after a comment `<!-- output: COMMAND -->`: the whole block is the output of
 *   COMMAND, or of its last N lines with `<!-- output: COMMAND (last N lines) -->`.
 *
 * Commands: `refract …` (also `npx refract`, `node dist/bin/refract.js`, `npx tsx bin/refract.ts`,
 * `npm run refract --`), run in process; `npm run NAME` (its package.json script); `npx tsx FILE ARGS` (a module whose default export
 * returns the text, or a script); `the ts block above` (the nearest ```ts block before the comment, run
 * from the repository root); `curl …` against a server started in process with the document's own
 * `refract serve` command. Only timings are masked (`mask`). A block after `<!-- not run: WHY -->` is
 * left alone (a program refract does not ship, such as another solver); `skippedExamples` counts them.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { runCli } from '../../src/cli/main.ts';
import { captureOutput, ROOT, shellWords } from './shell.ts';
import { curl, startDocServer } from './server.ts';

export { ROOT };

export interface Example {
  readonly file: string;
  /** 1-based line of the command or comment, for messages. */
  readonly line: number;
  readonly command: string;
  readonly expected: string;
  /** The shown output: lines `from` (inclusive) to `to` (exclusive), 0-based. */
  readonly from: number;
  readonly to: number;
  /** Only the last lines of the output are shown. */
  readonly tail?: number;
}

/**
 * What varies between two runs of the same command, and nothing else: a number of milliseconds in text
 * (`302.951 ms`, `median 19.5 ms per sequence`), and the JSON fields `timeMs` and `uptimeS`.
 */
const MASKS: readonly [RegExp, string][] = [
  [/\b\d+(?:\.\d+)? ms\b/g, '<n> ms'],
  [/"timeMs":\s*\d+(?:\.\d+)?/g, '"timeMs":<n>'],
  [/"uptimeS":\s*\d+/g, '"uptimeS":<n>'],
];

export function mask(text: string): string {
  return MASKS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

const FENCE = /^(`{3,})(\w*)\s*$/;
const OUTPUT = /^<!-- output: (.+?)(?: \(last (\d+) lines\))? -->$/;
const NOT_RUN = /^<!-- not run: .+ -->$/;

/** True while a command's text continues on the next line: a trailing `\`, or a quote left open. */
function continues(text: string): boolean {
  if (text.endsWith('\\')) return true;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") quote = c === "'" ? undefined : quote;
    else if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
  }
  return quote !== undefined;
}

export function findExamples(file: string, text: string): Example[] {
  const lines = text.split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== open[1]) end++;
    const marker = OUTPUT.exec(lines[i - 1] ?? '');
    if (NOT_RUN.test(lines[i - 1] ?? '')) {
      // Shown, not run: the comment says why.
    } else if (marker) {
      const output = lines.slice(i + 1, end);
      examples.push({
        file,
        line: i,
        command: marker[1],
        expected: output.join('\n'),
        from: i + 1,
        to: end,
        ...(marker[2] ? { tail: Number(marker[2]) } : {}),
      });
    } else if (lines[i + 1]?.startsWith('$ ')) {
      let k = i + 1;
      while (k < end) {
        const line = k + 1;
        let command = lines[k].slice(2);
        while (continues(command) && k + 1 < end) command += `\n${lines[++k]}`;
        const from = ++k;
        while (k < end && !lines[k].startsWith('$ ')) k++;
        examples.push({ file, line, command, expected: lines.slice(from, k).join('\n'), from, to: k });
      }
    }
    i = end;
  }
  return examples;
}

/** How many blocks a document marks as shown but not run. */
export function skippedExamples(text: string): number {
  return text.split('\n').filter((line) => NOT_RUN.test(line)).length;
}

/** The document with each example's shown output replaced by `outputs` (same order as `findExamples`). */
export function rewrite(text: string, examples: readonly Example[], outputs: readonly string[]): string {
  const lines = text.split('\n');
  for (let k = examples.length - 1; k >= 0; k--) {
    const { from, to } = examples[k];
    lines.splice(from, to - from, ...(outputs[k] === '' ? [] : outputs[k].split('\n')));
  }
  return lines.join('\n');
}

/** The ts blocks run so far in this process. */
let tsBlocks = 0;

/** Runs the examples of one document, in order (a server example may depend on an earlier one). */
export class DocRunner {
  private server?: FastifyInstance;

  constructor(
    private readonly file: string,
    private readonly text: string,
  ) {}

  async run(example: Example): Promise<string> {
    const output = await this.command(example.command, example.line);
    const trimmed = output.replace(/\n+$/, '');
    return example.tail === undefined ? trimmed : trimmed.split('\n').slice(-example.tail).join('\n');
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private async command(command: string, line: number): Promise<string> {
    if (command === 'the ts block above') return this.tsBlockAbove(line);
    const words = shellWords(command);
    const env: Record<string, string> = {};
    while (/^[A-Za-z_]\w*=/.test(words[0] ?? '')) {
      const [name, ...value] = words.shift()!.split('=');
      env[name] = value.join('=');
    }
    const [program, ...args] = words;
    if (program === 'npx' && args[0] === 'refract') return refract(args.slice(1), env);
    if (program === 'refract') return refract(args, env);
    if (program === 'node' && args[0] === 'dist/bin/refract.js') return refract(args.slice(1), env);
    if ((program === 'tsx' || (program === 'npx' && args[0] === 'tsx')) && args.includes('bin/refract.ts'))
      return refract(args.slice(args.indexOf('bin/refract.ts') + 1), env);
    if (program === 'npx' && args[0] === 'tsx') return script(args[1], args.slice(2));
    if (program === 'tsx') return script(args[0], args.slice(1));
    if (program === 'npm' && args[0] === 'run') {
      const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
      const body = String(scripts[args[1]] ?? '').split(/;|&&/)[0];
      if (!body) throw new Error(`${this.file}:${line}: no npm script ${args[1]}`);
      const extra = args[2] === '--' ? args.slice(3) : [];
      return this.command(`${body} ${extra.map((a) => `'${a}'`).join(' ')}`, line);
    }
    if (program === 'curl') {
      this.server ??= await startDocServer(this.text);
      return curl(this.server, args);
    }
    throw new Error(`${this.file}:${line}: cannot run ${JSON.stringify(command)}`);
  }

  /** The nearest ```ts block above `line`, written next to the sources and imported. */
  private async tsBlockAbove(line: number): Promise<string> {
    const lines = this.text.split('\n');
    let open = line - 1;
    while (open >= 0 && !/^```ts\s*$/.test(lines[open])) open--;
    if (open < 0) throw new Error(`${this.file}:${line + 1}: no ts block above`);
    let end = open + 1;
    while (lines[end] !== '```') end++;
    // Numbered across documents: an import of a path already imported would not run the block again.
    const path = join(ROOT, `.docs-example-${process.pid}-${tsBlocks++}.ts`);
    writeFileSync(path, lines.slice(open + 1, end).join('\n'));
    try {
      return await captureOutput(async () => {
        await import(pathToFileURL(path).href);
      });
    } finally {
      unlinkSync(path);
    }
  }
}

async function refract(args: readonly string[], env: Readonly<Record<string, string>>): Promise<string> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await captureOutput(() => runCli(['node', 'refract', ...args]));
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    process.exitCode = 0;
  }
}

/** A module run as `npx tsx FILE ARGS`: its default export called with the arguments, or its top level. */
async function script(file: string, args: readonly string[]): Promise<string> {
  const url = pathToFileURL(join(ROOT, file)).href;
  return captureOutput(async () => {
    const module = (await import(url)) as { default?: (args: readonly string[]) => unknown };
    if (typeof module.default === 'function') {
      const out = await module.default(args);
      if (typeof out === 'string') process.stdout.write(`${out}\n`);
    }
  });
}
