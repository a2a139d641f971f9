/** Runs a shell command with input on stdin and a time limit; the whole process group dies on time-out. */
import { spawn } from 'node:child_process';

export interface CommandOutcome {
  /** Exit code; null when killed by a signal (time-out included). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Set when the command could not be started at all. */
  readonly error?: string;
}

/** Output beyond this is cut (a runaway program must not fill memory). */
const MAX_OUTPUT = 32 * 1024 * 1024;

/** `sh -c command` with `input` on stdin, killed (with its children) after `timeoutMs`. */
export function runCommand(command: string, input: string, timeoutMs: number): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let done = false;
    const finish = (outcome: Omit<CommandOutcome, 'stdout' | 'stderr' | 'timedOut'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...outcome, stdout, stderr, timedOut });
    };
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
      // Grandchildren may keep the pipes open; do not wait for them.
      finish({ code: null });
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk;
    });
    child.on('error', (error) => finish({ code: null, error: error.message }));
    child.on('close', (code) => finish({ code }));
    // A program that never reads its stdin closes the pipe early: not a fault of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** `exit code 3: <last stderr line>` / `timed out after 2 s` / `could not start: …`. */
export function describeFailure(outcome: CommandOutcome, timeoutMs: number): string {
  if (outcome.error !== undefined) return `could not start: ${outcome.error}`;
  if (outcome.timedOut) return `timed out after ${timeoutMs / 1000} s`;
  const last = outcome.stderr.trim().split('\n').pop()?.trim();
  return `exit code ${outcome.code ?? 'none (killed)'}${last ? `: ${last.slice(0, 300)}` : ''}`;
}
