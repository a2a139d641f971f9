/** The `verdict`, `issues` and `suggestions` feedback formats. */
import type { Edit, Sequence, Step } from '../model/types.ts';
import type { RepairResult, Validation } from '../model/options.ts';
import { countIssues, formatCall, formatIssue, formatValue } from './render.ts';
import { round, SHORT_DIGITS } from '../model/numbers.ts';
import { ASK, isPseudoStep } from '../model/constants.ts';
import { stepNumber } from '../model/numbers.ts';

/** `verdict: valid` or `verdict: not valid`. */
export function verdictText(validation: Validation): string {
  return `verdict: ${validation.valid ? 'valid' : 'not valid'}`;
}

/** The verdict with counts, then one issue per line (errors and warnings, in validator order). */
export function issuesText(sequence: Sequence, validation: Validation): string {
  const head = `${validation.valid ? 'valid' : 'not valid'}: ${countIssues(validation.issues)}`;
  return [head, ...validation.issues.map((i) => `- ${formatIssue(sequence, i)}`)].join('\n');
}

const same = (a: Step, b: Step) => JSON.stringify(a) === JSON.stringify(b);

/** The issues, then what the optimiser would do: its edits, the corrected calls, the slot-fills, the calls it adds. */
export function suggestionsText(sequence: Sequence, validation: Validation, repair?: RepairResult): string {
  const lines = [issuesText(sequence, validation)];
  if (validation.valid) return lines.join('\n');
  if (!repair || repair.determination === null) {
    lines.push(`no repair available${repair?.reason ? `: ${repair.reason}` : ''}`);
    return lines.join('\n');
  }
  const optimal = repair.optimal ? ', optimal' : '';
  lines.push(`possible fixes (cost ${round(repair.cost, SHORT_DIGITS)}${optimal}):`);
  // Held back below the threshold: uncertain, or partial with the threshold's reason.
  if (repair.status === 'uncertain' || (repair.status === 'partial' && repair.reason))
    lines.push(`not applied: ${repair.reason ?? 'uncertain'}`);
  lines.push(...repair.edits.map((e) => `- ${formatEdit(e)}`));
  const { corrected, added, asked } = splitRepair(sequence, repair);
  if (corrected.length > 0) lines.push('corrected calls:', ...corrected.map((s) => `  ${formatCall(s)}`));
  if (asked.length > 0) lines.push('ask the user:', ...asked.map(formatPseudo));
  if (added.length > 0) lines.push('calls to add:', ...added.map((s) => `  ${formatCall(s)}`));
  lines.push('repaired sequence:', ...repair.sequence.map((s) => `  ${formatCall(s)}`));
  return lines.join('\n');
}

/** `step 3: renameParam originalSkyId -> originSkyId (cost 1): detail` (steps 1-based, as in the input). */
export function formatEdit(edit: Edit): string {
  const param =
    edit.param !== undefined && edit.param !== edit.from && edit.param !== edit.to ? ` ${edit.param}` : '';
  const change =
    edit.from !== undefined && edit.to !== undefined
      ? ` ${edit.from} -> ${edit.to}`
      : ` ${edit.from ?? edit.to ?? ''}`.trimEnd();
  const detail = edit.detail ? `: ${edit.detail}` : '';
  return `step ${stepNumber(edit.step)}: ${edit.kind}${param}${change} (cost ${round(edit.cost, SHORT_DIGITS)})${detail}`;
}

function formatPseudo(step: Step): string {
  if (step.name === ASK) {
    const slot = typeof step.arguments.slot === 'string' ? step.arguments.slot : (step.label ?? '?');
    return `  ${slot}: ask(${slot})`;
  }
  const args = Object.entries(step.arguments).map(([k, v]) => `${k}=${formatValue(v)}`);
  return `  confirm(${args.join(', ')})`;
}

/**
 * Splits the repaired calls: a call whose label (or, unlabelled, whose API) belongs to the input — after
 * relabels — and that differs from every input call is corrected; a call with a new label is added.
 */
export function splitRepair(
  sequence: Sequence,
  repair: RepairResult,
): { corrected: Step[]; added: Step[]; asked: Step[] } {
  const known = new Set<string>();
  for (const s of sequence) known.add(s.label ?? `#${s.name}`);
  for (const e of repair.edits) if ((e.kind === 'relabel' || e.kind === 'addLabel') && e.to) known.add(e.to);
  const corrected: Step[] = [];
  const added: Step[] = [];
  const asked: Step[] = [];
  for (const step of repair.sequence) {
    // By name, as `pseudoStepsOf` reads a repair that asked: this text has no catalog to consult.
    if (isPseudoStep(step)) asked.push(step);
    else if (sequence.some((s) => same(s, step))) continue;
    else if (known.has(step.label ?? `#${step.name}`)) corrected.push(step);
    else added.push(step);
  }
  return { corrected, added, asked };
}
