/** Named loop settings, to spread into the options of `loopToolCalls` or `runLoop`. */

export interface LoopPreset {
  readonly maxRounds: number;
  readonly stallLimit: number;
  /** Present (and undefined) when the preset removes the checks. */
  readonly checks?: undefined;
}

/** The self-debugging default: up to 10 rounds, give up after 2 rejected rounds in a row. */
export const DEFAULT_LOOP: LoopPreset = { maxRounds: 10, stallLimit: 2 };

/** The single self-correction pass: one round, no checks (spread it last to drop any checks). */
export const SINGLE_PASS: LoopPreset = { maxRounds: 1, stallLimit: 1, checks: undefined };

export const LOOP_PRESETS = { default: DEFAULT_LOOP, 'single-pass': SINGLE_PASS } as const;

export type LoopPresetName = keyof typeof LOOP_PRESETS;
