/**
 * Text and JSON renderings of results: the JSON is what every front end answers (CLI `--format json`,
 * HTTP, MCP, batch lines), the text what the CLI prints by default.
 */
import { toNestful } from '../read/sequence.ts';
import type { Issue, Sequence } from '../model/types.ts';
import type { LoopResult } from '../loop/engine.ts';
import type { RepairResult, Validation } from '../model/options.ts';
import { formatLoopReport, loopSummary } from '../loop/report.ts';
import { confidenceNote, editLine } from '../feedback/render.ts';
import type { Answer } from './call.ts';
import { numbered, round, SHORT_DIGITS, stepNumber } from '../model/numbers.ts';

/** The JSON answer to a request. */
export function answerJson(answer: Answer): Record<string, unknown> {
  switch (answer.kind) {
    case 'validate':
      return validationJson(answer.validation, answer.id);
    case 'fix':
    case 'compress': {
      const json = resultJson(answer.result, answer.id);
      if (answer.healed) json.heal = answer.healed.map(numbered);
      return json;
    }
    case 'loop':
      return { ...(answer.id === undefined ? {} : { id: answer.id }), ...loopJson(answer.result) };
  }
}

/** The text answer to a request (without its id). */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case 'validate':
      return validationText(answer.validation);
    case 'fix':
    case 'compress': {
      const healed = (answer.healed ?? []).map(
        (e) =>
          `  ${e.kind} (step ${stepNumber(e.step)}${e.param === undefined ? '' : ` ${e.param}`}, ${e.cost}): ${e.detail}`,
      );
      const text = resultText(answer.result);
      return healed.length === 0 ? text : `${text}\nhealed:\n${healed.join('\n')}`;
    }
    case 'loop':
      return formatLoopReport(answer.result);
  }
}

export function resultJson(result: RepairResult, id?: string): Record<string, unknown> {
  // Keys are added one by one, in the order of the output, rather than spread in: an object literal with
  // spreads after its own keys takes V8's slow path, several times the cost of the rest of a valid
  // record's line (a batch writes one per record).
  const json: Record<string, unknown> = {};
  if (id !== undefined) json.id = id;
  json.determination = result.determination;
  json.status = result.status;
  json.sequence = toNestful(result.sequence);
  json.edits = result.edits.map(numbered);
  json.cost = result.cost;
  json.optimal = result.optimal;
  json.issues = result.issues.map(numbered);
  json.diff = result.diff;
  json.solver = result.solver;
  json.timeMs = round(result.timeMs, SHORT_DIGITS);
  json.isExecutable = result.isExecutable;
  if (result.dropped) json.dropped = result.dropped.map(numbered);
  if (result.exhausted) json.exhausted = result.exhausted.map(numbered);
  if (result.reason) json.reason = result.reason;
  if (result.gap !== undefined) json.gap = result.gap;
  if (result.confidence !== undefined) json.confidence = result.confidence;
  if (result.model) json.model = result.model;
  if (result.fixes) {
    json.fixes = result.fixes.map((f) => ({
      sequence: toNestful(f.sequence),
      edits: f.edits.map(numbered),
      cost: f.cost,
      ...(f.confidence === undefined ? {} : { confidence: f.confidence }),
    }));
  }
  return json;
}

export function issueLine(x: Issue): string {
  const at = [`step ${stepNumber(x.step)}`, x.param, x.ref].filter(Boolean).join(' ');
  return `${x.severity === 'error' ? 'error' : 'warn '} ${x.tag} (${at}): ${x.message}`;
}

export function resultText(result: RepairResult): string {
  const lines: string[] = [];
  const head = [`${result.status}`, `determination ${result.determination}`];
  if (result.status !== 'valid')
    head.push(`cost ${result.cost}`, result.optimal ? 'optimal' : 'not proven optimal');
  if (result.confidence !== undefined) head.push(`confidence ${result.confidence}`);
  head.push(`${round(result.timeMs, SHORT_DIGITS)} ms`, result.solver);
  if (result.model) head.push(`${result.model.vars} vars x ${result.model.rows} rows`);
  lines.push(head.join(', '));
  if (result.reason) lines.push(`reason: ${result.reason}`);
  for (const d of result.dropped ?? [])
    lines.push(`dropped: step ${stepNumber(d.step)} (${d.name}): ${d.reason}`);
  if (result.issues.length) lines.push('issues:', ...result.issues.map((x) => `  ${issueLine(x)}`));
  if (result.edits.length) lines.push('edits:', ...result.edits.map((e) => `  ${editLine(e)}`));
  if (result.diff) lines.push('diff:', ...result.diff.split('\n').map((l) => `  ${l}`));
  // --fixes K: the alternatives after the main repair (fix 1), each with its edits and changed lines.
  (result.fixes ?? []).slice(1).forEach((fix, k) => {
    lines.push(
      `fix ${k + 2} (cost ${fix.cost}${confidenceNote(fix.confidence)}):`,
      ...fix.edits.map((e) => `  ${editLine(e)}`),
    );
  });
  return lines.join('\n');
}

export function validationJson(v: Validation, id?: string): Record<string, unknown> {
  return {
    ...(id === undefined ? {} : { id }),
    valid: v.valid,
    determination: v.valid,
    issues: v.issues.map(numbered),
  };
}

/** The JSON summary of a loop run (`loopSummary`), its leftover issues numbered as every output numbers steps. */
export function loopJson(result: LoopResult<Sequence, Issue>): Record<string, unknown> {
  const summary = loopSummary(result);
  return { ...summary, leftover: summary.leftover.map(numbered) };
}

export function validationText(v: Validation): string {
  return [v.valid ? 'valid' : 'not valid', ...v.issues.map((x) => `  ${issueLine(x)}`)].join('\n');
}
