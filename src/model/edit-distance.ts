/**
 * Edit distance between names, and the known name a slip most likely meant. Pure and shared: the readers
 * name a misspelt key with it, the catalog analysis scores names with it.
 */

/**
 * Edit distance with transpositions (optimal string alignment): inserts, deletes, substitutions and swaps
 * of two neighbouring letters each count one (`pgae` is one edit from `page`, not two), with an optional cap
 * for early exit.
 */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  if (b.length - a.length > cap) return cap + 1;
  if (cap <= 1) return withinOneEdit(a, b) ? 1 : cap + 1;
  const n = a.length;
  if (rows.length < 3 * (n + 1)) rows = new Int32Array(3 * (n + 1));
  // Three rows of one reused buffer: two rows back (a swap reaches it), the last, the one being filled.
  let before = 0;
  let prev = n + 1;
  let next = 2 * (n + 1);
  for (let i = 0; i <= n; i++) {
    rows[before + i] = 0;
    rows[prev + i] = i;
  }
  let prevMin = 0;
  for (let j = 1; j <= b.length; j++) {
    rows[next] = j;
    let rowMin = j;
    const bj = b.charCodeAt(j - 1);
    const bBefore = j > 1 ? b.charCodeAt(j - 2) : -1;
    for (let i = 1; i <= n; i++) {
      const ai = a.charCodeAt(i - 1);
      let d = rows[prev + i - 1] + (ai === bj ? 0 : 1);
      const del = rows[prev + i] + 1;
      if (del < d) d = del;
      const ins = rows[next + i - 1] + 1;
      if (ins < d) d = ins;
      if (i > 1 && ai === bBefore && a.charCodeAt(i - 2) === bj) {
        const swap = rows[before + i - 2] + 1;
        if (swap < d) d = swap;
      }
      rows[next + i] = d;
      if (d < rowMin) rowMin = d;
    }
    // A swap reaches two rows back: stop only when neither of the last two rows can come under the cap.
    if (rowMin > cap && prevMin > cap) return cap + 1;
    prevMin = rowMin;
    const spare = before;
    before = prev;
    prev = next;
    next = spare;
  }
  return rows[prev + n];
}

/** The rows `editDistance` fills, reused from call to call (grown to the longest name met). */
let rows = new Int32Array(0);

/**
 * Whether two different strings, `a` no longer than `b`, are one edit apart (a substitution, an insertion, or
 * two neighbours swapped): what `editDistance` under a cap of 1 asks, in one pass.
 */
function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length < b.length) return a.slice(i) === b.slice(i + 1);
  if (a.slice(i + 1) === b.slice(i + 1)) return true;
  return (
    i + 1 < a.length &&
    a.charCodeAt(i) === b.charCodeAt(i + 1) &&
    a.charCodeAt(i + 1) === b.charCodeAt(i) &&
    a.slice(i + 2) === b.slice(i + 2)
  );
}

/**
 * The known name a slip of `key` most likely meant: the nearest by edit distance (case folded), at most a
 * third of the key's letters away (at least one: `foo` is no `cost`); undefined when none is that near.
 */
export function nearestName(key: string, names: readonly string[]): string | undefined {
  return names
    .map((n) => ({ n, d: editDistance(n.toLowerCase(), key.toLowerCase(), 4) }))
    .filter((c) => c.d <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : 1))[0]?.n;
}
