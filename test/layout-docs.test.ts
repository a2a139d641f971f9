/**
 * What the layout documents say stays true: docs/design.md's layer table has a row for every folder of
 * `src/`, in the layer order `.dependency-cruiser.cjs` enforces; every source file a comment in `src/`
 * names exists; and the command line's header comment gives the exit codes the README gives.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const cruiser = require('../.dependency-cruiser.cjs') as {
  forbidden: { name: string; from: { pathNot?: string } }[];
};

/** The layer order of the architecture check, from its rule for folders outside it. */
function layers(): string[] {
  const rule = cruiser.forbidden.find((r) => r.name === 'unknown-folder')!;
  return /^\^src\/\((.*)\)\/$/.exec(rule.from.pathNot!)![1].split('|');
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('the layout as documented', () => {
  it("docs/design.md's layer table names every folder of src/, in layer order", () => {
    const folders = readdirSync('src', { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...layers()].sort()).toEqual(folders.sort());
    const rows = readFileSync('docs/design.md', 'utf8')
      .split('\n')
      .filter((line) => /^\| [a-z ]+ \| `src\//.test(line));
    const named = rows.flatMap((row) =>
      [...row.split('|')[2].matchAll(/`src\/([a-z]+)\/`/g)].map((m) => m[1]),
    );
    expect(named).toEqual(layers());
  });

  it('every source file a comment in src/ names exists', () => {
    const code = ['src', 'test', 'bin', 'research', 'benchmarks', 'scripts'].flatMap(files);
    const names = new Set(code.map((file) => basename(file)));
    const missing: string[] = [];
    for (const file of files('src')) {
      const comments = readFileSync(file, 'utf8').match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? [];
      for (const comment of comments) {
        for (const [ref] of comment.matchAll(/[\w./-]*[\w-]\.(?:ts|mjs)\b/g)) {
          const found = ref.startsWith('.')
            ? existsSync(join(dirname(file), ref))
            : ref.includes('/')
              ? existsSync(ref)
              : names.has(ref);
          if (!found) missing.push(`${file}: ${ref}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("the command line's header gives the exit codes the README gives", () => {
    const codes = (text: string) =>
      [.../Exit codes: ([^.]*)\./.exec(text.replace(/\s*\n\s*\*?\s*/g, ' '))![1].matchAll(/\b\d\b/g)]
        .map((m) => Number(m[0]))
        .sort();
    const readme = codes(readFileSync('README.md', 'utf8'));
    expect(readme).toEqual([0, 1, 2, 3, 4, 5]);
    expect(codes(readFileSync('src/cli/main.ts', 'utf8'))).toEqual(readme);
  });
});
