/**
 * docs/distributed.md stays true: every flag its command table names is a flag of that subcommand (and the
 * defaults it gives are the CLI's), and its status example is what `status` prints for those numbers.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerBatch } from '../src/cli/batch.ts';
import { registerBatchCluster } from '../src/cli/batch-cluster.ts';
import { statusText, type RunStatus } from '../src/cluster/status.ts';

const doc = readFileSync('docs/distributed.md', 'utf8');

function subcommands(): Map<string, Command> {
  const program = new Command('refract');
  registerBatch(program);
  registerBatchCluster(program);
  const batch = program.commands.find((c) => c.name() === 'batch')!;
  return new Map(batch.commands.map((c) => [c.name(), c]));
}

describe('docs/distributed.md', () => {
  it('names only real flags, with the real defaults', () => {
    const commands = subcommands();
    const rows = doc.split('\n').filter((line) => /^\| `(submit|work|status|collect)/.test(line));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const name = /^\| `(\w+)/.exec(row)![1];
      const command = commands.get(name)!;
      const flags = row.split('|')[2];
      for (const [, flag, fallback] of flags.matchAll(/`(--[a-z-]+|-q)[^`]*`(?: \(([^)]+)\))?/g)) {
        if (flag === '--' || flag.endsWith('-')) continue;
        const option = command.options.find((o) => o.long === flag || o.short === flag);
        expect(option, `${name} ${flag}`).toBeDefined();
        if (fallback && /^\d+$/.test(fallback))
          expect(option!.defaultValue, `${name} ${flag}`).toBe(fallback);
      }
    }
  });

  it('shows the status output that status prints', () => {
    const block = /<!-- status-example -->\s*```\n([\s\S]*?)```/.exec(doc)![1].replace(/^ {3}/gm, '');
    const [head, chunks, results, queue] = block.trimEnd().split('\n');
    const n = (text: string) => [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
    const [, recordsDone, records, rate] = n(head);
    const [waiting, active, done, failed, total] = n(chunks);
    const [qWaiting, qDelayed, qActive, qFailed] = n(queue);
    const eta = /ETA (\d+):(\d+)/.exec(head)!;
    const status: RunStatus = {
      run: /^run (\S+):/.exec(head)![1],
      results: results.replace('results: ', ''),
      input: '',
      records,
      chunks: total,
      waiting,
      active,
      done,
      failed,
      recordsDone,
      rate,
      etaSeconds: Number(eta[1]) * 60 + Number(eta[2]),
      complete: false,
      stopped: false,
      failures: [],
      queue: { waiting: qWaiting, delayed: qDelayed, active: qActive, failed: qFailed },
    };
    expect(statusText(status, false)).toBe(block.trimEnd());
  });
});
