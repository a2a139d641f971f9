/**
 * docs/research.md shows the real output of its walk-through on samples/labelled-plans.jsonl: the sweep,
 * fit and export commands run here as written there, and their tables must appear in the doc as printed
 * (times aside: the sweep's `median ms` column is left out of the comparison).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFit, registerSweep } from '../research/cli/research.ts';
import { registerExport } from '../src/cli/export.ts';
import { registerBatch } from '../src/cli/batch.ts';
import { runCommands } from './cli-run.ts';
import { tableAt } from './markdown.ts';

const DOC = readFileSync('docs/research.md', 'utf8');
const DATA = ['--data', 'samples/labelled-plans.jsonl', '--catalog', 'data/nestful/executable-spec.json'];
const dir = mkdtempSync(join(tmpdir(), 'refract-research-doc-'));

async function run(...args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerSweep(program);
  registerFit(program);
  await program.parseAsync(['node', 'refract', ...args, '--quiet']);
}

const withoutLastColumn = (row: string) => row.replace(/\|[^|]*\|$/, '|');

describe('docs/research.md walk-through', () => {
  let sweep: string;
  let fit: string;
  beforeAll(async () => {
    await run(
      'sweep',
      ...DATA,
      ...['--grid', 'renameParam=0.5,1,2', '--grid', 'minSimilarity=0.3,0.5,0.7'],
      ...['--out', join(dir, 'sweep.md'), '--json', join(dir, 'sweep.json'), '--svg', join(dir, 'sweep.svg')],
    );
    await run('fit', ...DATA, '--init', 'flat', '--report', join(dir, 'fit.md'));
    sweep = readFileSync(join(dir, 'sweep.md'), 'utf8');
    fit = readFileSync(join(dir, 'fit.md'), 'utf8');
  }, 300_000);

  it('shows the scored batch as it comes out', async () => {
    expect(DOC).toContain('--out repaired.jsonl --summary summary');
    const stem = join(dir, 'summary');
    const result = await runCommands(
      [registerBatch],
      ['batch', ...DATA.slice(1), '--out', join(dir, 'repaired.jsonl'), '--summary', stem, '--workers', '2'],
    );
    const line = result.err.split('\n').find((l) => l.startsWith('refract batch: 60 records'))!;
    expect(DOC).toContain(line.replace(/; p50 .*$/, '; p50 '));
    const md = readFileSync(`${stem}.md`, 'utf8');
    expect(tableAt(DOC, '| kind | records |')).toEqual(tableAt(md, '| kind | records |'));
    expect(DOC).toContain(md.split('\n').find((l) => l.startsWith('Asks ('))!);
  });

  it('shows the commands it ran', () => {
    expect(DOC).toContain('--grid renameParam=0.5,1,2 --grid minSimilarity=0.3,0.5,0.7');
    expect(DOC).toContain('--init flat --out fitted.json --report fit.md');
    expect(DOC).toContain(
      'refract export samples/labelled-plans.jsonl --catalog data/nestful/executable-spec.json --out models',
    );
  });

  it('shows the sweep as it comes out: ranking, verdict, kinds, flips', () => {
    const head = '| rank | setting                           |   n |';
    expect(tableAt(DOC, head).map(withoutLastColumn)).toEqual(tableAt(sweep, head).map(withoutLastColumn));
    const best = sweep.split('\n').find((l) => l.startsWith('Best setting'))!;
    expect(DOC).toContain(`> ${best}`);
    const kinds = '| kind          |   n |';
    for (const row of tableAt(DOC, kinds)) expect(tableAt(sweep, kinds)).toContain(row);
    expect(tableAt(DOC, '| rank | setting                           | gained')).toEqual(
      tableAt(sweep, '| rank | setting                           | gained'),
    );
  });

  it('shows the fit as it comes out', () => {
    expect(tableAt(DOC, '| round ')).toEqual(tableAt(fit, '| round '));
    expect(DOC).toContain('`reuseLiteral` from 1 to 0.9959');
    expect(fit).toContain('| reuseLiteral                |       1 |  0.9959 | -0.0041 |');
  });

  it('shows the export manifest as it comes out', async () => {
    const out = join(dir, 'models');
    const result = await runCommands(
      [registerExport],
      [
        'export',
        'samples/labelled-plans.jsonl',
        '--catalog',
        'data/nestful/executable-spec.json',
        '--out',
        out,
      ],
    );
    expect(result.code).toBe(0);
    const first = readFileSync(join(out, 'models.jsonl'), 'utf8').split('\n').slice(0, 3);
    for (const line of first) expect(DOC).toContain(line);
  });
});
