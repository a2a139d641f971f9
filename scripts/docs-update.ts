/**
 * `npm run docs:update [FILE…]`: runs every example of README.md and docs/*.md (or of the files given) and
 * writes the real output into the document in place of the shown one. Run it after a change in behaviour,
 * read the diff, commit what is right; `test/docs.test.ts` fails while a document is stale.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocRunner, findExamples, mask, rewrite, ROOT } from './docs/examples.ts';

export const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

async function update(file: string): Promise<number> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const examples = findExamples(file, text);
  if (examples.length === 0) return 0;
  const runner = new DocRunner(file, text);
  const outputs: string[] = [];
  let changed = 0;
  try {
    for (const example of examples) {
      const actual = await runner.run(example);
      // Only timings differ: keep the shown output, so that a run changes nothing it need not.
      const same = mask(actual) === mask(example.expected);
      outputs.push(same ? example.expected : actual);
      if (!same) changed++;
    }
  } finally {
    await runner.close();
  }
  if (changed > 0) writeFileSync(join(ROOT, file), rewrite(text, examples, outputs));
  return changed;
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DOCUMENTS;
for (const file of files) {
  const changed = await update(file);
  process.stdout.write(`${file}: ${changed === 0 ? 'up to date' : `${changed} example(s) rewritten`}\n`);
}
process.exit(0);
