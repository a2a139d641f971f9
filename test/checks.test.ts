/**
 * What `npm run check` looks at: eslint and prettier go over the same targets, and those take in every
 * script at the repository's root (configuration files, and any stray script that lands there), as ESLint
 * expands them; and in `src/` lint knows the types, so a promise left floating, an async callback where a
 * plain one is expected, or an await on what is no promise is an error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const check = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts.check;

/** The arguments of `tool` in the check script (up to the next `&&`), quotes removed. */
function targets(tool: string): string[] {
  const command = check.split('&&').find((part) => part.trim().startsWith(`${tool} `));
  if (!command) throw new Error(`the check script runs no ${tool}`);
  return command
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => arg.replace(/^"(.*)"$/, '$1'));
}

/** A module with one of each promise mistake, linted as if it were a file of src/. */
const MISTAKES = `import { EventEmitter } from 'node:events';
export async function save(): Promise<void> {}
export function run(events: EventEmitter): void {
  save();
  events.on('job', async () => save());
  if (save()) console.log('saved');
}
export async function wait(): Promise<number> {
  return await 42;
}
`;

describe('npm run check', () => {
  it('lints and format-checks every script at the root', async () => {
    expect(targets('prettier')).toEqual(targets('eslint'));
    const scripts = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(c|m)?(j|t)s$/.test(entry.name))
      .map((entry) => resolve(ROOT, entry.name));
    expect(scripts).toContain(resolve(ROOT, 'eslint.config.js'));
    // The root's own targets (the folders are linted whole): what ESLint finds through them.
    const atRoot = targets('eslint').filter((target) => !target.includes('/') && /[*.]/.test(target));
    const linted = atRoot.length === 0 ? [] : await new ESLint({ cwd: ROOT }).lintFiles(atRoot);
    expect(linted.map((result) => result.filePath).sort()).toEqual(scripts.sort());
  });

  it('lints src/ with type information: floating and misused promises, awaits of non-promises', async () => {
    const [result] = await new ESLint({ cwd: ROOT }).lintText(MISTAKES, {
      filePath: resolve(ROOT, 'src/model/prng.ts'),
    });
    const found = result.messages.map((m) => `${m.line}: ${m.ruleId}`);
    expect(found.sort()).toEqual([
      '4: @typescript-eslint/no-floating-promises',
      '5: @typescript-eslint/no-misused-promises',
      '6: @typescript-eslint/no-misused-promises',
      '9: @typescript-eslint/await-thenable',
    ]);
  }, 60_000);
});
