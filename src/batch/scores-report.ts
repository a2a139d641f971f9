/** The scored part of a batch report: one clause for the summary line, and a Markdown table per kind. */
import { percent, code, table } from './report-format.ts';
import type { CalibrationScores, GroupScores, ScoresSummary } from './scores.ts';

const share = (part: number, whole: number) => (whole === 0 ? '-' : `${percent(part / whole)} (${part})`);

/**
 * `restored 68.3% (75.0% modulo asks) of 60 labelled; detected 60/60`, and with confidences `; calibration:
 * mean confidence 0.912 against 90.0% right of 50 repairs, ECE 0.04`.
 */
export function scoresLine(s: ScoresSummary): string {
  const o = s.overall;
  const line =
    `restored ${percent(o.restored / o.n)} (${percent(o.restoredModuloAsks / o.n)} modulo asks) of ` +
    `${o.n} labelled; detected ${o.detected}/${o.corrupted}`;
  const judged = o.catalogJudged > 0 ? `; ${catalogLine(o)}` : '';
  return s.calibration ? `${line}${judged}; ${calibrationLine(s.calibration)}` : `${line}${judged}`;
}

/** `stranger calls in 2 of 58 answered records, 1 unsupported wiring` (valid inputs returned as they are count). */
function catalogLine(g: GroupScores): string {
  const wirings = `${g.unsupportedWirings} unsupported ${g.unsupportedWirings === 1 ? 'wiring' : 'wirings'}`;
  return `stranger calls in ${g.strangerRepairs} of ${g.catalogJudged} answered records, ${wirings}`;
}

function calibrationLine(c: CalibrationScores): string {
  return `calibration: mean confidence ${c.meanConfidence} against ${percent(c.rightRate)} right of ${c.repairs} repairs, ECE ${c.ece}`;
}

function calibrationSection(c: CalibrationScores): string[] {
  return [
    '## Calibration of the confidence',
    '',
    `${c.repairs} scored repairs: mean confidence ${c.meanConfidence}, right (restored modulo unknowns) ` +
      `${percent(c.rightRate)}, expected calibration error (10 bins) ${c.ece}.`,
    '',
    ...table(
      ['confidence', 'repairs', 'mean confidence', 'right'],
      c.bins.map((b) => [`${b.lower.toFixed(1)}-${b.upper.toFixed(1)}`, b.n, b.meanConfidence, b.rightRate]),
    ),
    '',
  ];
}

function row(name: string, g: GroupScores): (string | number)[] {
  return [
    name,
    g.n,
    share(g.detected, g.corrupted),
    share(g.falseAlarms, g.clean),
    share(g.valid, g.n),
    share(g.restored, g.n),
    share(g.restoredModuloAsks, g.n),
    g.answered === 0 ? '-' : (g.asks / g.answered).toFixed(2),
    share(g.unfairAsks, g.n),
    share(g.roleCollapse, g.n),
  ];
}

export function scoresSection(s: ScoresSummary): string[] {
  const o = s.overall;
  return [
    '## Scores against the gold plans',
    '',
    'Judged by `src/score` (see docs/scoring.md). Detected: corrupted records not returned as',
    'valid; false alarms: records already right that were changed; valid: a valid sequence came back;',
    'restored: the gold’s data flow; modulo asks: also accepting an `ask` for a value the input lost.',
    '',
    ...table(
      [
        'kind',
        'records',
        'detected',
        'false alarms',
        'valid',
        'restored',
        'restored modulo asks',
        'asks per answer',
        'unfair asks',
        'role collapse',
      ],
      [...Object.entries(s.byKind).map(([k, g]) => row(code(k), g)), row('**all**', o)],
    ),
    '',
    ...(o.catalogJudged > 0
      ? [
          `Judged against the catalog (${o.catalogJudged} answered records): ${catalogLine(o)}. A stranger ` +
            'call is one the repair brought in of an API that shares no content word with the plan (and not ' +
            'in the gold); an unsupported wiring feeds a parameter from an output with no name, description ' +
            'or type evidence.',
          '',
        ]
      : []),
    `Asks (${o.asks} in all): ${o.asksForUnknownLiterals} for a value the input lost, ${o.asksForKnownLiterals} ` +
      `for a value the input holds, ${o.asksForComputedValues} for a value the gold computes, ${o.asksUnmatched} ` +
      'with no counterpart in the gold.',
    '',
    ...(s.calibration ? calibrationSection(s.calibration) : []),
  ];
}
