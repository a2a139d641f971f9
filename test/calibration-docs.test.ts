/**
 * docs/cost-model.md quotes the calibration page's comparison of evidence sets (`npm run calibrate` writes it
 * into benchmarks/results/calibration.md): the doc's table must be the page's, row for row, so a refit that
 * moves the numbers shows up here until the doc is brought in line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tableAt } from './markdown.ts';

describe('docs/cost-model.md and the calibration page', () => {
  it('shows the core → form comparison as npm run calibrate wrote it', () => {
    const head = '| measured on | ECE | worlds at';
    const page = tableAt(readFileSync('benchmarks/results/calibration.md', 'utf8'), head);
    expect(page.length).toBeGreaterThan(3);
    expect(tableAt(readFileSync('docs/cost-model.md', 'utf8'), head)).toEqual(page);
  });
});
