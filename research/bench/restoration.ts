/** The restoration page: per mistake kind and per set, with examples of repairs that missed the gold. */
import { formatStringForm } from '../../src/read/sequence.ts';
import type { RepairOptions } from '../../src/model/options.ts';
import { catalogOf, warmUp, type BenchContext } from './context.ts';
import { evaluate, kindGroup, restorationTable, summarise, type Outcome } from './evaluate.ts';
import { pageHeader } from './markdown.ts';
import { MISTAKE_KINDS } from './mistakes.ts';

export const KIND_ORDER: readonly string[] = [...MISTAKE_KINDS, '2 mistakes', '3 mistakes'];

export async function measureRestoration(ctx: BenchContext, options: RepairOptions = {}): Promise<Outcome[]> {
  await warmUp(ctx, options);
  const out: Outcome[] = [];
  for (const set of ctx.sets) {
    out.push(...(await evaluate(ctx.corrupted[set.name], (s) => catalogOf(ctx, s), options)));
    ctx.log(`restoration ${set.name}: ${ctx.corrupted[set.name].length} records`);
  }
  return out;
}

/** One missed restoration per single-mistake kind, shown as gold / input / repair diff. */
function examples(ctx: BenchContext, outcomes: readonly Outcome[]): string[] {
  const records = new Map(Object.values(ctx.corrupted).flatMap((rs) => rs.map((r) => [r.id, r] as const)));
  const lines: string[] = [];
  for (const kind of MISTAKE_KINDS) {
    // Prefer a repair that lost user data: those are the ones worth reading.
    const misses = outcomes.filter((o) => o.kind === kind && !o.restored && o.diff);
    const miss = misses.find((o) => o.lostLiteral) ?? misses[0];
    if (!miss) continue;
    const record = records.get(miss.id)!;
    lines.push(
      `### ${kind} (${miss.id})`,
      '',
      '```',
      '# gold',
      formatStringForm(record.gold),
      '# repair (diff against the corrupted input)',
      miss.diff!.trimEnd(),
      '```',
      '',
    );
  }
  return lines;
}

export function restorationPage(ctx: BenchContext, outcomes: readonly Outcome[]): string {
  const perSet = ctx.sets.flatMap((set) => [
    `### ${set.name}`,
    '',
    restorationTable(
      summarise(
        outcomes.filter((o) => o.set === set.name),
        KIND_ORDER,
      ),
    ),
    '',
  ]);
  const combos = new Set(outcomes.map((o) => kindGroup(o.kind)).filter((k) => k.endsWith('mistakes')));
  return [
    pageHeader('Restoration', ctx.machine, ctx.command),
    'Every corrupted record of `benchmarks/data/` is validated and repaired (default cost model, HiGHS).',
    '',
    '- **detected**: the validator calls the corrupted sequence invalid.',
    '- **repair valid**: the returned sequence validates again (`ask`/`confirm` pseudo-steps allowed).',
    '- **restored (data flow)**: the repair computes what the gold computes: same calls, same literal',
    '  arguments, same output→input wiring; label names and the order of independent steps are ignored',
    "  (`dataFlowSignature` of `src/read/signature.ts`). **restored (same order)** also requires the gold's step order",
    '  (`signature` of `src/read/signature.ts`).',
    '- **executable**: the repair contains no `ask`/`confirm` pseudo-step.',
    '- **lost a literal**: a literal argument value that the input and the gold both hold is gone from the',
    '  repair (dropped with a misspelled parameter, or replaced by a literal reused from another step).',
    '- A missing literal (missing parameter, missing step) cannot be restored by construction: the repair',
    '  has to ask for it, or reuse another literal.',
    `- Combinations (${[...combos].join(', ')}) apply several single mistakes to one gold sequence.`,
    '',
    '## All sets',
    '',
    restorationTable(summarise(outcomes, KIND_ORDER)),
    '',
    '## Per set',
    '',
    ...perSet,
    '## Examples of repairs that did not restore the gold',
    '',
    ...examples(ctx, outcomes),
  ].join('\n');
}
