/** Every fuzz target, in the order the big run reports them. */
import type { Target } from './harness.ts';
import { parseTargets } from './parse-targets.ts';
import { solverTargets } from './solver-targets.ts';
import { httpTargets } from './http-targets.ts';

export interface TargetOptions {
  /** Shorter long sequences, for a CI-sized run. */
  readonly small?: boolean;
}

export function targets(options: TargetOptions = {}): Target[] {
  return [...parseTargets(), ...solverTargets(options.small === true), ...httpTargets()];
}
