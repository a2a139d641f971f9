/** Text rendering shared by the feedback formats: calls in the one-call-per-line form, locations, fields. */
import type { ApiSpec, Edit, Issue, Json, Sequence, Step } from '../model/types.ts';
import { formatValue } from '../read/literal.ts';
import { formatStep } from '../read/string-form.ts';
import { stepNumber } from '../model/numbers.ts';

export { formatValue };

/** `var1 = SkyScrapperSearchAirport(query="New York")`: the string form of one call. */
export const formatCall: (step: Step) => string = formatStep;

/** `var1 = SkyScrapperSearchAirport` (label and API, without arguments). */
export function callTitle(step: Step): string {
  return step.label !== undefined ? `${step.label} = ${step.name}` : step.name;
}

/** `step 3 (var3 = SkyScrapperFlightSearch)`: 1-based, as the validator's messages count. */
export function stepTitle(sequence: Sequence, index: number): string {
  const step = sequence[index];
  return step ? `step ${stepNumber(index)} (${callTitle(step)})` : `step ${stepNumber(index)}`;
}

/** `[unknown_parameter] step 3 (var3 = X), parameter p, reference $r$: message`. */
export function formatIssue(sequence: Sequence, issue: Issue): string {
  const where = [sequence.length === 0 ? 'sequence' : stepTitle(sequence, issue.step)];
  if (issue.param !== undefined) where.push(`parameter ${issue.param}`);
  if (issue.ref !== undefined) where.push(`reference ${issue.ref}`);
  const severity = issue.severity === 'warning' ? ' (warning)' : '';
  return `[${issue.tag}]${severity} ${where.join(', ')}: ${issue.message}`;
}

/** `2 errors, 1 warning`. */
export function countIssues(issues: readonly Issue[]): string {
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.length - errors;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** The top-level output fields an API declares (`skyId`, `presentation`), or null when undeclared. */
export function topFields(api: ApiSpec): string[] | null {
  if (!api.outputs) return null;
  return api.outputs.map((f) => f.path).filter((p) => !p.includes('.') && !p.includes('[]'));
}

/** The top-level keys of a memory item (an object), or `[]` for a scalar or list. */
export function memoryFields(value: Json): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

/** `var1.{skyId, entityId}`; `var1 (whole output only)` when no field is known. */
export function formatFields(label: string, fields: readonly string[] | null): string {
  if (fields === null) return `${label} (fields undeclared)`;
  if (fields.length === 0) return `${label} (whole output only)`;
  return `${label}.{${fields.join(', ')}}`;
}

/** One edit of a repair as a text line: `relabel (step 2, 1): var20 -> var2`. */
export function editLine(edit: Edit): string {
  return `${edit.kind} (step ${stepNumber(edit.step)}, ${edit.cost}): ${edit.detail}`;
}

/** A repair's confidence as the tail of a text line (`, confidence 0.969`); nothing when none was worked out. */
export function confidenceNote(confidence: number | undefined): string {
  return confidence === undefined ? '' : `, confidence ${confidence}`;
}
