/** The explanations at the top of the restoration page: what was run, what each measure means. */
import type { RestorationSummary } from './restoration-summary.ts';

export function restorationNotes(
  now: RestorationSummary,
  before: RestorationSummary | null,
  sameRun: boolean,
): string[] {
  const baseline = !before
    ? ['No baseline: `benchmarks/results/restoration-baseline.json` is missing.']
    : sameRun
      ? [
          `Baseline: the repair model at commit \`${before.commit?.slice(0, 7)}\` (before the intent work), measured in`,
          'this run on the same records, record by record in turn with the current build, so the time ratio',
          'compares like with like.',
        ]
      : [
          `Baseline: the committed summary \`restoration-baseline.json\` (${before.build}, ${before.date});`,
          'its build could not be loaded here, so its times come from another run.',
        ];
  return [
    `Every record of both corruption recipes${now.quick ? ' (quick: up to 8 per set and kind)' : ''} is repaired`,
    `with each backend (${now.backends.join(', ')}; default cost model); the first backend's repair is judged`,
    'against the gold by `src/score` (`scoreRepair`), from the sequences alone.',
    '',
    ...baseline,
    '',
    '- **first recipe** (`research/bench/mistakes.ts`, `benchmarks/data/corrupted-*.jsonl`): ten single mistakes',
    '  and combinations of 2 and 3, on the three NESTFUL sets.',
    '- **second recipe** (`research/bench/flow-mistakes.ts`, `benchmarks/data/flow-*.jsonl`): a deleted step',
    '  whose output is read by field, a reference to a field its producer does not output, a missing required',
    '  parameter whose gold value was a reference, pairs of these, and a lookup left out with the arguments',
    '  it fed (`missing_producer`); on the NESTFUL sets and on four synthetic catalogs with other naming',
    '  habits (`research/bench/worlds/`).',
    '- **detected**: the build did not return the input as valid. **repair valid**: the repair re-validates',
    "  (this checkout's validator, `ask`/`confirm` allowed).",
    "- **restored**: the gold's data flow: same calls, literals and wiring (labels and the order of",
    '  independent steps ignored).',
    '- **restored mod asks**: the gold once each `ask` stands for a gold literal that appears nowhere in the',
    '  input (one value per ask). An ask for a value the input holds, or one the gold computes by a',
    '  reference, is not restored.',
    '- **mod unknowns**: restored mod asks, and the repair may also leave out an argument whose gold literal',
    '  appears nowhere in the input (an optional `star_rating="4"` of a deleted step: no repair can know it,',
    '  and none asks for optional values): records with such an argument cap "restored mod asks" below 100 %.',
    '- **role collapse**: repairs where two parameters of one call take one output that the gold feeds from',
    '  two (a flight from London to London).',
    '- **asks / repair**: mean `ask` pseudo-steps per answered repair. **unfair asks**: repairs with an ask',
    '  for a known literal, a computed value, or a value the gold does not have there.',
    '  **duplicate asks**: repairs asking twice for one gold value.',
    '- **sibling copies**: repairs giving two calls of one API one literal where the gold gives two.',
    '  **lost literal**: a literal the input and the gold share is gone. **dropped call**: a call of the',
    '  input is gone.',
    `- **agree X**: backend X returned the identical sequence (and status) as ${now.backends[0]}.`,
    `- **median ms**: repair time with ${now.backends[0]}; the time ratio is now / baseline.`,
    '',
  ];
}
