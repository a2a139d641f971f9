/**
 * The feedback text of a sequence in one format, as docs/loop.md shows it:
 * `npx tsx scripts/feedback-example.ts FORMAT SEQUENCE_FILE CATALOG_FILE`.
 */
import { pathToFileURL } from 'node:url';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadSequence } from '../src/read/sequence.ts';
import { FEEDBACK_FORMATS } from '../src/feedback/index.ts';
import { feedbackFor } from '../src/loop/toolcalls.ts';
import { oneOf } from '../src/api/flag-values.ts';

export default async function feedbackExample([
  format,
  sequence,
  catalog,
]: readonly string[]): Promise<string> {
  return feedbackFor(oneOf('FORMAT', format, FEEDBACK_FORMATS), loadSequence(sequence), loadCatalog(catalog));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await feedbackExample(process.argv.slice(2))}\n`);
}
