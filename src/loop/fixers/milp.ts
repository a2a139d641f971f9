/**
 * The optimiser as a fixer. It escalates: first only the APIs the sequence already uses, then the whole
 * catalog, then new calls too. Round r starts at stage r (the earlier, narrower stages were tried in the
 * earlier rounds), and moves on to the next stage within the round while a stage brings no improvement,
 * so that a stall limit never stops the loop before the widest stage was tried.
 */
import type { Catalog, Sequence } from '../../model/types.ts';
import type { RepairOptions } from '../../model/options.ts';
import { errorMessage } from '../../model/errors.ts';
import { repair } from '../../repair/repair.ts';
import { apiByName } from '../../validate/validate.ts';
import { stall, type Fixer, type Stalled } from '../engine.ts';
import { isHeldBack, isPseudoStepIn } from '../../model/constants.ts';
import { openIssues } from '../issues.ts';

/** The repair options of each escalation stage. */
export const MILP_ESCALATION: readonly Pick<RepairOptions, 'givenOnly' | 'allowInsert'>[] = [
  { givenOnly: true, allowInsert: false },
  { givenOnly: false, allowInsert: false },
  { givenOnly: false, allowInsert: true },
];

export interface MilpFixerOptions {
  readonly catalog: Catalog;
  /** Base repair options (cost model, solver, memory, …); a stage's fields override them. */
  readonly repair?: RepairOptions;
  /** Escalate (default true); false = one repair with the base options every round. */
  readonly escalate?: boolean;
}

/**
 * The sequence with the slot-fills of an earlier repair undone: `ask`/`confirm` pseudo-steps removed,
 * and the arguments that only held an asked value (`"$slot$"`) dropped, so they are missing again and a
 * wider stage may fill them from a new call instead of asking. Calls of a catalog API named `ask` stay.
 */
export function withoutPseudoSteps(sequence: Sequence, catalog: Catalog): Sequence {
  const apis = apiByName(catalog);
  const pseudo = sequence.filter((s) => isPseudoStepIn(s, apis));
  if (pseudo.length === 0) return sequence;
  const kept = sequence.filter((s) => !isPseudoStepIn(s, apis));
  const real = new Set(kept.map((s) => s.label));
  const asked = new Set(
    pseudo.map((s) => s.label).filter((l): l is string => l !== undefined && !real.has(l)),
  );
  return kept.map((step) => {
    const holdsAsked = (v: unknown) =>
      typeof v === 'string' && /^\$[^$.[]+\$$/.test(v) && asked.has(v.slice(1, -1));
    const args = Object.entries(step.arguments).filter(([, v]) => !holdsAsked(v));
    return args.length === Object.keys(step.arguments).length
      ? step
      : { ...step, arguments: Object.fromEntries(args) };
  });
}

export function milpFixer(options: MilpFixerOptions): Fixer<Sequence> {
  const { catalog } = options;
  const base = options.repair ?? {};
  return {
    async propose(state: Sequence, _feedback: string, round: number): Promise<Sequence | Stalled> {
      const stages =
        options.escalate === false
          ? [{}]
          : MILP_ESCALATION.slice(Math.min(round, MILP_ESCALATION.length - 1));
      const open = openIssues(state, catalog, base).length;
      const input = withoutPseudoSteps(state, catalog);
      let fallback: Sequence | Stalled = stall('optimiser found nothing to repair');
      for (const stage of stages) {
        try {
          const result = await repair(input, catalog, { ...base, ...stage });
          if (result.determination === null) {
            fallback = stall(`optimiser undecided: ${result.reason ?? result.status}`);
            continue;
          }
          if (result.determination === true && input === state)
            return stall('optimiser found nothing to repair');
          // Below `minConfidence` or over `maxTries` the repair is not proposed: the feedback goes on to the
          // next fixer or a person.
          if (isHeldBack(result, base.minConfidence)) {
            const why = result.status === 'exhausted' ? 'exhausted' : 'unsure';
            fallback = stall(`optimiser ${why}: ${result.reason ?? result.status}`);
            continue;
          }
          // A partial repair drops a call of the user's (no catalog API near its name, or none a narrow stage
          // may use): fewer issues, but not the plan asked for. A wider stage may keep the call; else the
          // feedback goes on, as for an unsure repair, rather than the loop calling the plan solved.
          if (result.status === 'partial') {
            const dropped = result.dropped?.map((d) => d.name).join(', ') ?? '';
            fallback = stall(`optimiser would drop a call of the plan: ${dropped}`);
            continue;
          }
          if (openIssues(result.sequence, catalog, base).length < open) return result.sequence;
          fallback = result.sequence;
        } catch (error) {
          fallback = stall(`optimiser failed: ${errorMessage(error)}`);
        }
      }
      return fallback;
    },
  };
}
