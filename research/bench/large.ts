/**
 * The large-catalog benchmark from the terminal, with any cost-model file:
 *
 *   npx tsx research/bench/large.ts --cost-model models/hand.json --every 4
 *   npx tsx research/bench/large.ts --sizes 1000 --recipe flat --json
 *   npx tsx research/bench/large.ts --every 4 --page     also rewrites the section of restoration.md
 *
 * The same runs through `npm run bench:restoration -- --large 1000,5000,10000 --every 4 --cost-model FILE`.
 * Flags: `--sizes` (default 1000,5000,10000), `--every K` (every K-th record per recipe and kind, default
 * 4), `--recipe first,second,flat`, `--cost-model NAME|FILE` (a preset or a cost-model JSON file),
 * `--solver`, `--json` (the summary on stdout), `--write FILE` (the summary as JSON), `--page`.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { InputError } from '../../src/model/errors.ts';
import { isSolverName, SOLVER_NAMES, type SolverName } from '../../src/model/constants.ts';
import { loadCostModel } from '../../src/read/cost-models.ts';
import { ROOT } from './data.ts';
import { measureLarge } from './large-run.ts';
import { largeReport, largeSection, spliceLargeSection } from './large-report.ts';
import { LARGE_RECIPES, LARGE_SIZES, type LargeRecipe } from './worlds/large.ts';

export const LARGE_OPTIONS = {
  sizes: { type: 'string' },
  every: { type: 'string' },
  recipe: { type: 'string' },
  'cost-model': { type: 'string' },
  solver: { type: 'string' },
  json: { type: 'boolean' },
  write: { type: 'string' },
  page: { type: 'boolean' },
} as const;

export const DEFAULT_EVERY = 4;
export const RESTORATION_PAGE = join(ROOT, 'benchmarks', 'results', 'restoration.md');

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(flag, `expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

export interface LargeFlags {
  readonly sizes?: string;
  readonly every?: string;
  readonly recipe?: string;
  readonly 'cost-model'?: string;
  readonly solver?: string;
  readonly json?: boolean;
  readonly write?: string;
  readonly page?: boolean;
}

/** Runs the large-world benchmark for parsed flags; throws InputError on a bad one. */
export async function largeCli(
  values: LargeFlags,
  io: { out: (text: string) => void; log: (line: string) => void },
  command: string,
): Promise<void> {
  const sizes = (values.sizes ?? LARGE_SIZES.join(',')).split(',').map((s) => positive('--sizes', s.trim()));
  const recipes = values.recipe?.split(',').map((r) => r.trim());
  const bad = recipes?.find((r) => !(LARGE_RECIPES as readonly string[]).includes(r));
  if (bad !== undefined)
    throw new InputError('--recipe', `unknown ${JSON.stringify(bad)} (known: ${LARGE_RECIPES.join(', ')})`);
  const solver = values.solver ?? 'highs';
  if (!isSolverName(solver))
    throw new InputError('--solver', `unknown ${JSON.stringify(solver)} (known: ${SOLVER_NAMES.join(', ')})`);
  const model = values['cost-model'];
  const summary = await measureLarge({
    sizes,
    every: values.every === undefined ? DEFAULT_EVERY : positive('--every', values.every),
    ...(recipes ? { recipes: recipes as LargeRecipe[] } : {}),
    ...(model ? { cost: loadCostModel(model, 'cost-model'), model } : {}),
    solver: solver as SolverName,
    log: io.log,
  });
  if (values.write) writeFileSync(values.write, `${JSON.stringify(summary, null, 2)}\n`);
  if (values.page) spliceLargeSection(RESTORATION_PAGE, largeSection(summary, command));
  io.out(values.json ? `${JSON.stringify(summary, null, 2)}\n` : `${largeReport(summary)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { disposeSolvers } = await import('../../src/solvers/index.ts');
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: LARGE_OPTIONS });
    await largeCli(
      values,
      { out: (t) => process.stdout.write(t), log: (l) => process.stderr.write(`${l}\n`) },
      `npx tsx research/bench/large.ts ${process.argv.slice(2).join(' ')}`.trim(),
    );
  } catch (error) {
    if (error instanceof InputError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`large: ${(error as Error).message}\n`);
      process.exitCode = 2;
    } else throw error;
  } finally {
    disposeSolvers();
  }
}
