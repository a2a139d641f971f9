/**
 * A unique optimum. Repairs of equal cost, after the closeness tie-breaks, still tie: two labels for the
 * same call, two equally close APIs. Left alone, each solver returns the one it happens to meet first. Every
 * variable therefore carries a last, tiny cost of its own: `tieBreak / 100` times a fixed pseudo-random
 * fraction of its index (a hash, the same on every run and every backend), so that any two different
 * repairs differ in cost by more than the solvers' tolerances (HiGHS stops within 1e-9; the closest two
 * repairs measured on the benchmark differ by 5e-8) and by far less than any edit or closeness term. These
 * terms are not edits: reported costs leave them out.
 */

/** murmur3's 32-bit finaliser: a fixed, well-mixed hash of an integer. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The uniqueness term of every variable: `scale` times a fraction in [0.5, 1) fixed by its index. */
export function uniqueTies(numVars: number, scale: number): number[] {
  const ties = new Array<number>(numVars);
  for (let v = 0; v < numVars; v++) ties[v] = scale * (0.5 + mix(v + 1) / 2 ** 33);
  return ties;
}
