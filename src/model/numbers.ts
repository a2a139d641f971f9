/**
 * The numbers refract prints: costs rounded to 6 decimals (the solver's tolerance is far finer, and six
 * digits keep a cost stable across backends), times and scores to 3, steps counted from 1.
 */

export const COST_DIGITS = 6;
export const SHORT_DIGITS = 3;

/**
 * Whether `text` is a decimal number as a person writes one (`2`, `-0.5`, `.5`, and `1e-3` with `exponent`),
 * not the hexadecimal, binary or `Infinity` that `Number` reads as well (`0x10` is 16). Blanks around it pass.
 */
export function isDecimalText(text: string, exponent = true): boolean {
  return (exponent ? DECIMAL_EXPONENT : DECIMAL).test(text);
}

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
const DECIMAL_EXPONENT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;

/** `x` rounded to `digits` decimals. */
export function round(x: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(x * scale) / scale;
}

/**
 * Step numbers: every output (text, JSON, feedback, messages) numbers steps from 1, so "step 3" is the
 * third call as a reader counts it (and NESTFUL labels count from 1). The library's objects hold 0-based
 * indexes into the sequence (`Issue.step`, `Edit.step`); renderings turn them into numbers here.
 */
export function stepNumber(index: number): number {
  return index + 1;
}

/** An object with a 0-based `step` index, as output: the same object with its step number. */
export function numbered<T extends { readonly step: number }>(item: T): T {
  return { ...item, step: stepNumber(item.step) };
}
