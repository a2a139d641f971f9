/**
 * Rounding of the numbers refract prints: costs to 6 decimals (the solver's tolerance is far finer, and six
 * digits keep a cost stable across backends), times and scores to 3.
 */

export const COST_DIGITS = 6;
export const SHORT_DIGITS = 3;

/** `x` rounded to `digits` decimals. */
export function round(x: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(x * scale) / scale;
}
