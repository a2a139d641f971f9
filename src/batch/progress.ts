/**
 * Progress on standard error: a redrawn bar on a terminal, a plain line every ~2 s otherwise (logs, CI),
 * nothing when quiet. Drawing, redraw throttling and the terminal's escape codes are cli-progress's; the
 * text is ours, because rate and ETA count only the records processed by this run (not those resumed,
 * which cli-progress's own ETA would mistake for speed).
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Records finished by this run, and records an earlier run had already written (resumed). */
  update(processed: number, resumed: number): void;
  /** The total, once known (`undefined`: show the rate only). */
  setTotal(total: number | undefined): void;
  stop(): void;
  /** Shows nothing (`--quiet`): the run then does not count the input's records for it. */
  readonly silent?: boolean;
}

export interface ProgressState {
  readonly done: number;
  readonly total?: number;
  /** Records per second over this run. */
  readonly rate: number;
}

const BAR = 24;

function clock(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h > 0 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** `[#######-----] 45% 12345/27000 3456 rec/s ETA 0:04` (bar only when `bar`). */
export function progressText(state: ProgressState, bar: boolean): string {
  const parts: string[] = [];
  const { done, total, rate } = state;
  if (total !== undefined && total > 0) {
    const share = Math.min(1, done / total);
    if (bar) parts.push(`[${'#'.repeat(Math.round(share * BAR)).padEnd(BAR, '-')}]`);
    parts.push(`${Math.floor(share * 100)}%`, `${done}/${total} records`);
  } else {
    parts.push(`${done} records`);
  }
  parts.push(`${rate < 10 ? rate.toFixed(1) : Math.round(rate)} rec/s`);
  if (total !== undefined && rate > 0 && done < total) parts.push(`ETA ${clock((total - done) / rate)}`);
  return parts.join(' ');
}

const SILENT: Progress = { update() {}, setTotal() {}, stop() {}, silent: true };

export function createProgress(stream: NodeJS.WriteStream, options: { quiet?: boolean } = {}): Progress {
  if (options.quiet) return SILENT;
  const tty = stream.isTTY === true;
  // The rate's clock starts when this run's records start: the last news before the first of them (reading
  // back a resumed output's lines takes time that is no repair's).
  let began = performance.now();
  let processed = 0;
  let resumed = 0;
  let total: number | undefined;
  const state = (): ProgressState => {
    const seconds = (performance.now() - began) / 1000;
    return { done: processed + resumed, total, rate: seconds > 0 ? processed / seconds : 0 };
  };
  const bar = new cliProgress.SingleBar({
    stream,
    format: () => (tty ? progressText(state(), true) : `refract batch: ${progressText(state(), false)}`),
    fps: 10,
    // Off a terminal: one plain line every 2 s, and no blank line after the last one.
    noTTYOutput: true,
    notTTYSchedule: 2000,
    clearOnComplete: !tty,
    hideCursor: false,
  });
  // Drawn from the first news of the run: a run refused before any (a bad --out, an empty input) shows none.
  let started = false;
  const start = () => {
    if (!started) bar.start(total ?? 0, 0);
    started = true;
  };
  return {
    update(n, r) {
      if (n === 0) began = performance.now();
      processed = n;
      resumed = r;
      start();
      bar.update(n + r);
    },
    setTotal(n) {
      total = n;
      start();
      if (n !== undefined) bar.setTotal(n);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
