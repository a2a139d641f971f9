import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/model/errors.ts';
import { loadCostModel } from '../src/read/cost-models.ts';
import { registerFit, registerSweep } from '../research/cli/research.ts';

const dir = mkdtempSync(join(tmpdir(), 'refract-research-'));

function program(): Command {
  const p = new Command().exitOverride();
  registerSweep(p);
  registerFit(p);
  return p;
}

const run = (...args: string[]) => program().parseAsync(['node', 'refract', ...args, '--quiet']);

describe('refract sweep', () => {
  it('writes the page, the JSON rows and the heat-map of a two-weight grid', async () => {
    const [out, json, svg] = ['sweep.md', 'sweep.json', 'heat.svg'].map((f) => join(dir, f));
    await run(
      'sweep',
      '--grid',
      'slotFill=2,4',
      '--grid',
      'renameParam=1,2',
      '--limit',
      '2',
      '--kinds',
      'param_name,missing_param',
      '--out',
      out,
      '--json',
      json,
      '--svg',
      svg,
    );
    const rows = JSON.parse(readFileSync(json, 'utf8')) as { rows: unknown[]; records: number };
    expect(rows.rows).toHaveLength(4);
    expect(rows.records).toBe(6);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('| rank | setting');
    expect(page).toContain('default (no overrides)');
    expect(page).toContain('![restoration heat-map](heat.svg)');
    expect(readFileSync(svg, 'utf8')).toContain('slotFill weight');
  });

  it('refuses a heat-map without a two-weight grid, and --grid with --random', async () => {
    await expect(
      run('sweep', '--random', '2', '--range', 'slotFill=1:4', '--svg', join(dir, 'x.svg')),
    ).rejects.toThrow(/--svg/);
    await expect(run('sweep', '--grid', 'slotFill=1', '--random', '2')).rejects.toThrow(InputError);
    await expect(run('sweep', '--grid', 'slotFill=1', '--mappings', 'some')).rejects.toThrow(/--mappings/);
  });
});

describe('refract fit', () => {
  it('writes a cost model that loads with --cost-model', async () => {
    const out = join(dir, 'fitted.json');
    await run(
      'fit',
      '--train-sets',
      'executable',
      '--holdout-sets',
      'sgd',
      '--limit',
      '3',
      '--epochs',
      '1',
      '--out',
      out,
      '--report',
      join(dir, 'fit.md'),
    );
    const model = loadCostModel(out);
    expect(model.name).toBe('fitted');
    expect(readFileSync(join(dir, 'fit.md'), 'utf8')).toContain('sgd (held-out set)');
  });

  it('refuses a set that is both trained on and held out', async () => {
    await expect(run('fit', '--train-sets', 'sgd', '--holdout-sets', 'sgd', '--limit', '1')).rejects.toThrow(
      /--holdout-sets/,
    );
  });
});
