/** Readable reports of a loop run and of a pick. */
import type { Issue, Sequence } from '../model/types.ts';
import { confidenceNote, editLine, formatCall, formatIssue } from '../feedback/render.ts';
import type { LoopResult } from './engine.ts';
import type { PickResult } from './pick.ts';

/** The JSON summary of a loop run. */
export function loopSummary(result: LoopResult<Sequence, Issue>) {
  const { state, rounds, accepted, stalled, history, stop, leftover, check, log } = result;
  return {
    sequence: state,
    rounds,
    accepted,
    stalled,
    history,
    stop,
    leftover,
    ...(check ? { check } : {}),
    log,
  };
}

const calls = (sequence: Sequence) =>
  sequence.length > 0 ? sequence.map((s) => `  ${formatCall(s)}`) : ['  (empty)'];

export function formatLoopReport(result: LoopResult<Sequence, Issue>): string {
  const lines = [
    `stop: ${result.stop} after ${result.rounds} round(s): ${result.accepted} accepted, ${result.stalled} stalled`,
    `issue count: ${result.history.join(' -> ')}`,
  ];
  for (const r of result.log) {
    const seen = r.candidateIssues !== undefined ? ` (candidate: ${r.candidateIssues} issue(s))` : '';
    lines.push(`round ${r.round}: ${r.accepted ? 'accepted' : 'rejected'}${seen}: ${r.reason}`);
  }
  lines.push('sequence:', ...calls(result.state));
  if (result.check && !result.check.pass) lines.push(`check fails: ${result.check.reason ?? 'check failed'}`);
  if (result.leftover.length > 0) {
    lines.push(`left for a human (${result.leftover.length}):`);
    lines.push(...result.leftover.map((i) => `  - ${formatIssue(result.state, i)}`));
  }
  return lines.join('\n');
}

export function formatPickReport(result: PickResult): string {
  const repair = result.repair;
  const lines = [
    `winner: ${result.index === null ? 'none' : `candidate ${result.index}`} (${result.by})` +
      (repair ? `: ${repair.status}${confidenceNote(repair.confidence)}` : ''),
    result.reason,
  ];
  for (const c of result.candidates) {
    const cost =
      c.cost !== undefined
        ? `, repair cost ${c.cost}${confidenceNote(c.confidence)}`
        : c.reason
          ? `, not repaired: ${c.reason}`
          : '';
    lines.push(`  candidate ${c.index}: ${c.valid ? 'valid' : `${c.errors} error(s)`}${cost}`);
  }
  if (repair && repair.edits.length > 0) lines.push('edits:', ...repair.edits.map((e) => `  ${editLine(e)}`));
  if (result.sequence) lines.push('sequence:', ...calls(result.sequence));
  return lines.join('\n');
}
