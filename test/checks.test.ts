/**
 * What `npm run check` looks at: eslint and prettier go over the same targets, and those take in every
 * script at the repository's root (configuration files, and any stray script that lands there), as ESLint
 * expands them.
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
});
