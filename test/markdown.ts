/** Reading the markdown tables of the docs and result pages in tests. */
import { expect } from 'vitest';

/** The markdown table that starts with `head` in `text`, line by line (the test fails when there is none). */
export function tableAt(text: string, head: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(head));
  expect(start, `a table starting with ${head}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end);
}
