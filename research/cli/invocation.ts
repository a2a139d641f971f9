/**
 * The command line that ran a command, for the "Regenerate:" line of the pages it writes. Rebuilt from what
 * the parser received (the command's path, then each option given on the command line, then its operands),
 * so it is the same whether the command ran from a shell or in-process through `runCli`, and it never shows
 * the flags of the `node`/`tsx` process that ran it.
 */
import type { Command, Option } from 'commander';

const word = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

function optionWords(option: Option, value: unknown): string[] {
  const flag = option.long ?? option.short ?? option.name();
  if (typeof value === 'boolean') return [flag];
  if (Array.isArray(value)) return value.flatMap((item) => [flag, word(String(item))]);
  return [flag, word(String(value))];
}

export function invocation(command: Command): string {
  const path: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  const words = ['refract', ...path];
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) === 'cli')
      words.push(...optionWords(option, command.getOptionValue(key)));
  }
  return [...words, ...command.args.map(word)].join(' ');
}
