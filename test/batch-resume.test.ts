import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, createReadStream, existsSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/batch/run.ts';
import { CATALOG, CLI, REQUEST, readLines, tempDir, writeDataset } from './fixtures/batch/records.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

const RECORDS = 2_000;

function startCli(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'batch', '--catalog', CATALOG, '--quiet', ...args],
    {
      stdio: 'ignore',
    },
  );
}

/** Waits until the output file has more than `bytes` bytes (or the child ends). */
async function outputBeyond(child: ChildProcess, path: string, bytes: number): Promise<void> {
  while (child.exitCode === null && !(existsSync(path) && statSync(path).size > bytes)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function exitOf(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  return child.exitCode ?? child.signalCode;
}

const essence = (x: Record<string, unknown>) => ({ id: x.id, status: x.status, sequence: x.sequence });

describe('refract batch --resume', () => {
  it('finishes a killed and an interrupted run: every record exactly once, as a clean run writes it', async () => {
    const input = tmp.file('in.jsonl');
    writeDataset(input, RECORDS, 100);
    const out = tmp.file('out.jsonl');

    // 1. Killed outright once some results are on disk; a torn last line is added for good measure.
    const killed = startCli(['--workers', '1', '--out', out, input]);
    await outputBeyond(killed, out, 0);
    killed.kill('SIGKILL');
    expect(await exitOf(killed)).toBe('SIGKILL');
    const afterKill = readLines(out).length;
    expect(afterKill).toBeGreaterThan(0);
    expect(afterKill).toBeLessThan(RECORDS);
    appendFileSync(out, '{"id":"r');

    // 2. Resumed, then interrupted with Ctrl-C: exit 130 after writing what is finished.
    const sizeBefore = statSync(out).size;
    const interrupted = startCli(['--workers', '1', '--resume', '--out', out, input]);
    await outputBeyond(interrupted, out, sizeBefore);
    interrupted.kill('SIGINT');
    expect(await exitOf(interrupted)).toBe(130);
    const afterInterrupt = readLines(out).length;
    expect(afterInterrupt).toBeGreaterThan(afterKill);
    expect(afterInterrupt).toBeLessThan(RECORDS);

    // 3. Resumed to the end.
    const finished = startCli(['--workers', '1', '--resume', '--out', out, input]);
    expect(await exitOf(finished)).toBe(1);

    const resumed = readLines(out);
    const clean = tmp.file('clean.jsonl');
    await runBatch({ input: createReadStream(input), out: clean, request: REQUEST, workers: 1 });
    expect(resumed.map((x) => x.id)).toEqual(Array.from({ length: RECORDS }, (_, i) => `r${i}`));
    expect(resumed.map(essence)).toEqual(readLines(clean).map(essence));
  });

  it('takes a Ctrl-C relayed twice by a wrapper as one: the summary line is printed, exit 130', async () => {
    const input = tmp.file('relayed.jsonl');
    writeDataset(input, RECORDS, 100);
    const out = tmp.file('relayed-out.jsonl');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'batch', '--catalog', CATALOG, '--workers', '1', '--out', out, input],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr!.on('data', (chunk) => (err += String(chunk)));
    await outputBeyond(child, out, 0);
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 30));
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(130);
    expect(err).toMatch(/interrupted: rerun with --resume to finish/);
  });

  it('refuses to resume an output written from another input', async () => {
    const input = tmp.file('other.jsonl');
    writeDataset(input, 3);
    const out = tmp.file('other-out.jsonl');
    appendFileSync(out, '{"id":"elsewhere","status":"valid"}\n');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'batch', '--catalog', CATALOG, '-q', '--resume', '-o', out, input],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toMatch(/--resume: .* line 1 holds record "elsewhere" where the input has "r0"/);
  });
});
