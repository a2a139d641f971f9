/**
 * Refraction-style diff of two sequences in the string form: ` ` kept, `-` removed, `+` added, `?` for
 * the pseudo-steps (`ask`, `confirm`) that a person or agent must answer.
 */
import type { Sequence } from '../model/types.ts';
import { formatStep } from '../read/string-form.ts';
import { isPseudoStep } from '../model/constants.ts';

export function diffSequences(before: Sequence, after: Sequence): string {
  const a = before.map(formatStep);
  const b = after.map(formatStep);
  // Longest common subsequence of lines; sequences are short, so the quadratic table is fine.
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      lines.push(`  ${a[i++]}`);
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removed lines first, then what replaces them.
      lines.push(`- ${a[i++]}`);
    } else {
      // By name: the marker only flags a likely question to the reader; the diff has no catalog.
      lines.push(`${isPseudoStep(after[j]) ? '?' : '+'} ${b[j++]}`);
    }
  }
  return lines.join('\n');
}
