/** The open issues of a tool-call sequence, and what counts as a sequence at all. */
import type { Catalog, Issue, Sequence, Step } from '../model/types.ts';
import type { ValidateOptions } from '../model/options.ts';
import { formatValue } from '../read/literal.ts';
import { apiByName, validate } from '../validate/validate.ts';
import { ASK, isPseudoStepIn } from '../model/constants.ts';

function pseudoIssue(step: Step, index: number): Issue {
  const slot = typeof step.arguments.slot === 'string' ? step.arguments.slot : (step.label ?? step.name);
  const values = Object.entries(step.arguments).map(([k, v]) => `${k}=${formatValue(v)}`);
  const message =
    step.name === ASK ? `ask the user for ${slot}` : `confirm with the user: ${values.join(', ')}`;
  return { tag: 'missing_parameter', severity: 'error', step: index, param: slot, message };
}

/**
 * The open issues of a sequence: its error-severity findings. Each `ask`/`confirm` pseudo-step left by a
 * repair counts as one open issue (a value only a person can give).
 */
export function openIssues(sequence: Sequence, catalog: Catalog, options: ValidateOptions = {}): Issue[] {
  const found = validate(sequence, catalog, { ...options, pseudoSteps: true }).issues.filter(
    (i) => i.severity === 'error',
  );
  const apis = apiByName(catalog);
  sequence.forEach((step, i) => {
    if (isPseudoStepIn(step, apis)) found.push(pseudoIssue(step, i));
  });
  return found.sort((a, b) => a.step - b.step);
}

/** True for a value shaped like a sequence (steps with a string name and an arguments object). */
export function isSequence(value: unknown): value is Sequence {
  return (
    Array.isArray(value) &&
    value.every(
      (s) =>
        s !== null &&
        typeof s === 'object' &&
        typeof s.name === 'string' &&
        s.arguments !== null &&
        typeof s.arguments === 'object' &&
        !Array.isArray(s.arguments) &&
        (s.label === undefined || typeof s.label === 'string'),
    )
  );
}
