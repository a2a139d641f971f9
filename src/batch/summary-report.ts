/** Renderings of a batch summary: one line for the terminal and a Markdown report. */
import type { ConfidenceSummary, FailureReason, Summary } from './summary.ts';
import { cell, code, percent, table } from './report-format.ts';
import { scoresLine, scoresSection } from './scores-report.ts';

function ms(x: number): string {
  return x >= 100 ? x.toFixed(0) : x.toFixed(2);
}

/** `5.7% longer`, `2.0% shorter`, `same length`: what the repairs did to the plans' length. */
export function lengthChange(ratio: number): string {
  const change = Math.abs(ratio - 1);
  if (change < 0.0005) return 'same length';
  return `${percent(change)} ${ratio > 1 ? 'longer' : 'shorter'}`;
}

/** `1000 records: 700 valid, 290 repaired, 0 partial, 0 timeout, 10 error; success 98.5%; …`. */
export function summaryLine(s: Summary): string {
  const counts = Object.entries(s.statuses)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  const parts = [`${s.records} records: ${counts}`, `success ${percent(s.successRate)}`];
  if (s.lengthRatio !== null) parts.push(`repaired plans ${lengthChange(s.lengthRatio)}`);
  if (s.failures.length > 0) parts.push(failureLine(s.failures[0]));
  if (s.confidence) parts.push(confidenceLine(s.confidence));
  if (s.scores) parts.push(scoresLine(s.scores));
  if (s.latencyMs) {
    const l = s.latencyMs;
    parts.push(`p50 ${ms(l.p50)} ms, p90 ${ms(l.p90)} ms, p99 ${ms(l.p99)} ms, max ${ms(l.max)} ms`);
  }
  return parts.join('; ');
}

/** `most records without a repair: 60 error, no catalog: pass --catalog or give the record a catalog`. */
export function failureLine(f: FailureReason): string {
  return `most records without a repair: ${f.records} ${f.status}, ${f.reason}`;
}

function failureSection(failures: readonly FailureReason[]): string[] {
  return [
    '## Why records got no repair',
    '',
    ...table(
      ['status', 'reason', 'records', 'first record'],
      failures.map((f) => [f.status, cell(f.reason), f.records, code(f.first)]),
    ),
    '',
  ];
}

/** `expected wrong 3.2 of 290 repairs (confidence [0, 0.5) 2, [0.5, 0.8) 5, …)`. */
export function confidenceLine(c: ConfidenceSummary): string {
  const bands = Object.entries(c.bands)
    .map(([band, n]) => `${band} ${n}`)
    .join(', ');
  return `expected wrong ${c.expectedWrong} of ${c.repairs} repairs (confidence ${bands})`;
}

function confidenceSection(c: ConfidenceSummary): string[] {
  return [
    '## Confidence of the repairs',
    '',
    `Repairs (repaired, uncertain, partial) by confidence band; expected wrong: ${c.expectedWrong} of ` +
      `${c.repairs} (the sum of 1 - confidence).`,
    '',
    ...table(Object.keys(c.bands), [Object.values(c.bands)]),
    '',
  ];
}

function tagList(tags: Readonly<Record<string, number>>): string {
  return Object.entries(tags)
    .map(([tag, n]) => `${tag} ${n}`)
    .join(', ');
}

function editSections(s: Summary): string[] {
  return [
    '## Edits by kind',
    '',
    ...table(
      ['edit', 'count'],
      Object.entries(s.editKinds).map(([kind, n]) => [kind, n]),
    ),
    '',
    '## Asks per answered record',
    '',
    ...table(Object.keys(s.asksPerRecord), [Object.values(s.asksPerRecord)]),
    '',
    '## Parameters asked for most',
    '',
    ...table(
      ['parameter', 'asks'],
      s.askedSlots.map((a) => [code(a.slot), a.asks]),
    ),
    '',
  ];
}

/** The Markdown report; `chart` is the summary chart's file, linked when given. */
export function summaryMarkdown(s: Summary, chart?: string): string {
  const l = s.latencyMs;
  const lines = [
    '# Batch summary',
    '',
    ...table(
      ['records', ...Object.keys(s.statuses), 'success rate', 'repaired length (out/in)'],
      [
        [
          s.records,
          ...Object.values(s.statuses),
          percent(s.successRate),
          s.lengthRatio === null ? '-' : `${s.lengthRatio.toFixed(3)} (${lengthChange(s.lengthRatio)})`,
        ],
      ],
    ),
    '',
    '## Latency (ms per record)',
    '',
    ...(l ? table(['p50', 'p90', 'p99', 'max'], [[ms(l.p50), ms(l.p90), ms(l.p99), ms(l.max)]]) : ['(none)']),
    '',
    ...(s.failures.length > 0 ? failureSection(s.failures) : []),
    '## Input issues (errors)',
    '',
    ...table(
      ['tag', 'count'],
      Object.entries(s.issueTags).map(([tag, n]) => [tag, n]),
    ),
    '',
    '## Input issues (warnings)',
    '',
    ...table(
      ['tag', 'count'],
      Object.entries(s.warningTags).map(([tag, n]) => [tag, n]),
    ),
    '',
    '## APIs that fail most',
    '',
    ...table(
      ['API', 'errors', 'tags'],
      s.failingApis.map((a) => [code(a.api), a.errors, tagList(a.tags)]),
    ),
    '',
    '## Records that needed the most edits',
    '',
    ...table(
      ['id', 'edits'],
      s.mostEdits.map((r) => [code(r.id), r.edits]),
    ),
    '',
    ...(s.confidence ? confidenceSection(s.confidence) : []),
    ...(s.scores ? scoresSection(s.scores) : []),
    ...editSections(s),
    ...(chart ? [`![batch summary](${chart})`, ''] : []),
  ];
  return lines.join('\n');
}
