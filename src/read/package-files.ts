/**
 * The package's own files, found the same way from the TypeScript sources (`src/read/`) and from the
 * compiled build (`dist/src/read/`, in a clone or installed under `node_modules`): the package root is the
 * nearest folder above this module that holds a `package.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
}

/** The folder holding the package's `package.json`, `models/` and (in a clone) `data/`. */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The cost-model presets (`models/<name>.json`) and shipped mapping tables (`models/mappings/`). */
export const MODELS_DIR = join(PACKAGE_ROOT, 'models');

let version: string | undefined;

/** The package's version, from its `package.json` (read once, when first asked). */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  return version;
}
