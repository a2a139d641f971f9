/** Runs CLI commands in-process (no child process): captures stdout/stderr and the exit code. */
import { Command } from 'commander';
import { expect, vi } from 'vitest';

export async function runCommands(
  register: readonly ((program: Command) => unknown)[],
  args: readonly string[],
): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  process.exitCode = 0;
  const program = new Command('refract').exitOverride();
  for (const r of register) r(program);
  let code = 0;
  try {
    await program.parseAsync([...args], { from: 'user' });
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    err += (error as Error).message;
    code = 2;
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  process.exitCode = 0;
  return { out, err, code };
}

/**
 * Runs the real command line (`runCli`: every error mapped to one line and exit code 2, as users see it)
 * in-process, with `extra` commands (the research ones); returns the exit code, standard error and output.
 */
export async function runRealCli(
  args: readonly string[],
  extra: Parameters<typeof import('../src/cli/main.ts').runCli>[1] = [],
): Promise<{ code: number; err: string; out: string }> {
  const { runCli } = await import('../src/cli/main.ts');
  let err = '';
  let out = '';
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
  process.exitCode = 0;
  try {
    await runCli(['node', 'refract', ...args], extra);
  } finally {
    e.mockRestore();
    o.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, err, out };
}

/** A refusal as the project's standard wants it: one line matching `message`, no stack trace, exit code 2. */
export function expectRefusal(r: { code: number; err: string }, message: RegExp): void {
  expect(r.err).toMatch(message);
  expect(r.err).not.toMatch(/internal error/);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.code).toBe(2);
}
