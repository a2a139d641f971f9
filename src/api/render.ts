/** Text and JSON renderings of results for the CLI. */
import { toNestful } from '../read/sequence.ts';
import type { Issue } from '../model/types.ts';
import type { RepairResult, Validation } from '../model/options.ts';

export function resultJson(result: RepairResult, id?: string): Record<string, unknown> {
  return {
    ...(id === undefined ? {} : { id }),
    determination: result.determination,
    status: result.status,
    sequence: toNestful(result.sequence),
    edits: result.edits,
    cost: result.cost,
    optimal: result.optimal,
    issues: result.issues,
    diff: result.diff,
    solver: result.solver,
    timeMs: round(result.timeMs),
    isExecutable: result.isExecutable,
    ...(result.dropped ? { dropped: result.dropped } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.gap !== undefined ? { gap: result.gap } : {}),
    ...(result.model ? { model: result.model } : {}),
    ...(result.fixes ? { fixes: result.fixes.map((f) => ({ ...f, sequence: toNestful(f.sequence) })) } : {}),
  };
}

export function issueLine(x: Issue): string {
  const at = [`step ${x.step + 1}`, x.param, x.ref].filter(Boolean).join(' ');
  return `${x.severity === 'error' ? 'error' : 'warn '} ${x.tag} (${at}): ${x.message}`;
}

export function resultText(result: RepairResult): string {
  const lines: string[] = [];
  const head = [`${result.status}`, `determination ${result.determination}`];
  if (result.status !== 'valid')
    head.push(`cost ${result.cost}`, result.optimal ? 'optimal' : 'not proven optimal');
  head.push(`${round(result.timeMs)} ms`, result.solver);
  if (result.model) head.push(`${result.model.vars} vars x ${result.model.rows} rows`);
  lines.push(head.join(', '));
  if (result.reason) lines.push(`reason: ${result.reason}`);
  for (const d of result.dropped ?? []) lines.push(`dropped: step ${d.step + 1} (${d.name}): ${d.reason}`);
  if (result.issues.length) lines.push('issues:', ...result.issues.map((x) => `  ${issueLine(x)}`));
  if (result.edits.length)
    lines.push(
      'edits:',
      ...result.edits.map((e) => `  ${e.kind} (step ${e.step + 1}, ${e.cost}): ${e.detail}`),
    );
  if (result.diff) lines.push('diff:', ...result.diff.split('\n').map((l) => `  ${l}`));
  // --fixes K: the alternatives after the main repair (fix 1), each with its edits and changed lines.
  (result.fixes ?? []).slice(1).forEach((fix, k) => {
    lines.push(
      `fix ${k + 2} (cost ${fix.cost}):`,
      ...fix.edits.map((e) => `  ${e.kind} (step ${e.step + 1}, ${e.cost}): ${e.detail}`),
    );
  });
  return lines.join('\n');
}

export function validationJson(v: Validation, id?: string): Record<string, unknown> {
  return { ...(id === undefined ? {} : { id }), valid: v.valid, determination: v.valid, issues: v.issues };
}

export function validationText(v: Validation): string {
  return [v.valid ? 'valid' : 'not valid', ...v.issues.map((x) => `  ${issueLine(x)}`)].join('\n');
}

export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
