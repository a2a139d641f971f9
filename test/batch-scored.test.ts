import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBatch } from '../src/cli/batch.ts';
import { registerFix } from '../src/cli/fix.ts';
import type { Summary } from '../src/batch/summary.ts';
import { runCommands } from './cli-run.ts';
import { GOLD } from './helpers.ts';
import { LABELLED_CATALOG, writeLabelled } from './labelled.ts';

const dir = mkdtempSync(join(tmpdir(), 'refract-scored-'));
const data = writeLabelled(dir);
// A record that is already right: scored, but not a corrupted one.
appendFileSync(data, `${JSON.stringify({ id: 'clean', gold: GOLD, sequence: GOLD })}\n`);

const batch = (...extra: string[]) =>
  runCommands(
    [registerBatch],
    [
      'batch',
      data,
      '--catalog',
      LABELLED_CATALOG,
      '--out',
      join(dir, 'out.jsonl'),
      '--workers',
      '1',
      ...extra,
    ],
  );

describe('scored batch on a labelled file', () => {
  it('scores every record against its gold, overall and per kind, in JSON, markdown and a chart', async () => {
    const stem = join(dir, 'summary');
    const result = await batch('--summary', stem);
    expect(result.code).toBe(1);
    expect(result.err).toContain('restored 100.0% (100.0% modulo asks) of 5 labelled; detected 4/4');
    expect(result.err).not.toContain('compression');
    const summary = JSON.parse(readFileSync(`${stem}.json`, 'utf8')) as Summary;
    const s = summary.scores!;
    expect(s.overall).toMatchObject({ n: 5, corrupted: 4, detected: 4, clean: 1, falseAlarms: 0, valid: 5 });
    expect(s.overall.restored).toBe(5);
    expect(Object.keys(s.byKind).sort()).toEqual([
      '(unlabelled)',
      '2 mistakes',
      'api_name',
      'param_name',
      'ref_label',
    ]);
    expect(s.byKind['2 mistakes']).toMatchObject({ n: 1, corrupted: 1, detected: 1 });
    expect(summary.editKinds).toMatchObject({ renameApi: 1 });
    expect(summary.asksPerRecord['0']).toBe(5);
    const md = readFileSync(`${stem}.md`, 'utf8');
    expect(md).toContain('## Scores against the gold plans');
    expect(md).toContain('| **all** | 5 | 100.0% (4) | 0.0% (0) | 100.0% (5) | 100.0% (5) | 100.0% (5) |');
    expect(md).toContain('![batch summary](summary.svg)');
    expect(readFileSync(`${stem}.svg`, 'utf8')).toContain('Against the gold plans (5 labelled records)');
    expect(existsSync(`${stem}.vl.json`)).toBe(true);
  });

  it('scores resumed results the same way, from the lines already written', async () => {
    const first = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    const stem = join(dir, 'resumed');
    const result = await batch('--resume', '--summary', stem);
    expect(result.code).toBe(1);
    const again = JSON.parse(readFileSync(`${stem}.json`, 'utf8')) as Summary;
    expect(again.scores).toEqual(first.scores);
    expect(again.editKinds).toEqual(first.editKinds);
  });

  it('leaves an unlabelled batch unscored', async () => {
    const plain = join(dir, 'plain.jsonl');
    appendFileSync(plain, `${JSON.stringify({ id: 'x', sequence: GOLD })}\n`);
    const stem = join(dir, 'plain-summary');
    const result = await runCommands(
      [registerBatch],
      [
        'batch',
        plain,
        '--catalog',
        LABELLED_CATALOG,
        '--out',
        join(dir, 'plain-out.jsonl'),
        '--summary',
        stem,
      ],
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(readFileSync(`${stem}.json`, 'utf8')) as Summary;
    expect(summary.scores).toBeUndefined();
    expect(readFileSync(`${stem}.md`, 'utf8')).not.toContain('Scores against');
  });

  it('counts the stranger calls and unsupported wirings of the repairs, judged against the catalog', async () => {
    // Under the hand model a lost patient id brings in a dental lookup (a stranger) and, with links without
    // evidence free (linkUnsupported 0), a campaign's audience is wired to a ticket's status: both counted,
    // fresh and resumed alike.
    const records = join(dir, 'strangers.jsonl');
    const ecg = ['var1 = translate_text(text="hello", target_language="de")'];
    const lines = [
      {
        id: 'ecg',
        sequence: [...ecg, 'var2 = getECGSample(duration=30)'].join('\n'),
        gold: [...ecg, 'var2 = getECGSample(duration=30, patient_id="P-7")'].join('\n'),
      },
      {
        id: 'campaign',
        sequence: 'var1 = lookup_ticket(ticket_id="T-17")\nvar2 = create_campaign(budget=500)',
        gold: 'var1 = lookup_ticket(ticket_id="T-17")\nvar2 = create_campaign(budget=500, audience="adults")',
      },
    ];
    appendFileSync(records, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const run = (...extra: string[]) =>
      runCommands(
        [registerBatch],
        [
          'batch',
          records,
          '--catalog',
          'test/cases/catalogs/unrelated-requests-spec.json',
          '--cost-model',
          'hand',
          '--weight',
          'linkUnsupported=0',
          '--out',
          join(dir, 'strangers-out.jsonl'),
          '--workers',
          '1',
          ...extra,
        ],
      );
    const first = await run('--summary', join(dir, 'strangers'));
    expect(first.err).toContain('stranger calls in 1 of 2 answered records, 1 unsupported wiring');
    const fresh = JSON.parse(readFileSync(join(dir, 'strangers.json'), 'utf8')) as Summary;
    expect(fresh.scores!.overall).toMatchObject({
      catalogJudged: 2,
      strangerRepairs: 1,
      unsupportedWirings: 1,
    });
    expect(readFileSync(join(dir, 'strangers.md'), 'utf8')).toContain(
      'Judged against the catalog (2 answered',
    );
    await run('--resume', '--summary', join(dir, 'strangers-resumed'));
    const resumed = JSON.parse(readFileSync(join(dir, 'strangers-resumed.json'), 'utf8')) as Summary;
    expect(resumed.scores).toEqual(fresh.scores);
  });

  it("reads a catalog a record names by path from the input file's folder, in batch, resume and fix", async () => {
    // A researcher's labelled file beside its catalog, run from elsewhere, with no --catalog.
    const folder = join(dir, 'named');
    mkdirSync(folder);
    copyFileSync(LABELLED_CATALOG, join(folder, 'tools.json'));
    const records = join(folder, 'records.jsonl');
    const lines = readFileSync(data, 'utf8').trimEnd().split('\n').slice(0, 2);
    const named = lines.map((line) => JSON.stringify({ ...JSON.parse(line), catalog: 'tools.json' }));
    const missing = JSON.stringify({ ...JSON.parse(lines[0]), id: 'lost', catalog: 'nope.json' });
    appendFileSync(records, [...named, missing].join('\n') + '\n');
    const out = join(dir, 'named-out.jsonl');
    const run = (...extra: string[]) =>
      runCommands([registerBatch], ['batch', records, '--out', out, '--workers', '1', ...extra]);
    const first = await run('--summary', join(dir, 'named'));
    expect(first.code).toBe(2);
    const results = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((r) => r.status)).toEqual(['repaired', 'repaired', 'error']);
    expect(results[2].reason).toBe(
      `line 3: catalog: ${join(folder, 'nope.json')}: cannot read file (ENOENT)`,
    );
    const fresh = JSON.parse(readFileSync(join(dir, 'named.json'), 'utf8')) as Summary;
    expect(fresh.scores!.overall).toMatchObject({ n: 2, restored: 2 });
    await run('--resume', '--summary', join(dir, 'named-resumed'));
    const resumed = JSON.parse(readFileSync(join(dir, 'named-resumed.json'), 'utf8')) as Summary;
    expect(resumed.scores).toEqual(fresh.scores);
    // fix reads them the same way, and needs --catalog only for a record that carries none.
    const fixed = await runCommands([registerFix], ['fix', records, '--format', 'json']);
    expect(
      fixed.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(results.map((r) => r.status));
    const bare = join(folder, 'bare.jsonl');
    appendFileSync(bare, `${named[0]}\n${JSON.stringify({ id: 'bare', sequence: GOLD })}\n`);
    const refused = await runCommands([registerFix], ['fix', bare]);
    expect(refused).toMatchObject({ code: 2, out: '' });
    expect(refused.err).toContain(
      '--catalog: required: the tool catalog to check against (record "bare" carries none)',
    );
  });
});
