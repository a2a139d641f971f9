/**
 * Error tags without a gold sequence: what the validator's issues evidence, plus calls repeated with the
 * same arguments. A made-up reference and an item missing from memory look alike to the validator
 * (`unknown_label`); a label one edit from an earlier label that would fit is read as the former.
 */
import type { Catalog, Issue, Sequence } from '../model/types.ts';
import { parseReferenceBody } from '../read/references.ts';
import { editDistance } from '../catalog/names.ts';
import { apiByName, validate } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { apiProvides } from '../validate/outputs.ts';
import { canonicalJson } from './align.ts';
import { fromIssue, order, type ErrorTag, type ErrorTagName, type TagOptions } from './tag-types.ts';
import { stepNumber } from '../model/numbers.ts';

/** Without a gold sequence: each validator error in the tag it evidences, plus exact repeats. */
export function tagFromIssues(pred: Sequence, catalog: Catalog, options: TagOptions = {}): ErrorTag[] {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const v = validate(pred, catalog, { memory: options.memory, resultName, types: options.types });
  const tags: ErrorTag[] = [];
  for (const issue of v.issues) {
    if (issue.severity !== 'error') continue;
    const tag = issueTag(issue, pred, catalog, resultName);
    if (tag) tags.push(fromIssue(tag, issue));
  }
  const seen = new Map<string, number>();
  pred.forEach((step, i) => {
    if (step.name === resultName) return;
    const key = `${step.name}\u0000${canonicalJson(step.arguments)}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else if (!tags.some((t) => t.tag === 'bad_repeat' && t.step === i))
      tags.push({
        tag: 'bad_repeat',
        step: i,
        detail: `repeats step ${stepNumber(first)} (${step.name}, same arguments)`,
      });
  });
  return order(dedupe(tags));
}

/** The tag a validator issue evidences (null: none in the vocabulary). */
export function issueTag(
  issue: Issue,
  pred: Sequence,
  catalog: Catalog,
  resultName: string,
): ErrorTagName | null {
  switch (issue.tag) {
    case 'unknown_api':
      return pred[issue.step]?.name === resultName ? null : 'made_up_api';
    case 'unknown_parameter':
      return 'made_up_parameter';
    case 'missing_parameter':
      return 'missing_parameter';
    case 'unknown_field':
      return 'made_up_assignment';
    case 'unknown_label':
      return misspeltLabel(issue, pred, catalog) ? 'made_up_assignment' : 'missing_memory';
    case 'forward_reference':
      return 'missing_memory';
    case 'type_mismatch':
    case 'enum_mismatch':
      return 'wrong_assignment';
    case 'duplicate_label': {
      const step = pred[issue.step];
      const first = pred.findIndex((s) => s.label === step.label);
      return pred[first].name === step.name ? 'bad_repeat' : null;
    }
    default:
      return null;
  }
}

/**
 * An unknown label one edit away from an earlier step's label whose API outputs the referenced field
 * (`$var20.skyId$` next to `var2 = SkyScrapperSearchAirport(…)`) is a made-up reference, not an item
 * missing from memory.
 */
function misspeltLabel(issue: Issue, pred: Sequence, catalog: Catalog): boolean {
  const ref = issue.ref ? parseReferenceBody(issue.ref.slice(1, -1)) : null;
  if (!ref) return false;
  const apis = apiByName(catalog);
  return pred.slice(0, issue.step).some((s) => {
    const api = apis.get(s.name);
    return (
      s.label !== undefined &&
      editDistance(s.label, ref.label, 1) <= 1 &&
      api !== undefined &&
      apiProvides(api, ref.path) !== 'no'
    );
  });
}

function dedupe(tags: ErrorTag[]): ErrorTag[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const key = JSON.stringify(t);
    return !seen.has(key) && (seen.add(key), true);
  });
}
